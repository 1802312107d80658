// A feed carrying every hostile vector (test/fixtures/hostile/vectors/), one entry per vector family,
// served from 127.0.0.1 for the web UI tests (in process and in Chromium).

import { readVectors } from './hostile-html.js';
import { send, startServer, type TestServer } from './http-server.js';
import { rss } from './poll-harness.js';

/** The feed: entry i is vector i, titled "Vector NAME", its payload as the description (in CDATA). */
export function vectorsFeed(): string {
  const items = readVectors().map((vector, i) => ({
    guid: `vector-${vector.name}`,
    title: `Vector ${vector.name}`,
    link: `https://feed.example/${vector.name}`,
    description: `<![CDATA[${vector.html}]]>`,
    pubDate: new Date(Date.UTC(2026, 10, 30, 12) - i * 3600_000).toUTCString(),
  }));
  return rss(items);
}

/** Serves the feed at `/vectors.xml`. */
export async function startVectorsServer(): Promise<TestServer & { feedUrl: string }> {
  const server = await startServer({
    '/vectors.xml': (_req, res) => send(res, 200, vectorsFeed(), { 'content-type': 'application/rss+xml' }),
  });
  return Object.assign(server, { feedUrl: `${server.url}/vectors.xml` });
}
