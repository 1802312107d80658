// A local site of feeds that are hard to lay out and to read, for the browser tests of the reader (issue
// 22): long unbroken URLs, wide images, tables, pre blocks and inline styles; right-to-left text; a
// podcast and a video; one image at two sizes; a YouTube page given as a video; a placeholder length.
// Every URL an entry points at answers 200 here, so a page shows no failed load in its console.
import type { Page } from 'playwright-core';
import { send, startServer, type TestServer } from '../helpers/http-server.js';
import { rss } from '../helpers/poll-harness.js';
import { mediaVariantsFeed } from '../web/media-fixtures.js';

/** A 1x1 PNG: every picture of the site (drawn as wide as its width attribute says). */
export const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkqGf4DwAEhQGA0lMiVQAAAABJRU5ErkJggg==',
  'base64',
);

const cdata = (html: string) => `<![CDATA[${html}]]>`;

/** A URL with no place to break in it. */
export const LONG_URL = `https://a-very-long-host-name-for-testing.example/${'segment-without-any-break-'.repeat(8)}end`;

/** What the hard entry's content holds: every layout hazard the 63 real feeds showed, plus inline styles. */
export function hardContent(base: string): string {
  const row = Array.from({ length: 14 }, (_, i) => `<td nowrap>column-${i}-value-that-is-long</td>`).join('');
  return [
    `<p style="color: red; text-align: center;">A styled paragraph, then a long link: <a href="${LONG_URL}">${LONG_URL}</a></p>`,
    `<p>${LONG_URL}</p>`,
    `<p><img src="${base}/img/wide.png" width="1600" height="80" alt="wide"></p>`,
    `<figure><img src="${base}/img/fig.png" width="1200" height="60" alt=""><figcaption>A wide figure</figcaption></figure>`,
    `<table width="1400" border="1"><tr>${row}</tr><tr>${row}</tr></table>`,
    `<pre>${'const line = "a pre block whose line never wraps at all";'.repeat(6)}</pre>`,
    `<p><code>${'x'.repeat(200)}</code></p>`,
    `<div style="width: 900px; background-color: yellow;">A div that asks to be 900 px wide.</div>`,
    `<svg width="1500" height="30"><rect width="1500" height="30"></rect></svg>`,
    `<blockquote><p>${'quoted-words-without-spaces-'.repeat(10)}</p></blockquote>`,
  ].join('\n');
}

/** One page of a story, the original an entry links to. */
const storyPage = (n: string) =>
  `<!doctype html><html><head><title>Story ${n}</title></head><body><p>The original of ${n}.</p></body></html>`;

function feedOf(title: string, items: Parameters<typeof rss>[0], extra = ''): string {
  return rss(items, extra).replace('<title>Test feed</title>', `<title>${title}</title>`);
}

/** The site's feeds, by name. */
export interface ReaderSite extends TestServer {
  hard: string;
  rtl: string;
  media: string;
  news: string;
  other: string;
}

/** `count` plain entries an hour apart, newest first, linking to /story/{prefix}{i} of the site. */
export function plainItems(base: string, prefix: string, count: number, words = 'lighthouses') {
  return Array.from({ length: count }, (_, i) => ({
    guid: `${prefix}${i}`,
    title: `${prefix} story ${i}`,
    link: `${base}/story/${prefix}${i}`,
    description: cdata(`<p>About ${words} and that hat, part ${i}.</p>`),
    pubDate: new Date(Date.UTC(2026, 0, 19, 12) - i * 3600_000).toUTCString(),
  }));
}

/** Serves the feeds, their pictures and media, and a page for every story they link to. */
export async function startReaderSite(): Promise<ReaderSite> {
  let server: TestServer | undefined;
  const base = () => server?.url ?? '';
  const xml = { 'content-type': 'application/rss+xml; charset=utf-8' };
  const routes: Parameters<typeof startServer>[0] = {
    '/hard.xml': (_req, res) =>
      send(
        res,
        200,
        feedOf('Hard to lay out', [
          {
            guid: 'hard',
            title: `A title with ${LONG_URL} in it`,
            link: `${base()}/story/hard`,
            description: cdata(hardContent(base())),
            pubDate: 'Tue, 20 Jan 2026 13:00:00 GMT',
          },
        ]),
        xml,
      ),
    '/rtl.xml': (_req, res) =>
      send(
        res,
        200,
        feedOf('חדשות', [
          {
            guid: 'he',
            title: 'כותרת בעברית על מגדלור',
            link: `${base()}/story/he`,
            description: cdata('<p>זהו תוכן הכתבה בעברית, מימין לשמאל.</p>'),
            pubDate: 'Tue, 20 Jan 2026 13:00:00 GMT',
          },
          {
            guid: 'ar',
            title: 'عنوان باللغة العربية',
            link: `${base()}/story/ar`,
            description: 'هذا ملخص المقال باللغة العربية',
            pubDate: 'Tue, 20 Jan 2026 12:00:00 GMT',
          },
        ]),
        xml,
      ),
    '/media.xml': (_req, res) => send(res, 200, mediaVariantsFeed(base()), xml),
    '/news.xml': (_req, res) => send(res, 200, feedOf('News site', plainItems(base(), 'n', 6)), xml),
    '/other.xml': (_req, res) =>
      send(res, 200, feedOf('Other site', plainItems(base(), 'o', 3, 'harbours')), xml),
  };
  for (const name of [
    'wide.png',
    'fig.png',
    'master/5000.jpg',
    'uploads/harbour-1024x683.jpg',
    'uploads/harbour.jpg',
    'yt-thumb.jpg',
  ])
    routes[`/img/${name}`] = (_req, res) => send(res, 200, PIXEL, { 'content-type': 'image/png' });
  for (const name of ['hard', 'he', 'ar', 'pod', 'clip', 'guardian', 'wordpress', 'embed'])
    routes[`/story/${name}`] = (_req, res) =>
      send(res, 200, storyPage(name), { 'content-type': 'text/html' });
  for (const prefix of ['n', 'o'])
    for (let i = 0; i < 6; i++)
      routes[`/story/${prefix}${i}`] = (_req, res) =>
        send(res, 200, storyPage(`${prefix}${i}`), { 'content-type': 'text/html' });
  server = await startServer(routes);
  const url = server.url;
  return Object.assign(server, {
    hard: `${url}/hard.xml`,
    rtl: `${url}/rtl.xml`,
    media: `${url}/media.xml`,
    news: `${url}/news.xml`,
    other: `${url}/other.xml`,
  });
}

/**
 * Signs in (as `username` when given: an instance of one user needs no name) and follows each feed in
 * its channel (made when new) through the web UI's own form.
 */
export async function signInAndFollow(
  page: Page,
  base: string,
  password: string,
  feeds: { url: string; channel: string }[],
  username?: string,
): Promise<void> {
  await page.goto(`${base}/login`);
  if (username !== undefined) await page.fill('input[name="username"]', username);
  await page.fill('input[name="password"]', password);
  await page.click('button[type="submit"]');
  await page.waitForURL(/\/subscriptions$/);
  const csrf = await page.inputValue('input[name="_csrf"] >> nth=0');
  for (const feed of feeds) {
    const answer = await page.request.post(`${base}/subscriptions/follow`, {
      form: { _csrf: csrf, url: feed.url, channel: feed.channel, new_channel: '' },
      headers: { origin: base },
      maxRedirects: 0,
    });
    if (answer.status() !== 303) throw new Error(`follow ${feed.url}: HTTP ${answer.status()}`);
  }
}
