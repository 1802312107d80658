import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFeed } from '../index.js';
import { pageRels, parseHfeed } from './hfeed.js';

// A typical IndieWeb home page: an h-feed with an author h-card, a note, an article, a reply and a like.
const HOME_PAGE = `<!DOCTYPE html>
<html><head><title>Jane &amp; her notes</title></head>
<body>
<div class="h-feed">
  <h1 class="p-name">Jane's stream</h1>
  <a class="p-author h-card" href="/"><img src="/jane.jpg" alt="">Jane Doe</a>
  <article class="h-entry">
    <a class="u-url u-uid" href="/notes/1"><time class="dt-published" datetime="2026-01-02T10:00:00Z">2 Jan</time></a>
    <div class="e-content">Hello <b>world</b>, see <a href="/about">me</a><script>alert(1)</script></div>
    <span class="p-category">indieweb</span> <span class="p-category">notes</span>
    <img class="u-photo" src="cat.jpg" alt="a cat">
    <a class="u-syndication" href="https://social.example/@jane/1">also here</a>
  </article>
  <article class="h-entry">
    <h2 class="p-name">A longer article</h2>
    <p class="p-summary">What it is about</p>
    <div class="e-content"><p>The body of the article.</p></div>
    <a class="u-url" href="/articles/2">permalink</a>
    <time class="dt-published" datetime="2026-01-01 09:30:00+01:00">1 Jan</time>
    <time class="dt-updated" datetime="2026-01-03T08:00:00Z">3 Jan</time>
  </article>
  <article class="h-entry">
    <a class="u-in-reply-to" href="https://other.example/post">In reply to</a>
    <p class="p-name e-content">Great post!</p>
    <a class="u-url" href="/replies/3">#</a>
    <span class="p-author h-card"><a class="u-url p-name" href="https://guest.example/">Guest</a></span>
  </article>
  <article class="h-entry">
    <div class="p-like-of h-cite"><a class="u-url p-name" href="https://liked.example/p">Liked post</a></div>
    <a class="u-url" href="/likes/4">#</a>
  </article>
</div>
</body></html>`;

