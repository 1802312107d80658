import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import type { Diagnostic } from '../model/diagnostic.js';
import type { Entry } from '../model/entry.js';
import { parseFeed } from '../parse/index.js';
import { hashEntry, identifyEntries, toNewEntry } from './entries.js';

function urlsOf(items: string): (string | undefined)[] {
  const doc = `<rss version="2.0"><channel><title>t</title>${items}</channel></rss>`;
  const { entries } = parseFeed(doc, { baseUrl: 'https://example.org/feed.xml' });
  const diagnostics: Diagnostic[] = [];
  return identifyEntries(entries, diagnostics).map(
    (item) => toNewEntry(item, new Date(), diagnostics, false).url,
  );
}

describe('toNewEntry: the entry link', () => {
  it('takes a guid as the link when it is a URL or a path from the root', () => {
    assert.deepEqual(
      urlsOf(
        '<item><guid>https://example.org/a</guid></item><item><guid>/2026/11/b</guid></item>' +
          '<item><guid isPermaLink="false">https://example.org/c</guid><link>https://example.org/c.html</link></item>',
      ),
      ['https://example.org/a', 'https://example.org/2026/11/b', 'https://example.org/c.html'],
    );
  });

  it('gives no link when the only candidate is a guid that is no URL', () => {
    assert.deepEqual(urlsOf('<item><guid>post-1234</guid><title>x</title></item>'), [undefined]);
  });

  it('keeps the <link> of an item whose permalink guid, no URL, comes before it', () => {
    assert.deepEqual(
      urlsOf('<item><guid>post-1234</guid><title>x</title><link>https://example.org/p/1234</link></item>'),
      ['https://example.org/p/1234'],
    );
  });
});

describe('hashEntry', () => {
  // The hash as the first releases computed it, part by part: stored hashes must keep matching.
  function streamedHash(entry: Entry): string {
    const hash = createHash('sha256');
    for (const part of [entry.title, entry.link, entry.summary, entry.publishedRaw, entry.updatedRaw])
      hash.update(part ?? '\u0001').update('\u0000');
    for (const content of entry.content ?? []) hash.update(content.value).update('\u0000');
    hash.update('\u0002');
    for (const enclosure of entry.enclosures ?? []) hash.update(enclosure.href).update('\u0000');
    return hash.digest('hex');
  }

  it('hashes the same bytes as the hash stored by earlier versions', () => {
    const entries: Entry[] = [
      {},
      {
        title: 'Café ☕',
        link: 'https://example.org/a',
        summary: '<p>x</p>',
        publishedRaw: 'Mon, 01 Jan 2024',
      },
      {
        title: 'lone \ud800',
        summary: '\udc00 starts with a lone low surrogate',
        content: [
          { type: 'text/html', value: '<b>é</b>' },
          { type: 'text/plain', value: '' },
        ],
        enclosures: [{ href: 'https://example.org/a.mp3' }, { href: 'https://example.org/b.ogg' }],
        updatedRaw: '2024-01-01',
      },
    ];
    for (const entry of entries) assert.equal(hashEntry(entry), streamedHash(entry));
    assert.notEqual(hashEntry(entries[1] as Entry), hashEntry({ ...entries[1], title: 'Cafe ☕' }));
  });
});

// A YouTube channel feed as YouTube writes it: Atom, the video in media:group (title, content of the
// Flash player, thumbnail, description), no content of its own.
const YOUTUBE = `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns:yt="http://www.youtube.com/xml/schemas/2015" xmlns:media="http://search.yahoo.com/mrss/" xmlns="http://www.w3.org/2005/Atom">
 <title>A channel</title>
 <entry>
  <id>yt:video:abc123</id>
  <yt:videoId>abc123</yt:videoId>
  <title>A video</title>
  <link rel="alternate" href="https://www.youtube.com/watch?v=abc123"/>
  <published>2026-11-20T10:00:00+00:00</published>
  <updated>2026-11-21T10:00:00+00:00</updated>
  <media:group>
   <media:title>A video</media:title>
   <media:content url="https://www.youtube.com/v/abc123?version=3" type="application/x-shockwave-flash" width="640" height="390"/>
   <media:thumbnail url="https://i1.ytimg.com/vi/abc123/hqdefault.jpg" width="480" height="360"/>
   <media:description>What the video is about.</media:description>
  </media:group>
 </entry>
</feed>`;

describe('toNewEntry: Media RSS', () => {
  it("keeps a YouTube entry's thumbnail, description and media content", () => {
    const { entries } = parseFeed(YOUTUBE, { baseUrl: 'https://www.youtube.com/feeds/videos.xml' });
    const diagnostics: Diagnostic[] = [];
    const [item] = identifyEntries(entries, diagnostics);
    assert.ok(item);
    const stored = toNewEntry(item, new Date(), diagnostics, false);
    assert.deepEqual(stored.extra['media'], {
      items: [{ url: 'https://www.youtube.com/v/abc123?version=3', type: 'application/x-shockwave-flash' }],
      thumbnail: 'https://i1.ytimg.com/vi/abc123/hqdefault.jpg',
      description: 'What the video is about.',
    });
  });
});

describe('toNewEntry: text for Microsub', () => {
  it('stores the text of HTML content with it, so that jf2 does not convert it on every request', () => {
    const doc =
      '<rss version="2.0"><channel><title>t</title><item><guid>a</guid><description>&lt;p&gt;Hello &lt;b&gt;world&lt;/b&gt;&lt;/p&gt;</description></item></channel></rss>';
    const { entries } = parseFeed(doc, { baseUrl: 'https://example.org/feed.xml' });
    const diagnostics: Diagnostic[] = [];
    const [item] = identifyEntries(entries, diagnostics);
    const stored = toNewEntry(item!, new Date(), diagnostics, false);
    assert.equal(stored.contentHtml, '<p>Hello <b>world</b></p>');
    assert.equal(stored.contentText, 'Hello world');
  });
});
