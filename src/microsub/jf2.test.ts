import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { displayTitle, type Jf2Source, toJf2 } from './jf2.js';

const FEED = {
  url: 'https://blog.example/feed.xml',
  title: 'The Blog',
  siteUrl: 'https://blog.example/',
  iconUrl: 'https://blog.example/icon.png',
};

function entry(fields: Partial<Jf2Source> = {}): Jf2Source {
  return { guid: 'g1', authors: [], categories: [], enclosures: [], extra: {}, ...fields };
}

describe('toJf2', () => {
  it('leaves out every URL that is not absolute http(s), and keeps the others as stored', () => {
    const item = toJf2(
      entry({
        guid: 'javascript:alert(1)',
        url: 'javascript:alert(2)',
        authors: [{ name: 'Ann', uri: 'data:text/html,x', photo: 'JAVA\tSCRIPT:alert(3)' }],
        enclosures: [
          { href: 'data:audio/mpeg;base64,AA', type: 'audio/mpeg' },
          { href: 'https://cdn.example/a.mp3', type: 'audio/mpeg' },
        ],
        extra: {
          photo: ['javascript:alert(4)'],
          'in-reply-to': ['vbscript:x', 'https://Reply.example/p'],
          media: { thumbnail: 'https://i.example/t.jpg', items: [{ url: 'javascript:x', medium: 'video' }] },
        },
      }),
      { ...FEED, siteUrl: 'javascript:alert(5)', iconUrl: 'https://blog.example/icon.png' },
    );
    assert.deepEqual(item, {
      type: 'entry',
      author: {
        type: 'card',
        name: 'Ann',
        url: 'https://blog.example/feed.xml',
        photo: 'https://blog.example/icon.png',
      },
      photo: ['https://i.example/t.jpg'],
      audio: ['https://cdn.example/a.mp3'],
      'in-reply-to': ['https://Reply.example/p'],
    });
    assert.equal(toJf2(entry({ guid: 'tag:blog.example,2026:1' }), FEED).uid, 'tag:blog.example,2026:1');
    const page = toJf2(entry(), { url: 'javascript:alert(6)' });
    assert.equal(page.author, undefined);
  });

  it('maps an article with every property and the Microsub extensions', () => {
    const item = toJf2(
      entry({
        url: 'https://blog.example/a',
        title: 'An article',
        summary: 'In short',
        contentHtml: '<p>The <b>body</b></p>',
        published: '2026-01-02T10:00:00Z',
        updated: '2026-01-03T10:00:00Z',
        authors: [
          { name: 'Ann', uri: 'https://ann.example/', photo: 'https://ann.example/a.jpg', email: 'a@x' },
        ],
        categories: ['one', 'two'],
        extra: {
          'in-reply-to': ['https://x.example/1'],
          syndication: ['https://s.example/2'],
          photo: ['https://p.example/3.jpg'],
        },
      }),
      FEED,
      { id: 42, isRead: false, feedId: 7 },
    );
    assert.deepEqual(item, {
      type: 'entry',
      uid: 'g1',
      url: 'https://blog.example/a',
      name: 'An article',
      summary: 'In short',
      content: { html: '<p>The <b>body</b></p>', text: 'The body' },
      published: '2026-01-02T10:00:00Z',
      updated: '2026-01-03T10:00:00Z',
      author: { type: 'card', name: 'Ann', url: 'https://ann.example/', photo: 'https://ann.example/a.jpg' },
      category: ['one', 'two'],
      photo: ['https://p.example/3.jpg'],
      'in-reply-to': ['https://x.example/1'],
      syndication: ['https://s.example/2'],
      _id: '42',
      _is_read: false,
      _source: '7',
    });
  });

  it('gives _id and _source as strings', () => {
    const item = toJf2(entry(), FEED, { id: 1, feedId: 2, isRead: true });
    assert.equal(typeof item._id, 'string');
    assert.equal(typeof item._source, 'string');
    assert.equal(item._is_read, true);
  });

  it('takes the text of HTML content as stored with it, without converting the HTML again', () => {
    const item = toJf2(
      entry({ contentHtml: '<p>Stored <b>HTML</b></p>', contentText: 'text stored at poll time' }),
      FEED,
    );
    assert.deepEqual(item.content, { html: '<p>Stored <b>HTML</b></p>', text: 'text stored at poll time' });
    const older = toJf2(entry({ contentHtml: '<p>Stored <b>HTML</b></p>' }), FEED);
    assert.deepEqual(older.content, { html: '<p>Stored <b>HTML</b></p>', text: 'Stored HTML' });
  });

  it('shows an entry without a title as a note (no name)', () => {
    const item = toJf2(entry({ contentText: 'Just a thought' }), FEED);
    assert.equal(item.name, undefined);
    assert.deepEqual(item.content, { text: 'Just a thought' });
  });

  it('drops a name that repeats the start of the content, ellipsis and all (as Aperture does)', () => {
    assert.equal(
      toJf2(entry({ title: 'Hello there', contentHtml: '<p>Hello   there, friends</p>' }), FEED).name,
      undefined,
    );
    assert.equal(toJf2(entry({ title: 'Hello th…', contentText: 'Hello there' }), FEED).name, undefined);
    assert.equal(toJf2(entry({ title: 'Different', contentText: 'Hello there' }), FEED).name, 'Different');
    // whitespace runs of either side count as one space; a space missing from the text does not
    const spaced = { title: ' Hello\n there ', contentText: '\n\t Hello \n\n there, friends' };
    assert.equal(toJf2(entry(spaced), FEED).name, undefined);
    assert.equal(toJf2(entry({ title: 'Hello there', contentText: 'Hellothere' }), FEED).name, 'Hello there');
    assert.equal(
      toJf2(entry({ title: 'Hello there!', contentText: 'Hello there' }), FEED).name,
      'Hello there!',
    );
  });

  it('falls back to the feed for the author: its title, site URL and icon', () => {
    assert.deepEqual(toJf2(entry(), FEED).author, {
      type: 'card',
      name: 'The Blog',
      url: 'https://blog.example/',
      photo: 'https://blog.example/icon.png',
    });
    assert.deepEqual(toJf2(entry({ authors: [{ name: 'Bo' }] }), FEED).author, {
      type: 'card',
      name: 'Bo',
      url: 'https://blog.example/',
      photo: 'https://blog.example/icon.png',
    });
    // no site: the feed itself, a URL that mute and block rules compare (its origin is none)
    assert.deepEqual(toJf2(entry(), { url: 'https://x.example/feed' }).author, {
      type: 'card',
      url: 'https://x.example/feed',
    });
    assert.equal(toJf2(entry(), undefined).author, undefined);
  });

  it('turns enclosures into audio, video and photo, by type or file extension', () => {
    const item = toJf2(
      entry({
        enclosures: [
          { href: 'https://c.example/ep1.mp3', type: 'audio/mpeg' },
          { href: 'https://c.example/clip.webm' },
          { href: 'https://c.example/cover.jpg', type: 'image/jpeg' },
          { href: 'https://c.example/file.zip', type: 'application/zip' },
        ],
        extra: { audio: ['https://c.example/ep1.mp3'] },
      }),
      FEED,
    );
    assert.deepEqual(item.audio, ['https://c.example/ep1.mp3']);
    assert.deepEqual(item.video, ['https://c.example/clip.webm']);
    assert.deepEqual(item.photo, ['https://c.example/cover.jpg']);
  });

  it('carries like-of, repost-of and bookmark-of, ignoring values that are not strings', () => {
    const item = toJf2(
      entry({
        extra: {
          'like-of': ['https://l.example/'],
          'repost-of': 'https://r.example/',
          'bookmark-of': [3, ''],
        },
      }),
      FEED,
    );
    assert.deepEqual(item['like-of'], ['https://l.example/']);
    assert.deepEqual(item['repost-of'], ['https://r.example/']);
    assert.equal(item['bookmark-of'], undefined);
  });

  it('dates an entry by published, else updated, else first seen', () => {
    assert.equal(toJf2(entry({ updated: 'U', firstSeenAt: 'F' }), FEED).published, 'U');
    assert.equal(toJf2(entry({ firstSeenAt: 'F' }), FEED).published, 'F');
    assert.equal(toJf2(entry({ published: 'P', updated: 'U', firstSeenAt: 'F' }), FEED).published, 'P');
  });

  it('gives a YouTube entry its thumbnail as photo and its description as content', () => {
    const item = toJf2(
      entry({
        title: 'A video',
        extra: {
          media: {
            items: [{ url: 'https://www.youtube.com/v/abc', type: 'application/x-shockwave-flash' }],
            thumbnail: 'https://i1.ytimg.com/vi/abc/hqdefault.jpg',
            description: 'What the video is about.',
          },
        },
      }),
      FEED,
    );
    assert.deepEqual(item.photo, ['https://i1.ytimg.com/vi/abc/hqdefault.jpg']);
    assert.equal(item.video, undefined);
    assert.deepEqual(item.content, { text: 'What the video is about.' });
  });

  it('gives Media RSS audio and video as audio and video, and enclosures by type', () => {
    const item = toJf2(
      entry({
        enclosures: [{ href: 'https://a.example/ep.mp3', type: 'audio/mpeg' }],
        extra: {
          media: {
            items: [
              { url: 'https://a.example/clip.mp4', type: 'video/mp4' },
              { url: 'https://a.example/ep.mp3', medium: 'audio' },
            ],
          },
        },
      }),
      FEED,
    );
    assert.deepEqual(item.audio, ['https://a.example/ep.mp3']);
    assert.deepEqual(item.video, ['https://a.example/clip.mp4']);
  });

  it('leaves out empty properties', () => {
    assert.deepEqual(toJf2({ guid: '', authors: [], categories: [], enclosures: [], extra: {} }, undefined), {
      type: 'entry',
    });
  });
});

describe('displayTitle', () => {
  it('uses the title, else "Post by" the author, the feed, or the domain', () => {
    assert.equal(displayTitle(entry({ title: 'T' }), FEED), 'T');
    assert.equal(displayTitle(entry({ authors: [{ name: 'Ann' }] }), FEED), 'Post by Ann');
    assert.equal(displayTitle(entry(), FEED), 'Post by The Blog');
    assert.equal(
      displayTitle(entry({ url: 'https://site.example/p' }), { url: 'https://f.example/' }),
      'Post by site.example',
    );
  });
});