describe('parseHfeed', () => {
  it('reads the h-feed name, url and author h-card', () => {
    const result = parseHfeed(HOME_PAGE, 'https://jane.example/')!;
    assert.equal(result.feed.title, "Jane's stream");
    assert.equal(result.feed.link, 'https://jane.example/');
    assert.deepEqual(result.feed.authors, [
      { name: 'Jane Doe', uri: 'https://jane.example/', photo: 'https://jane.example/jane.jpg' },
    ]);
    assert.equal(result.entries.length, 4);
  });

  it('maps a note: url, uid, published, sanitized content, categories, photo and syndication', () => {
    const note = parseHfeed(HOME_PAGE, 'https://jane.example/')!.entries[0]!;
    assert.equal(note.link, 'https://jane.example/notes/1');
    assert.equal(note.id, 'https://jane.example/notes/1');
    assert.equal(note.title, undefined);
    assert.equal(note.published, '2026-01-02T10:00:00Z');
    const html = note.content?.[0];
    assert.equal(html?.type, 'text/html');
    assert.match(html?.value ?? '', /Hello <b>world<\/b>/);
    assert.match(html?.value ?? '', /href="https:\/\/jane.example\/about"/);
    assert.doesNotMatch(html?.value ?? '', /script|alert/);
    assert.deepEqual(note.categories, [{ term: 'indieweb' }, { term: 'notes' }]);
    assert.deepEqual(note.mf2?.photo, ['https://jane.example/cat.jpg']);
    assert.deepEqual(note.mf2?.syndication, ['https://social.example/@jane/1']);
  });

  it('gives entries without an author the feed author', () => {
    const note = parseHfeed(HOME_PAGE, 'https://jane.example/')!.entries[0]!;
    assert.equal(note.authors?.[0]?.name, 'Jane Doe');
    assert.equal(note.author, 'Jane Doe');
  });

  it('keeps an article title, summary, and both dates (normalized to UTC)', () => {
    const article = parseHfeed(HOME_PAGE, 'https://jane.example/')!.entries[1]!;
    assert.equal(article.title, 'A longer article');
    assert.equal(article.summary, 'What it is about');
    assert.equal(article.published, '2026-01-01T08:30:00Z');
    assert.equal(article.publishedRaw, '2026-01-01 09:30:00+01:00');
    assert.equal(article.updated, '2026-01-03T08:00:00Z');
  });

  it('reads in-reply-to, a string author h-card, and drops a name that repeats the content', () => {
    const reply = parseHfeed(HOME_PAGE, 'https://jane.example/')!.entries[2]!;
    assert.deepEqual(reply.mf2?.inReplyTo, ['https://other.example/post']);
    assert.equal(reply.title, undefined);
    assert.deepEqual(reply.authors, [{ name: 'Guest', uri: 'https://guest.example/' }]);
  });

  it('takes the url of an h-cite for like-of', () => {
    const like = parseHfeed(HOME_PAGE, 'https://jane.example/')!.entries[3]!;
    assert.deepEqual(like.mf2?.likeOf, ['https://liked.example/p']);
  });

  it('reads top-level h-entries of a page without an h-feed, titled by <title>', () => {
    const page = `<html><head><title>Bob's site</title></head><body>
      <div class="h-entry"><a class="u-url" href="https://bob.example/1">one</a><p class="e-content">First</p><span class="p-author">Bob</span></div>
      <div class="h-entry"><a class="u-url" href="https://bob.example/2">two</a><p class="e-content">Second</p><a class="p-author" href="https://bob.example/">https://bob.example/</a></div>
    </body></html>`;
    const result = parseHfeed(page, 'https://bob.example/')!;
    assert.equal(result.feed.title, "Bob's site");
    assert.deepEqual(
      result.entries.map((e) => e.link),
      ['https://bob.example/1', 'https://bob.example/2'],
    );
    assert.deepEqual(result.entries[0]?.authors, [{ name: 'Bob' }]);
    assert.deepEqual(result.entries[1]?.authors, [{ uri: 'https://bob.example/' }]);
  });

  it('finds an h-feed nested inside another item', () => {
    const page = `<div class="h-card"><span class="p-name">Ann</span>
      <div class="h-feed"><div class="h-entry"><a class="u-url" href="https://ann.example/x">x</a><p class="e-content">Nested</p></div></div></div>`;
    const result = parseHfeed(page, 'https://ann.example/')!;
    assert.equal(result.entries.length, 1);
    assert.equal(result.entries[0]?.link, 'https://ann.example/x');
  });

  it('uses the representative h-card as author when the h-feed names none', () => {
    const page = `<a class="h-card" href="https://carl.example/">Carl</a>
      <div class="h-feed"><div class="h-entry"><a class="u-url" href="/1">1</a><p class="e-content">Hi</p></div></div>`;
    const entry = parseHfeed(page, 'https://carl.example/')!.entries[0]!;
    assert.deepEqual(entry.authors, [{ name: 'Carl', uri: 'https://carl.example/' }]);
  });

  it('keeps relative URLs relative when there is no base URL', () => {
    const page = `<div class="h-entry"><a class="u-url" href="/posts/1">p</a><img class="u-photo" src="/img/a.png" alt="">
      <div class="e-content"><a href="/elsewhere">link</a></div></div>`;
    const entry = parseHfeed(page, undefined)!.entries[0]!;
    assert.equal(entry.link, '/posts/1');
    assert.deepEqual(entry.mf2?.photo, ['/img/a.png']);
    assert.match(entry.content?.[0]?.value ?? '', /href="\/elsewhere"/);
    assert.doesNotMatch(JSON.stringify(entry), /invalid/);
    // relative to the page, not to its origin
    const nearby = `<div class="h-entry"><a class="u-url" href="a/1">p</a><div class="e-content"><a href="rel">r</a></div></div>`;
    const near = parseHfeed(nearby, undefined)!.entries[0]!;
    assert.equal(near.link, 'a/1');
    assert.match(near.content?.[0]?.value ?? '', /href="rel"/);
    assert.doesNotMatch(JSON.stringify(near), /invalid|tidings-no-base/);
  });

  it('reads the h-feed with the most posts when a sidebar has one too, and posts inside an h-card', () => {
    const page = `<aside class="h-feed"><div class="h-entry"><a class="u-url p-name" href="/elsewhere">Blogroll</a></div></aside>
      <main class="h-feed"><div class="h-entry"><a class="u-url p-name" href="/1">One</a></div>
      <div class="h-entry"><a class="u-url p-name" href="/2">Two</a></div></main>`;
    const found = parseHfeed(page, 'https://site.example/')!;
    assert.deepEqual(
      found.entries.map((e) => e.title),
      ['One', 'Two'],
    );
    const card = `<div class="h-card"><a class="p-name u-url" href="/">Ann</a>
      <article class="h-entry"><a class="u-url p-name" href="/a">A</a></article>
      <article class="h-entry"><a class="u-url p-name" href="/b">B</a></article></div>`;
    assert.deepEqual(
      parseHfeed(card, 'https://ann.example/')!.entries.map((e) => e.link),
      ['https://ann.example/a', 'https://ann.example/b'],
    );
  });

  it('makes a title one line', () => {
    const page = `<article class="h-entry"><p>A

      photo</p><img class="u-photo" src="/p.jpg"><time class="dt-published">2024</time></article>`;
    const [entry] = parseHfeed(page, 'https://site.example/')!.entries;
    assert.equal(entry?.title, 'A photo2024');
  });

  it('returns undefined for a page without h-feed or h-entry', () => {
    assert.equal(
      parseHfeed('<html><body><p class="h-card">Just a card</p></body></html>', 'https://x.example/'),
      undefined,
    );
    assert.equal(parseHfeed('', 'https://x.example/'), undefined);
  });

  it('keeps an unparseable date raw', () => {
    const page = `<div class="h-entry"><a class="u-url" href="https://d.example/1">1</a><time class="dt-published">someday</time><p class="e-content">x</p></div>`;
    const entry = parseHfeed(page, 'https://d.example/')!.entries[0]!;
    assert.equal(entry.published, undefined);
    assert.equal(entry.publishedRaw, 'someday');
  });

  it('warns of an unreadable date, naming the entry and the property, as a feed would', () => {
    const page = `<!DOCTYPE html><html><body><div class="h-feed"><div class="h-entry"><a class="u-url" href="/1">1</a><time class="dt-published" datetime="2026-01-02T03:04:05Z">x</time></div><div class="h-entry"><a class="u-url" href="/2">2</a><time class="dt-published" datetime="bogus">y</time><time class="dt-updated" datetime="2026-13-45">z</time></div></div></body></html>`;
    const result = parseFeed(Buffer.from(page), { contentType: 'text/html', baseUrl: 'https://d.example/' });
    assert.equal(result.version, 'hfeed');
    const dates = result.diagnostics.filter((d) => d.code === 'date.unparseable');
    assert.deepEqual(
      dates.map((d) => [d.severity, d.entry, d.field]),
      [
        ['warning', 1, 'dt-published'],
        ['warning', 1, 'dt-updated'],
      ],
    );
    assert.match(dates[0]?.message ?? '', /"bogus"/);
  });
});

