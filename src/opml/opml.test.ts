import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readOpml } from './read.js';
import { writeOpml } from './write.js';

describe('readOpml', () => {
  it('reads feeds with their folders as the channel ("Parent / Child") and their line', () => {
    const doc = readOpml(`<?xml version="1.0"?>
<opml version="1.0"><head><title>My feeds</title></head><body>
  <outline text="Top" xmlUrl="https://a.example/feed" htmlUrl="https://a.example/"/>
  <outline text="News"><outline title="B" text="b" xmlUrl="https://b.example/rss"/>
    <outline text="Deeper"><outline text="C" xmlUrl="https://c.example/atom"/></outline></outline>
</body></opml>`);
    assert.equal(doc.title, 'My feeds');
    assert.deepEqual(doc.feeds, [
      { xmlUrl: 'https://a.example/feed', title: 'Top', htmlUrl: 'https://a.example/', line: 3 },
      { xmlUrl: 'https://b.example/rss', title: 'B', channel: 'News', line: 4 },
      { xmlUrl: 'https://c.example/atom', title: 'C', channel: 'News / Deeper', line: 5 },
    ]);
  });

  it('reads an OPML file that is not well-formed, and says so', () => {
    const doc = readOpml(
      '<opml><body><outline text="A & B" xmlUrl="https://a.example/?x=1&y=2"></body></opml>',
    );
    assert.equal(doc.feeds[0]?.xmlUrl, 'https://a.example/?x=1&y=2');
    assert.match(doc.warnings[0] ?? '', /not well-formed/);
  });

  it('reports a document that is not OPML', () => {
    const doc = readOpml('<rss version="2.0"><channel/></rss>');
    assert.deepEqual(doc.feeds, []);
    assert.match(doc.warnings[0] ?? '', /not OPML/);
  });
});

describe('writeOpml', () => {
  it('writes channels as folders and round-trips through readOpml', () => {
    const text = writeOpml(
      [
        {
          name: 'Tech & "Stuff"',
          feeds: [
            { xmlUrl: 'https://a.example/feed?x=1&y=2', title: 'A <b>', htmlUrl: 'https://a.example/' },
          ],
        },
      ],
      { title: 'tidings', now: '2026-01-02T03:04:05Z' },
    );
    assert.match(text, /<opml version="2.0">/);
    const doc = readOpml(text);
    assert.deepEqual(doc.warnings, []);
    assert.deepEqual(doc.feeds, [
      {
        xmlUrl: 'https://a.example/feed?x=1&y=2',
        title: 'A <b>',
        htmlUrl: 'https://a.example/',
        channel: 'Tech & "Stuff"',
        line: 9,
      },
    ]);
  });

  it('writes "A / B" channels as nested folders, which read back as the same channels', () => {
    const channels = [
      { name: 'A', feeds: [{ xmlUrl: 'https://a.example/1', title: 'one' }] },
      { name: 'A / B', feeds: [{ xmlUrl: 'https://a.example/2', title: 'two' }] },
      { name: 'A / B / C', feeds: [{ xmlUrl: 'https://a.example/3', title: 'three' }] },
      { name: 'D', feeds: [{ xmlUrl: 'https://d.example/4', title: 'four' }] },
    ];
    const text = writeOpml(channels, { title: 't', now: '2026-01-02T03:04:05Z' });
    assert.match(
      text,
      /<outline text="A" title="A">\n\s+<outline type="rss"[^\n]+\n\s+<outline text="B" title="B">/,
    );
    const back = readOpml(text).feeds.map((f) => [f.channel, f.xmlUrl]);
    assert.deepEqual(
      back,
      channels.map((c) => [c.name, c.feeds[0]?.xmlUrl]),
    );
  });
});
