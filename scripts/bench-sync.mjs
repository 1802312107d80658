#!/usr/bin/env node
// npm run bench:sync: the Google Reader API's stream/items/ids and stream/contents (n=1000), and a few
// Fever calls, on a database of 100,000 entries (100 feeds of 1,000 in 5 channels, a third of them read,
// 50 starred). The entries are written through the store's polling.record (the poller's own write path, 1,000
// entries per poll) rather than fetched and parsed, to build the database in seconds. Requests go to the
// whole app in process (app.request), so the figures are the server's time without a network.
//
//   node scripts/bench-sync.mjs [--entries 100000] [--runs 15] [--database sqlite:PATH|postgres://...]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dist = new URL('../dist/', import.meta.url);
const load = (path) => import(new URL(path, dist).href);
const [
  { openStore },
  { createApp },
  { setApiPassword },
  { loadConfig },
  { createPollDeps },
  parsePool,
  { PollEvents },
  { silentLogger },
] = await Promise.all([
  load('store/open.js'),
  load('server/app.js'),
  load('auth/api-credentials.js'),
  load('config.js'),
  load('poll/deps-factory.js'),
  load('poll/parse-pool.js'),
  load('poll/events.js'),
  load('log.js'),
]);

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 && args[at + 1] !== undefined ? args[at + 1] : fallback;
};
const ENTRIES = Number(option('entries', '100000'));
const RUNS = Number(option('runs', '15'));
const FEEDS = 100;
const PER_FEED = Math.ceil(ENTRIES / FEEDS);
const dir = mkdtempSync(join(tmpdir(), 'tidings-bench-sync-'));
const databaseUrl = option('database', `sqlite:${join(dir, 'bench.db')}`);

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const iso = (ms) => new Date(ms).toISOString();
const BODY = `<p>${'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(12)}</p>`;

async function fill(store) {
  const channels = [];
  for (let c = 0; c < 5; c++) channels.push(await store.channels.create(`Channel ${c}`));
  const started = performance.now();
  for (let f = 0; f < FEEDS; f++) {
    const feed = await store.feeds.add(`https://feeds.example/${f}.xml`, iso(T0));
    await store.channels.subscribe(channels[f % channels.length].id, feed.id, iso(T0));
    const now = iso(T0 + f * 60_000);
    const newEntries = Array.from({ length: PER_FEED }, (_, i) => ({
      guid: `f${f}-e${i}`,
      url: `https://feeds.example/${f}/${i}`,
      title: `Entry ${i} of feed ${f}`,
      contentHtml: BODY,
      sortAt: iso(T0 - (PER_FEED - i) * 3_600_000),
      published: iso(T0 - (PER_FEED - i) * 3_600_000),
      authors: [{ name: 'Ann' }],
      categories: [],
      enclosures: [],
      extra: {},
      contentHash: `h${f}-${i}`,
      searchText: `Entry ${i} of feed ${f}`,
    }));
    await store.polling.record({
      feedId: feed.id,
      workerId: 'bench',
      now,
      feedPatch: { status: 'ok', lastCheckedAt: now, title: `Feed ${f}` },
      heartbeat: {
        at: now,
        status: 'ok',
        newCount: PER_FEED,
        updatedCount: 0,
        bytes: 1,
        durationMs: 1,
        diagnostics: [],
      },
      newEntries,
      changedEntries: [],
    });
  }
  const ids = await store.sync.ids({});
  await store.sync.setReadEverywhere({ ids: ids.filter((_, i) => i % 3 === 0) }, true, iso(T0));
  await store.sync.setSaved(
    ids.filter((_, i) => i % 2000 === 0),
    true,
    iso(T0),
  );
  return { seconds: (performance.now() - started) / 1000, count: ids.length };
}

