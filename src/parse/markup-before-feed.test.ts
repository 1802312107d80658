import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Diagnostic, ParseResult } from '../model/index.js';
import { parseFeed } from './index.js';

const WARNING =
  '<br />\n<b>Warning</b>:  Cannot modify header information - headers already sent in <b>/var/www/feed.php</b> on line <b>3</b><br />\n';

/**
 * Checks that `result` is the feed of this version with entries a and b, marked bozo, and says on line 1
 * that something came first; returns that diagnostic.
 */
function readPastWhatCameFirst(result: ParseResult, version: string): Diagnostic | undefined {
  assert.equal(result.version, version);
  assert.ok(result.bozo);
  assert.deepEqual(
    result.entries.map((e) => e.title),
    ['a', 'b'],
  );
  const before = result.diagnostics.find((d) => d.code === 'document.markup-before-feed');
  assert.equal(before?.line, 1);
  return before;
}

describe('markup printed before the feed (a PHP warning)', () => {
  it('reads the feed that follows it, and says what came first', () => {
    const result = parseFeed(
      `${WARNING}<?xml version="1.0"?>\n<rss version="2.0"><channel><title>T</title>` +
        '<item><title>a</title><guid>1</guid></item><item><title>b</title><guid>2</guid></item></channel></rss>',
    );
    const before = readPastWhatCameFirst(result, 'rss20');
    assert.equal(before?.severity, 'warning');
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

describe('text printed before a JSON Feed (a PHP warning)', () => {
  const feed = JSON.stringify(
    {
      version: 'https://jsonfeed.org/version/1.1',
      title: 'J',
      items: [
        { id: '1', title: 'a', content_text: 'x' },
        { id: '2', title: 'b', content_text: 'y' },
      ],
    },
    null,
    2,
  );

  it('reads the feed that follows it, says what came first, and keeps lines and columns', () => {
    const result = parseFeed(`${WARNING}${feed}`);
    const before = readPastWhatCameFirst(result, 'json11');
    assert.match(before?.message ?? '', /"<br \/>/);
    // an error in the feed is placed where it is in the document, warning lines included
    const broken = parseFeed(`Notice: Undefined index: page\n${feed.replace('"title": "b"', '"title": b')}`);
    assert.equal(broken.entries[0]?.title, 'a');
    const invalid = broken.diagnostics.find((d) => d.code === 'json.invalid');
    const line =
      `Notice: Undefined index: page\n${feed}`.split('\n').findIndex((l) => l.includes('"title": "b"')) + 1;
    assert.equal(invalid?.line, line);
  });

  it('leaves a page that shows a JSON Feed, and an XML feed followed by JSON, as they are', () => {
    const page = parseFeed(`<!doctype html><html><body><p>Our feed:</p>\n${feed}</body></html>`);
    assert.equal(page.version, '');
    const shown = parseFeed(`<div><pre>\n${feed}</pre></div>`);
    assert.equal(shown.version, '');
    const xml = parseFeed(
      `<rss version="2.0"><channel><title>T</title><description>\n${feed}</description></channel></rss>`,
    );
    assert.equal(xml.version, 'rss20');
  });
});
