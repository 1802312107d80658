import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFeed } from '../index.js';

describe('readXmlTree on broken documents', () => {
  it('names only the entity Name when a bare & comes before markup', () => {
    const doc =
      '<rss version="2.0"><channel><item><title>Fish &chips</title><link>http://a/</link></item>' +
      '<item><title>b &amp; c;</title></item></channel></rss>';
    const result = parseFeed(doc);
    const undefinedEntity = result.diagnostics.find((d) => d.code === 'xml.undefined-entity');
    assert.equal(undefinedEntity?.message, 'xml: undefined entities &chips; (kept as written)');
    assert.equal(result.entries.length, 2);
    assert.equal(result.entries[0]?.link, 'http://a/');
  });

  it('points at a bare & after CDATA sections, comments and references', () => {
    const doc =
      '<rss version="2.0"><channel><item><title><![CDATA[a & b]]></title><!-- & --><?pi & ?>' +
      '<description>&amp;&#38;&#x26; x & y</description></item></channel></rss>';
    const result = parseFeed(doc);
    const error = result.diagnostics.find((d) => d.code === 'xml.not-well-formed');
    assert.equal(error?.message, 'xml: a bare "&" (write &amp;)');
    assert.equal(error?.column, doc.indexOf(' & y') + 2);
  });

  it('stops reading when thousands of elements are left open, and says so', () => {
    const doc = `<rss version="2.0"><channel><item><title>x</title></item>${'<a>'.repeat(5000)}</channel></rss>`;
    const result = parseFeed(doc);
    assert.equal(result.entries.length, 1);
    assert.ok(result.diagnostics.some((d) => d.message.includes('the rest of the document was not read')));
  });
});
