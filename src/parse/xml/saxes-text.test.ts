import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadSaxes } from '../lazy-imports.js';
import { DocumentText } from '../text/index.js';
import { readDoctype } from './doctype.js';
import { textBufferingParser } from './saxes-text.js';
import { parseStrict } from './strict.js';
import { textOf, type XmlElement } from './tree.js';

const LIMITS = { maxDepth: 64 };

/** The text of the root's first child element, and the strict pass's error, with our loop or saxes's. */
function read(xml: string, withSaxesLoop = false, pieceBytes?: number) {
  const Parser = withSaxesLoop ? loadSaxes().SaxesParser : undefined;
  const input = pieceBytes ? DocumentText.fromUtf8(new TextEncoder().encode(xml), pieceBytes) : xml;
  const strict = parseStrict(input, readDoctype(xml), LIMITS, Parser);
  const first = strict.doc.root?.children.find((c) => 'local' in c) as XmlElement | undefined;
  return {
    text: first ? textOf(first) : undefined,
    children: first?.children.length,
    error: strict.error?.message,
    offset: strict.error?.offset,
    undefinedNames: strict.entityUse.undefinedNames,
  };
}

describe('the strict pass decodes character data with its own loop', () => {
  it("is in use: saxes's internals are the ones it was written for", () => {
    const { SaxesParser } = loadSaxes();
    assert.notEqual(textBufferingParser(SaxesParser), SaxesParser);
  });

  it('decodes escaped HTML, numeric references and line breaks as saxes does', () => {
    const xml =
      '<r><d>&lt;p class=&quot;x&quot;&gt;caf&#233; &#x1F600; &amp;amp;&lt;/p&gt;\r\nnext\rline</d></r>';
    const ours = read(xml);
    assert.equal(ours.text, '<p class="x">café 😀 &amp;</p>\nnext\nline');
    assert.deepEqual(ours, read(xml, true));
  });

  it('reads references cut by a piece boundary, at every cut', () => {
    const xml = '<r><d>a &lt;b&gt; &#233;&eacute;&apos;\r\n&quot;</d></r>';
    const whole = read(xml, true);
    for (let size = 4; size < 12; size++)
      assert.deepEqual(read(xml, false, size), whole, `pieces of ${size}`);
  });

  it('decodes text longer than its buffer in one piece of text', () => {
    const xml = `<r><d>${'&lt;i&gt;x'.repeat(20_000)}</d></r>`;
    const ours = read(xml);
    assert.equal(ours.text, '<i>x'.repeat(20_000));
    assert.deepEqual(read(xml, false, 1000), ours);
  });

  it('reports what saxes reports: undefined, empty and malformed references, "]]>"', () => {
    const documents = [
      '<r><d>&nbsp;&eacute;&bogus;</d></r>',
      '<r><d>a &; b</d></r>',
      '<r><d>AT&T rocks; ok</d></r>',
      '<r><d>a & b</d></r>',
      '<r><d>a ]]&gt; b ]]> c</d></r>',
      '<r><d>&#0;</d></r>',
      '<r><d>&#xD800;</d></r>',
      '<r><d>&#X41; &#x; &#; &#x41g; &#0000000065; &#x110000; &#12a;</d></r>',
      '<r><d>&#x1f600;&#128512;&#65;&#x0041;</d></r>',
      '<!DOCTYPE r [<!ENTITY none "">]><r><d>&none;</d><e>&none;&none;<f/></e></r>',
      '<!DOCTYPE r [<!ENTITY me "tidings">]><r><d>&me; &lt;</d></r>',
    ];
    for (const xml of documents) {
      const ours = read(xml);
      assert.deepEqual(ours, read(xml, true), xml);
    }
    assert.deepEqual(read(documents[0] as string).undefinedNames, ['nbsp', 'eacute']);
    assert.equal(read(documents[documents.length - 1] as string).text, 'tidings <');
    assert.match(read(documents[1] as string).error ?? '', /empty entity name/);
  });
});
