// Feeds that carry `javascript:` and `data:` URLs in every place a feed can put a URL (issue 22): the
// site link, entry links, enclosures, Media RSS, authors' pages and photos, JSON Feed images and
// attachments, h-entry references (in-reply-to, like-of ...) and links and media inside the content.
// Every such URL contains UNSAFE_MARK, so a test can look for it anywhere in an answer.

/** A word every unsafe URL of these feeds contains. */
export const UNSAFE_MARK = 'pwned';

const js = (where: string) => `javascript:alert('${UNSAFE_MARK}-${where}')`;
const data = (type: string, where: string) => `data:${type},${UNSAFE_MARK}-${where}`;

/** True when the text holds a URL of these feeds that runs script or embeds a document. */
export function hasUnsafeUrl(text: string): boolean {
  return /(?:javascript|data):[^"\s<>]*pwned/i.test(text);
}

const CONTENT_HTML = [
  `<p><a href="${js('content-a')}">a script link</a>`,
  `<a href="${data('text/html', 'content-a')}">a data link</a>`,
  `<img src="${data('image/svg+xml', 'content-img')}" alt="svg">`,
  `<video src="${js('content-video')}"></video>`,
  `<audio src="${data('audio/mpeg', 'content-audio')}"></audio>`,
  `<a href="https://example.com/fine">a fine link</a></p>`,
].join(' ');

const xmlEscape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * Atom with Media RSS and threading: site, entry link, enclosures, author uri, media, in-reply-to,
 * content; and an entry with only a summary (what Fever gives as `html` then).
 */
export function unsafeAtom(): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/"
      xmlns:thr="http://purl.org/syndication/thread/1.0">
  <title>Unsafe Atom</title>
  <id>urn:tidings:unsafe-atom</id>
  <link rel="alternate" href="${xmlEscape(js('atom-site'))}"/>
  <updated>2026-02-01T00:00:00Z</updated>
  <entry>
    <id>urn:tidings:unsafe-atom:1</id>
    <title>Atom entry</title>
    <updated>2026-02-01T00:00:00Z</updated>
    <link rel="alternate" href="${xmlEscape(js('atom-link'))}"/>
    <link rel="enclosure" type="audio/mpeg" length="10" href="${xmlEscape(data('audio/mpeg', 'atom-enclosure'))}"/>
    <link rel="enclosure" type="video/mp4" length="10" href="${xmlEscape(js('atom-enclosure-video'))}"/>
    <link rel="enclosure" type="image/png" length="10" href="${xmlEscape(data('image/png', 'atom-enclosure-image'))}"/>
    <author><name>Mallory</name><uri>${xmlEscape(js('atom-author'))}</uri></author>
    <thr:in-reply-to ref="urn:x" href="${xmlEscape(js('atom-reply'))}"/>
    <media:content url="${xmlEscape(js('atom-media'))}" type="video/mp4" medium="video"/>
    <media:content url="${xmlEscape(data('audio/mpeg', 'atom-media-audio'))}" type="audio/mpeg" medium="audio"/>
    <media:thumbnail url="${xmlEscape(data('image/svg+xml', 'atom-thumbnail'))}"/>
    <content type="html">${xmlEscape(CONTENT_HTML)}</content>
  </entry>
  <entry>
    <id>urn:tidings:unsafe-atom:2</id>
    <title>Atom summary</title>
    <updated>2026-02-01T00:01:00Z</updated>
    <summary type="html">${xmlEscape(CONTENT_HTML)}</summary>
  </entry>
</feed>`;
}

/** RSS 2.0: site link, item link, comments, enclosure, source. */
export function unsafeRss(): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/">
<channel>
  <title>Unsafe RSS</title>
  <link>${xmlEscape(data('text/html', 'rss-site'))}</link>
  <description>d</description>
  <item>
    <guid isPermaLink="false">unsafe-rss-1</guid>
    <title>RSS item</title>
    <link>${xmlEscape(js('rss-link'))}</link>
    <comments>${xmlEscape(js('rss-comments'))}</comments>
    <enclosure url="${xmlEscape(js('rss-enclosure'))}" type="audio/mpeg" length="10"/>
    <media:thumbnail url="${xmlEscape(js('rss-thumbnail'))}"/>
    <description>${xmlEscape(CONTENT_HTML)}</description>
    <pubDate>Sun, 01 Feb 2026 00:00:00 GMT</pubDate>
  </item>
</channel>
</rss>`;
}

