import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFeed } from './index.js';

const WARNING =
  '<br />\n<b>Warning</b>:  Cannot modify header information - headers already sent in <b>/var/www/feed.php</b> on line <b>3</b><br />\n';

describe('markup printed before the feed (a PHP warning)', () => {
  it('reads the feed that follows it, and says what came first', () => {
    const result = parseFeed(
      `${WARNING}<?xml version="1.0"?>\n<rss version="2.0"><channel><title>T</title>` +
        '<item><title>a</title><guid>1</guid></item><item><title>b</title><guid>2</guid></item></channel></rss>',
    );
    assert.equal(result.version, 'rss20');
    assert.ok(result.bozo);
    assert.deepEqual(
      result.entries.map((e) => e.title),
      ['a', 'b'],
    );
    const before = result.diagnostics.find((d) => d.code === 'document.markup-before-feed');
    assert.equal(before?.severity, 'warning');
    assert.equal(before?.line, 1);
    assert.match(before?.message ?? '', /<br> first/);
  });

  it('reads an Atom feed after it too, and leaves a page without a feed a page', () => {
    const atom = parseFeed(
      `${WARNING}<feed xmlns="http://www.w3.org/2005/Atom"><title>A</title><id>urn:a</id><entry><id>urn:1</id><title>x</title></entry></feed>`,
    );
    assert.equal(atom.version, 'atom10');
    assert.deepEqual(
      atom.entries.map((e) => e.id),
      ['urn:1'],
    );
    const page = parseFeed(`${WARNING}<p>no feed here</p>`);
    assert.equal(page.version, '');
    assert.ok(page.diagnostics.some((d) => d.code === 'document.not-a-feed'));
  });
});
