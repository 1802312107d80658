import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DocumentText } from '../text/index.js';
import { readDoctype } from './doctype.js';
import { parseStrict } from './strict.js';
import { textOf, type XmlElement } from './tree.js';

const LIMITS = { maxDepth: 64 };

/** The text of the root's first child element, and the strict pass's error, read whole or in pieces. */
function read(xml: string, pieceBytes?: number) {
  const input = pieceBytes ? DocumentText.fromUtf8(new TextEncoder().encode(xml), pieceBytes) : xml;
  const strict = parseStrict(input, readDoctype(xml), LIMITS);
  const first = strict.doc.root?.children.find((c) => 'local' in c) as XmlElement | undefined;
  return {
    text: first ? textOf(first) : undefined,
    children: first?.children.length,
    error: strict.error?.message,
    offset: strict.error?.offset,
    undefinedNames: strict.entityUse.undefinedNames,
  };
}

/** What read() gives for a document that is read whole, with no error. */
function wellFormed(text: string, children: number, undefinedNames: string[] = []) {
  return { text, children, error: undefined, offset: undefined, undefinedNames };
}

/** What read() gives for a document whose strict pass stops at an error inside the first element. */
function stopped(error: string, offset: number) {
  return { text: '', children: 0, error, offset, undefinedNames: [] };
}

// Until issue 23 a loop of our own replaced saxes's for character data; these pin what saxes's own
// loop gave in the comparisons that loop was tested by, now that saxes reads character data itself.
describe('the strict pass reads character data with saxes', () => {
  it('keeps one text node per run of character data, a CDATA section apart', () => {
    const strict = parseStrict(
      '<r><d>a &lt; b<![CDATA[<c>]]>d &amp; e<!-- x -->f</d></r>',
      undefined,
      LIMITS,
    );
    const d = strict.doc.root?.children[0] as XmlElement;
    assert.deepEqual(d.children, [{ text: 'a < b' }, { text: '<c>', cdata: true }, { text: 'd & ef' }]);
  });

  it('decodes escaped HTML, numeric references and line breaks', () => {
    const xml =
      '<r><d>&lt;p class=&quot;x&quot;&gt;caf&#233; &#x1F600; &amp;amp;&lt;/p&gt;\r\nnext\rline</d></r>';
    const ours = read(xml);
    assert.equal(ours.text, '<p class="x">café 😀 &amp;</p>\nnext\nline');
    assert.deepEqual(ours, wellFormed('<p class="x">café 😀 &amp;</p>\nnext\nline', 1));
  });

  it('reads references cut by a piece boundary, at every cut', () => {
    const xml = '<r><d>a &lt;b&gt; &#233;&eacute;&apos;\r\n&quot;</d></r>';
    const whole = read(xml);
    for (let size = 4; size < 12; size++) assert.deepEqual(read(xml, size), whole, `pieces of ${size}`);
  });

  it('decodes a long text of references in one piece of text', () => {
    const xml = `<r><d>${'&lt;i&gt;x'.repeat(20_000)}</d></r>`;
    const ours = read(xml);
    assert.equal(ours.text, '<i>x'.repeat(20_000));
    assert.deepEqual(read(xml, 1000), ours);
  });

  it('reports undefined, empty and malformed references, and "]]>"', () => {
    const documents: [string, ReturnType<typeof read>][] = [
      ['<r><d>&nbsp;&eacute;&bogus;</d></r>', wellFormed('\u00a0é&bogus;', 1, ['nbsp', 'eacute'])],
      ['<r><d>a &; b</d></r>', stopped('empty entity name.', 10)],
      ['<r><d>AT&T rocks; ok</d></r>', stopped('disallowed character in entity name.', 17)],
      ['<r><d>a & b</d></r>', stopped('unclosed tag: d', 19)],
      ['<r><d>a ]]&gt; b ]]> c</d></r>', stopped('the string "]]>" is disallowed in char data.', 20)],
      ['<r><d>&#0;</d></r>', stopped('malformed character entity.', 10)],
      ['<r><d>&#xD800;</d></r>', stopped('malformed character entity.', 14)],
      [
        '<r><d>&#X41; &#x; &#; &#x41g; &#0000000065; &#x110000; &#12a;</d></r>',
        stopped('malformed character entity.', 12),
      ],
      ['<r><d>&#x1f600;&#128512;&#65;&#x0041;</d></r>', wellFormed('😀😀AA', 1)],
      ['<!DOCTYPE r [<!ENTITY none "">]><r><d>&none;</d><e>&none;&none;<f/></e></r>', wellFormed('', 0)],
      ['<!DOCTYPE r [<!ENTITY me "tidings">]><r><d>&me; &lt;</d></r>', wellFormed('tidings <', 1)],
    ];
    for (const [xml, expected] of documents) assert.deepEqual(read(xml), expected, xml);
    assert.deepEqual(read(documents[0]?.[0] as string).undefinedNames, ['nbsp', 'eacute']);
    assert.equal(read(documents[documents.length - 1]?.[0] as string).text, 'tidings <');
    assert.match(read(documents[1]?.[0] as string).error ?? '', /empty entity name/);
  });
});