/** JSON Feed 1.1: home page, item url and external_url, image, banner, authors' url and avatar, attachments. */
export function unsafeJsonFeed(): string {
  return JSON.stringify({
    version: 'https://jsonfeed.org/version/1.1',
    title: 'Unsafe JSON Feed',
    home_page_url: js('json-site'),
    items: [
      {
        id: 'unsafe-json-1',
        url: js('json-url'),
        external_url: data('text/html', 'json-external'),
        title: 'JSON item',
        content_html: CONTENT_HTML,
        image: js('json-image'),
        banner_image: data('image/svg+xml', 'json-banner'),
        date_published: '2026-02-01T00:00:00Z',
        authors: [{ name: 'Mallory', url: js('json-author'), avatar: data('image/svg+xml', 'json-avatar') }],
        attachments: [
          { url: data('audio/mpeg', 'json-audio'), mime_type: 'audio/mpeg' },
          { url: js('json-video'), mime_type: 'video/mp4' },
        ],
      },
    ],
  });
}

/** An h-feed page: the h-entry's url, photo, video, audio, featured, references and author card. */
export function unsafeHfeed(): string {
  const a = (cls: string, href: string) => `<a class="${cls}" href="${xmlEscape(href)}">${cls}</a>`;
  return `<!doctype html><html><head><title>Unsafe h-feed</title></head><body>
<div class="h-feed"><h1 class="p-name">Unsafe h-feed</h1>
  <article class="h-entry">
    <h2 class="p-name">h-entry</h2>
    ${a('u-url', js('h-url'))}
    <img class="u-photo" src="${xmlEscape(data('image/svg+xml', 'h-photo'))}" alt="">
    <img class="u-featured" src="${xmlEscape(js('h-featured'))}" alt="">
    <video class="u-video" src="${xmlEscape(js('h-video'))}"></video>
    <audio class="u-audio" src="${xmlEscape(data('audio/mpeg', 'h-audio'))}"></audio>
    ${a('u-in-reply-to', js('h-reply'))}
    ${a('u-like-of', js('h-like'))}
    ${a('u-repost-of', data('text/html', 'h-repost'))}
    ${a('u-bookmark-of', js('h-bookmark'))}
    ${a('u-syndication', js('h-syndication'))}
    <div class="p-author h-card"><a class="p-name u-url" href="${xmlEscape(js('h-author'))}">Mallory</a>
      <img class="u-photo" src="${xmlEscape(js('h-author-photo'))}" alt=""></div>
    <div class="e-content">${CONTENT_HTML}</div>
    <time class="dt-published" datetime="2026-02-01T00:00:00Z">1 Feb</time>
  </article>
</div></body></html>`;
}

/**
 * A JSON Feed whose own icon, favicon and author avatar are unsafe, for what shows a feed before it is
 * stored (Microsub preview and search). A stored feed's icon is served by tidings itself (issue 22's
 * icon work), so the followed fixtures above carry none.
 */
export function unsafeIconFeed(): string {
  return JSON.stringify({
    version: 'https://jsonfeed.org/version/1.1',
    title: 'Unsafe icons',
    home_page_url: data('text/html', 'icons-site'),
    icon: js('icons-icon'),
    favicon: data('image/svg+xml', 'icons-favicon'),
    authors: [{ name: 'Mallory', avatar: js('icons-avatar') }],
    items: [{ id: 'icons-1', content_text: 'Icons', url: 'https://example.com/icons-1' }],
  });
}

/** The four documents by path, with their content types, for a fixture server. */
export const UNSAFE_FEEDS: Record<string, { body: () => string; type: string }> = {
  '/unsafe.atom': { body: unsafeAtom, type: 'application/atom+xml' },
  '/unsafe.rss': { body: unsafeRss, type: 'application/rss+xml' },
  '/unsafe.json': { body: unsafeJsonFeed, type: 'application/feed+json' },
  '/unsafe.html': { body: unsafeHfeed, type: 'text/html; charset=utf-8' },
};

/** Serves the four feeds and the icon feed (at `/unsafe-icons.json`) from a Record of documents. */
export function serveUnsafeFeeds(docs: Record<string, { body: string; type: string }>): void {
  for (const [path, doc] of Object.entries(UNSAFE_FEEDS)) docs[path] = { body: doc.body(), type: doc.type };
  docs['/unsafe-icons.json'] = { body: unsafeIconFeed(), type: 'application/feed+json' };
}