describe('parseHfeed on a page with hostile elements', () => {
  const page = (head: string, content: string) =>
    `<!DOCTYPE html><html><head>${head}</head><body><div class="h-feed">` +
    `<article class="h-entry"><a class="u-url" href="/notes/1">#</a><div class="e-content">${content}</div></article>` +
    `<article class="h-entry"><a class="u-url" href="/notes/2">#</a><p class="e-content">Second</p></article>` +
    '</div></body></html>';

  it('reads the entries of a page whose <base href> is a javascript: URL, against the document URL', () => {
    const result = parseHfeed(page('<base href="javascript:alert(1)">', 'Hi'), 'https://jane.example/')!;
    assert.deepEqual(
      result.entries.map((e) => e.link),
      ['https://jane.example/notes/1', 'https://jane.example/notes/2'],
    );
  });

  it('resolves a relative <base href> against the document URL, as a browser does', () => {
    const result = parseHfeed(
      page('<base href="//cdn.example/blog/">', 'Hi'),
      'https://jane.example/a.html',
    )!;
    assert.equal(result.entries[0]?.link, 'https://cdn.example/notes/1');
    const root = parseHfeed(page('<base href="/">', 'Hi'), 'https://jane.example/a/b.html')!;
    assert.equal(root.entries[0]?.link, 'https://jane.example/notes/1');
    const unresolvable = parseHfeed(page('<base href="https://[bad">', 'Hi'), 'https://jane.example/')!;
    assert.equal(unresolvable.entries[0]?.link, 'https://jane.example/notes/1');
  });

  it('reads the entries of a page with a <template> inside an entry content, leaving the template out', () => {
    const content = 'Hello <template><p>hidden<template>inner</template> still hidden</p></template>world';
    const result = parseHfeed(
      page('<template><base href="javascript:x"></template>', content),
      'https://jane.example/',
    )!;
    assert.equal(result.entries.length, 2);
    const html = result.entries[0]?.content?.[0]?.value ?? '';
    assert.match(html, /Hello\s*world/);
    assert.doesNotMatch(html, /hidden|inner|template/);
  });

  it('keeps relative URLs relative when there is no document URL, whatever the <base>', () => {
    const result = parseHfeed(
      page('<base href="javascript:alert(1)">', '<template>x</template>Hi'),
      undefined,
    )!;
    assert.equal(result.entries[0]?.link, '/notes/1');
  });
});

describe('pageRels', () => {
  it('finds rel=me links and the rel=microsub endpoint, resolved', () => {
    const page = `<html><head><link rel="microsub" href="/microsub"><link rel="me" href="https://github.com/jane"></head>
      <body><a rel="me nofollow" href="https://social.example/@jane">social</a></body></html>`;
    assert.deepEqual(pageRels(page, 'https://jane.example/'), {
      me: ['https://github.com/jane', 'https://social.example/@jane'],
      microsub: 'https://jane.example/microsub',
    });
    assert.deepEqual(pageRels('<p>nothing</p>', 'https://jane.example/'), { me: [] });
  });
});
