import { send, startServer, type TestServer } from '../helpers/http-server.js';
import { rss } from '../helpers/poll-harness.js';

/** HTML as an RSS description carries it: in CDATA. */
export function cdata(html: string): string {
  return `<![CDATA[${html}]]>`;
}

/** `count` items, newest first, an hour apart, each with an image and a searchable word. */
export function newsItems(count: number, base = 'https://news.example/') {
  return Array.from({ length: count }, (_, i) => ({
    guid: `item-${i}`,
    title: `Story ${i}`,
    link: `${base}story/${i}`,
    description: cdata(
      `<p>Body of story ${i} about ${i % 2 === 0 ? 'lighthouses' : 'harbours'}.</p><img src="${base}img/${i}.png" alt="">`,
    ),
    pubDate: new Date(Date.UTC(2026, 0, 20, 12) - i * 3600_000).toUTCString(),
  }));
}

/** A feed written to run code in the reader by every trick we know of. */
export const HOSTILE_HTML = [
  '<p>Hostile content follows.</p>',
  '<script>window.__pwned = "script"; alert("script")</script>',
  '<img src="x" onerror="window.__pwned = \'onerror\'; alert(\'onerror\')">',
  '<a href="javascript:alert(\'link\')" id="js-link">click me</a>',
  '<div onmouseover="alert(\'hover\')" style="position:fixed;top:0;left:0;width:100%;height:100%;z-index:99">cover</div>',
  '<svg><script>alert("svg")</script><a xlink:href="javascript:alert(1)"><text>svg link</text></a></svg>',
  '<svg onload="alert(\'svgload\')"></svg>',
  '<meta http-equiv="refresh" content="0;url=https://evil.example/">',
  '<form action="/logout" method="post"><input name="x"><button id="evil-button">Go</button></form>',
  '<iframe src="javascript:alert(\'frame\')"></iframe>',
  '<object data="javascript:alert(1)"></object><embed src="javascript:alert(1)">',
  '<style>body { display: none }</style>',
  '<base href="https://evil.example/">',
  '<details open ontoggle="alert(\'toggle\')"><summary>x</summary></details>',
  '<video><source onerror="alert(\'video\')"></video>',
].join('\n');

/** Serves a site with a page linking to its feed, the feed, a broken feed and a hostile feed. */
export async function startFixtures(): Promise<TestServer & { feedUrl: string; pageUrl: string }> {
  let server: TestServer | undefined;
  const base = () => server?.url ?? '';
  server = await startServer({
    '/blog': (_req, res) =>
      send(
        res,
        200,
        `<!doctype html><html><head><title>A blog</title><link rel="alternate" type="application/rss+xml" title="The blog's feed" href="${base()}/feed.xml"></head><body>Hello</body></html>`,
        { 'content-type': 'text/html; charset=utf-8' },
      ),
    '/feed.xml': (_req, res) =>
      send(res, 200, rss(newsItems(25, `${base()}/`)), { 'content-type': 'application/rss+xml' }),
    '/second.xml': (_req, res) =>
      send(
        res,
        200,
        rss([
          {
            guid: 'b1',
            title: 'Second feed story',
            link: `${base()}/b1`,
            pubDate: 'Mon, 19 Jan 2026 10:00:00 GMT',
          },
        ]),
        {
          'content-type': 'application/rss+xml',
        },
      ),
    '/broken.xml': (_req, res) =>
      send(
        res,
        200,
        '<?xml version="1.0"?>\n<rss version="2.0"><channel><title>Broken feed</title>\n<item><title>One</title><pubDate>yesterday-ish</pubDate></item>\n<item><title>Two & more</title></item>\n</channel>',
        { 'content-type': 'application/rss+xml' },
      ),
    '/hostile.xml': (_req, res) =>
      send(
        res,
        200,
        rss([
          {
            guid: 'h1',
            title: 'Hostile <script>alert("title")</script>',
            link: 'javascript:alert("entry link")',
            description: cdata(HOSTILE_HTML),
            pubDate: 'Tue, 20 Jan 2026 13:00:00 GMT',
          },
        ]),
        { 'content-type': 'application/rss+xml' },
      ),
  });
  return Object.assign(server, { feedUrl: `${server.url}/feed.xml`, pageUrl: `${server.url}/blog` });
}