async function time(app, headers, path, init = {}) {
  const samples = [];
  let bytes = 0;
  let count = 0;
  for (let run = 0; run <= RUNS; run++) {
    const started = performance.now();
    const res = await app.request(path, { ...init, headers: { ...headers, ...init.headers } });
    const text = await res.text();
    const ms = performance.now() - started;
    if (res.status !== 200)
      throw new Error(`bench-sync: ${path} answered ${res.status}: ${text.slice(0, 200)}`);
    if (run > 0) samples.push(ms); // the first run warms caches up
    bytes = text.length;
    const body = JSON.parse(text);
    count = (body.itemRefs ?? body.items ?? []).length;
  }
  samples.sort((a, b) => a - b);
  const at = (q) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))];
  return { median: at(0.5), p90: at(0.9), bytes, count };
}

const store = await openStore(databaseUrl);
try {
  await store.migrate();
  process.stderr.write(
    `bench-sync: filling ${databaseUrl.split(':')[0]} with ${FEEDS * PER_FEED} entries ...\n`,
  );
  const filled = await fill(store);
  process.stderr.write(`bench-sync: ${filled.count} entries in ${filled.seconds.toFixed(1)} s\n`);
  await setApiPassword(store, 'bench', 'bench password', { N: 1024 });
  const config = loadConfig(process.env, { databaseUrl });
  const deps = {
    store,
    config,
    log: silentLogger,
    poll: createPollDeps(store, config, silentLogger, {}, parsePool.inProcessPreparer),
    events: new PollEvents(),
    indieAuth: {},
    now: () => new Date(),
  };
  const app = createApp(deps);
  const login = await app.request('/api/greader/accounts/ClientLogin', {
    method: 'POST',
    body: new URLSearchParams({ Email: 'bench', Passwd: 'bench password' }),
  });
  const auth = /Auth=(\S+)/.exec(await login.text())?.[1];
  const headers = { authorization: `GoogleLogin auth=${auth}` };
  const api = '/api/greader/reader/api/0';
  const list = 'user/-/state/com.google/reading-list';
  const read = 'user/-/state/com.google/read';
  const deep = (await store.sync.keys({ oldestFirst: false, limit: 50_001 })).at(-1)?.id;
  const feverKey = (await import('node:crypto'))
    .createHash('md5')
    .update('bench:bench password')
    .digest('hex');
  const fever = (query) => [
    `/api/fever?api&${query}`,
    {
      method: 'POST',
      body: new URLSearchParams({ api_key: feverKey }),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    },
  ];
  const cases = [
    ['stream/items/ids reading-list n=1000', `${api}/stream/items/ids?s=${list}&n=1000`],
    ['stream/items/ids unread (xt=read) n=1000', `${api}/stream/items/ids?s=${list}&xt=${read}&n=1000`],
    ['stream/items/ids read n=1000', `${api}/stream/items/ids?s=${read}&n=1000`],
    [
      'stream/items/ids n=1000, 50,000 entries deep (c)',
      `${api}/stream/items/ids?s=${list}&n=1000&c=${deep}`,
    ],
    ['stream/items/ids unread n=10000', `${api}/stream/items/ids?s=${list}&xt=${read}&n=10000`],
    ['stream/contents reading-list n=1000', `${api}/stream/contents?s=${list}&n=1000`],
    ['stream/contents unread (xt=read) n=1000', `${api}/stream/contents?s=${list}&xt=${read}&n=1000`],
    ['stream/contents one feed n=1000', `${api}/stream/contents/feed/1?n=1000`],
    ['unread-count', `${api}/unread-count?output=json`],
    ['fever items (50, since_id=0)', ...fever('items&since_id=0')],
    ['fever unread_item_ids', ...fever('unread_item_ids')],
  ];
  console.log(
    `| call (${filled.count} entries, ${databaseUrl.split(':')[0]}) | items | median | p90 | body |`,
  );
  console.log('| --- | ---: | ---: | ---: | ---: |');
  for (const [name, path, init] of cases) {
    const r = await time(app, headers, path, init);
    const kb = r.bytes >= 1e6 ? `${(r.bytes / 1e6).toFixed(1)} MB` : `${Math.round(r.bytes / 1e3)} KB`;
    console.log(`| ${name} | ${r.count} | ${r.median.toFixed(0)} ms | ${r.p90.toFixed(0)} ms | ${kb} |`);
  }
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
