import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type SanitizeReport, sanitizeHtml } from '../../html/index.js';
import { parseFeed } from '../index.js';
import { MAX_ATTRIBUTES } from './builder.js';
import { parseStrict } from './strict.js';
import { readTolerant } from './tolerant.js';
import type { XmlElement } from './tree.js';

// Issue 12: what one element may make the parser do. Attribute names count down, so that the ones
// kept (the first written) are told apart from the ones dropped.
function attributes(n: number): string {
  const parts: string[] = [];
  for (let i = n; i > 0; i--) parts.push(` a${i}="v${i}"`);
  return parts.join('');
}

const N = MAX_ATTRIBUTES + 500;
const LIMITS = { maxDepth: 256 };

function itemOf(root: XmlElement | undefined): XmlElement {
  const channel = root?.children[0] as XmlElement;
  return channel.children[0] as XmlElement;
}

function assertFirstKept(item: XmlElement): void {
  const names = Object.keys(item.attrs);
  assert.equal(names.length, MAX_ATTRIBUTES);
  assert.equal(names[0], `a${N}`);
  assert.equal(names[MAX_ATTRIBUTES - 1], `a${N - MAX_ATTRIBUTES + 1}`);
  assert.equal(item.attrs[`a${N}`], `v${N}`);
}

describe('the attribute cap', () => {
  const wellFormed = `<rss><channel><item${attributes(N)}><title>t</title></item></channel></rss>`;

  it('keeps the first attributes of an element in the strict pass and counts the rest', () => {
    const result = parseStrict(wellFormed, undefined, LIMITS);
    assert.equal(result.error, undefined);
    const item = itemOf(result.doc.root);
    assertFirstKept(item);
    assert.deepEqual(result.droppedAttributes, { count: 500, offset: item.offset });
  });

  it('keeps the first attributes of an element in the tolerant pass, the first of duplicates too', () => {
    const text = `<rss><channel><item a${N}="first"${attributes(N)}><title>t &amp; u</title></item></channel></rss>`;
    const result = readTolerant(text, undefined, LIMITS);
    const item = itemOf(result.doc.root);
    assert.equal(item.attrs[`a${N}`], 'first');
    assert.equal(Object.keys(item.attrs).length, MAX_ATTRIBUTES);
    assert.equal(result.droppedAttributes?.count, 500);
    assert.equal(result.droppedAttributes?.offset, text.indexOf('<item'));
    assert.deepEqual((item.children[0] as XmlElement).children, [{ text: 't & u' }]);
  });

  it('reports the cut as a diagnostic on the element, in both passes', () => {
    const broken = wellFormed.replace('<title>t</title>', '<title>a < b</title>');
    for (const doc of [wellFormed, broken]) {
      const result = parseFeed(doc);
      const cut = result.diagnostics.find((d) => d.code === 'xml.too-many-attributes');
      assert.equal(cut?.line, 1);
      assert.match(cut?.message ?? '', /500 past the first 1024 were dropped/);
      assert.equal(result.bozo, true);
      assert.equal(result.entries.length, 1);
    }
  });

  it('leaves an element with as many attributes as the limit alone', () => {
    const result = parseFeed(
      `<rss><channel><item${attributes(MAX_ATTRIBUTES)}><title>t</title></item></channel></rss>`,
    );
    assert.equal(result.bozo, false);
    assert.ok(!result.diagnostics.some((d) => d.code === 'xml.too-many-attributes'));
  });

  it('keeps the first attributes of an HTML tag in the sanitizer and reports the rest', () => {
    const report: SanitizeReport = { droppedAttributes: 0 };
    const html = `<p title="first"${attributes(N).replace(/ a(\d+)=/g, ' title=')} class="late">x</p>`;
    // duplicates collapse to the last value kept (sanitize-tag.ts): the 1,024th title
    assert.equal(sanitizeHtml(html, { report }), `<p title="v${N - MAX_ATTRIBUTES + 2}">x</p>`);
    assert.equal(report.droppedAttributes, N - MAX_ATTRIBUTES + 2);
    const escaped = html.replace(/&/g, '&amp;').replace(/</g, '&lt;');
    const result = parseFeed(
      `<rss><channel><item><description>${escaped}</description></item></channel></rss>`,
    );
    const cut = result.diagnostics.find((d) => d.code === 'html.too-many-attributes');
    assert.equal(cut?.entry, 0);
    assert.equal(cut?.field, 'description');
  });
});
