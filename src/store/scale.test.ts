import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { cpuMs } from '../../test/helpers/cpu-time.js';
import { minutesAfterT0 as at, storeBackends, testEntry, testPoll } from '../../test/helpers/temp-store.js';
import type { Channel } from '../model/stored.js';
import type { Store } from './store.js';

// A reader with a long history: 200 feeds of 100 entries (20,000 entries) in three channels, some of it
// read, one author muted among 1,000 other rules: unread counts, timeline pages (first, deep, unread-only,
// newer, one source) and searches give what they should. Their speed is bench:serve's to measure, at
// 1,000,000 entries (docs/reading-at-scale.md); the times are printed here to watch.

const FEEDS = 200;
const ENTRIES_PER_FEED = 100;

/** Runs `work` and prints how long it took, and its CPU time (this process's, SQLite's read thread included). */
async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const startedCpu = cpuMs();
  const result = await work();
  const elapsedMs = performance.now() - started;
  const cpuUsedMs = cpuMs() - startedCpu;
  console.log(`store scale: ${label}: ${elapsedMs.toFixed(1)} ms (${cpuUsedMs.toFixed(1)} ms CPU)`);
  return result;
}

/** Feeds 0-99 in `a`, 100-159 in `b`, 160-199 in `c`, and 150-199 in `a` as well. */
async function fill(store: Store): Promise<Channel[]> {
  const channels = [
    await store.channels.create('a'),
    await store.channels.create('b'),
    await store.channels.create('c'),
  ];
  const [a, b, c] = channels as [Channel, Channel, Channel];
  for (let f = 0; f < FEEDS; f++) {
    const feed = await store.feeds.add(`https://feeds.example/${f}.xml`, at(0));
    const home = f < 100 ? a : f < 160 ? b : c;
    await store.channels.subscribe(home.id, feed.id, at(0));
    if (f >= 150) await store.channels.subscribe(a.id, feed.id, at(0));
    const entries = Array.from({ length: ENTRIES_PER_FEED }, (_, j) =>
      testEntry(`f${f}-e${j}`, {
        sortAt: at(j * FEEDS + f),
        authorUrl: `https://author-${(f + j) % 50}.example/`,
        contentText: `entry ${j} of feed ${f} ${j % 10 === 0 ? 'common' : 'plain'} words ${f === 7 && j === 7 ? 'needle' : ''}`,
      }),
    );
    await store.polling.record(testPoll(feed.id, entries, at(ENTRIES_PER_FEED * FEEDS)));
  }
  return channels;
}

describe('sqlite at 20,000 entries', () => {
  const backend = storeBackends().find((candidate) => candidate.name === 'sqlite');
  let store: Store;
  let channels: Channel[];
  before(async () => {
    store = await backend!.open();
    const started = performance.now();
    channels = await fill(store);
    console.log(`store scale: 20,000 entries written in ${(performance.now() - started).toFixed(0)} ms`);
    const [a, b] = channels as [Channel, Channel];
    const middle = await store.reading.timeline({ channelId: a.id, limit: 1, after: undefined });
    const page = await store.reading.timeline({ channelId: a.id, limit: 500, after: middle.after });
    await timed('markReadUpTo (14,500 entries)', () =>
      store.reading.markReadUpTo(a.id, page.entries.at(-1)!.id, at(1_000_000)),
    );
    await store.reading.markRead(
      b.id,
      page.entries.slice(0, 100).map((entry) => entry.id),
      true,
      at(1_000_001),
    );
    for (let i = 0; i < 1000; i++) {
      const channelId = i % 2 === 0 ? a.id : undefined;
      await store.filters.add(
        { channelId, kind: i % 3 === 0 ? 'block' : 'mute', url: `https://other-${i}.example/` },
        at(0),
      );
    }
    await store.filters.add({ kind: 'mute', url: 'https://author-3.example/' }, at(1_000_002));
  });
  after(() => backend?.cleanup());

  it('counts unread entries in every channel, muted authors left out', async () => {
    const counts = await timed('unreadCounts', () => store.reading.unreadCounts());
    assert.equal(counts.length, 4);
    const total = counts.reduce((sum, count) => sum + count.unread, 0);
    assert.ok(total > 0 && total < FEEDS * ENTRIES_PER_FEED + 50 * ENTRIES_PER_FEED);
    const shown = await store.reading.timeline({ channelId: channels[1]!.id, limit: 500 });
    assert.ok(shown.entries.every((entry) => entry.authorUrl !== 'https://author-3.example/'));
  });

  it('reads the first page, a deep page, an unread-only page and newer entries of a timeline', async () => {
    const a = channels[0]!;
    const first = await timed('timeline first page', () =>
      store.reading.timeline({ channelId: a.id, limit: 50 }),
    );
    assert.equal(first.entries.length, 50);
    let cursor = first.after;
    for (let i = 0; i < 20; i++)
      cursor = (await store.reading.timeline({ channelId: a.id, limit: 500, after: cursor })).after;
    const deep = await timed('timeline deep page', () =>
      store.reading.timeline({ channelId: a.id, limit: 50, after: cursor }),
    );
    assert.equal(deep.entries.length, 50);
    const unread = await timed('timeline unread only', () =>
      store.reading.timeline({ channelId: a.id, limit: 50, unreadOnly: true, after: first.after }),
    );
    assert.ok(unread.entries.every((entry) => !entry.isRead));
    const newer = await timed('timeline before', () =>
      store.reading.timeline({ channelId: a.id, limit: 50, before: deep.before }),
    );
    assert.equal(newer.entries.length, 50);
    const feedId = first.entries[0]!.feedId;
    await timed('timeline one source', () => store.reading.timeline({ channelId: a.id, feedId, limit: 50 }));
  });

  it('searches every channel for a common and a rare word', async () => {
    const common = await timed('search common word', () =>
      store.reading.search({ query: 'common words', limit: 50 }),
    );
    assert.equal(common.entries.length, 50);
    const rare = await timed('search rare word', () => store.reading.search({ query: 'needle', limit: 50 }));
    assert.deepEqual(
      rare.entries.map((entry) => entry.guid),
      ['f7-e7'],
    );
  });
});
