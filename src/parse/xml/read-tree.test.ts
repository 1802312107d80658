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

describe('parameter entities in the DTD', () => {
  const feed = (dtd: string) =>
    `<!DOCTYPE rss [${dtd}]><rss version="2.0"><channel><item><title>a</title></item></channel></rss>`;

  it('reports declared parameter entities as ignored, and the document stays well-formed', () => {
    const result = parseFeed(feed('<!ENTITY % ext "x"><!ENTITY who "me">'));
    const found = result.diagnostics.find((d) => d.code === 'xml.parameter-entity');
    assert.equal(found?.message, 'xml: the DTD declares parameter entities (%ext;), which are ignored');
    assert.equal(result.bozo, false);
  });

  it('reports an external parameter entity the DTD uses (an XHTML entity set), and stays well-formed', () => {
    const result = parseFeed(
      feed(
        '<!ENTITY % HTMLlat1 PUBLIC "-//W3C//ENTITIES Latin 1 for XHTML//EN" "http://x/l.ent"> %HTMLlat1;',
      ),
    );
    const found = result.diagnostics.find((d) => d.code === 'xml.parameter-entity');
    assert.equal(found?.message, 'xml: the DTD uses parameter entities (%HTMLlat1;), which are ignored');
    assert.equal(result.bozo, false);
  });

  it('makes a document bozo when a parameter entity it uses declares something: that is not read', () => {
    const result = parseFeed(feed('<!ENTITY % defs "<!ENTITY who \'me\'>"> %defs;'));
    const found = result.diagnostics.find((d) => d.code === 'xml.parameter-entity-used');
    assert.equal(
      found?.message,
      'xml: the DTD declares through parameter entities (%defs;), which are not read',
    );
    assert.equal(result.bozo, true);
    assert.equal(result.bozoReason, 'parameter entities in the DTD');
    assert.equal(result.entries.length, 1);
  });
});
