import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { runSql } from '../../../test/helpers/raw-sql.js';
import { minutesAfterT0 as at, type StoreBackend, storeBackends } from '../../../test/helpers/temp-store.js';
import type { Store } from '../store.js';

/** Heartbeats written as rows: [minutes after T0, status, new entries] each. */
async function addHeartbeats(
  backend: StoreBackend,
  store: Store,
  feedId: number,
  beats: readonly (readonly [number, string, number])[],
): Promise<void> {
  const values = beats
    .map(
      ([minutes, status, newCount]) =>
        `(${feedId}, '${at(minutes)}', '${status}', ${newCount}, 0, 1, 1, '[]')`,
    )
    .join(', ');
  await runSql(
    backend,
    store,
    `INSERT INTO heartbeats (feed_id, at, status, new_count, updated_count, bytes, duration_ms, diagnostics)
     VALUES ${values}`,
  );
}

function suite(backend: StoreBackend) {
  after(() => backend.cleanup());

  it("lists the asked feeds' last heartbeats as bars, newest first", async () => {
    const store = await backend.open();
    const [a, b, quiet, other] = await Promise.all(
      ['a', 'b', 'quiet', 'other'].map((name) => store.feeds.add(`https://${name}.example/feed.xml`, at(0))),
    );
    await addHeartbeats(backend, store, a!.id, [
      [1, 'ok', 1],
      [3, 'fetch_error', 0],
      [2, 'ok', 2],
      [4, 'not_modified', 0],
    ]);
    await addHeartbeats(backend, store, b!.id, [[5, 'parse_error', 0]]);
    await addHeartbeats(backend, store, other!.id, [[6, 'ok', 9]]);
    const bars = await store.heartbeats.bars([a!.id, b!.id, quiet!.id, a!.id], 3);
    assert.deepEqual(bars.get(a!.id), [
      { at: at(4), status: 'not_modified', newCount: 0 },
      { at: at(3), status: 'fetch_error', newCount: 0 },
      { at: at(2), status: 'ok', newCount: 2 },
    ]);
    assert.deepEqual(bars.get(b!.id), [{ at: at(5), status: 'parse_error', newCount: 0 }]);
    assert.deepEqual([...bars.keys()].sort(), [a!.id, b!.id].sort());
    assert.equal((await store.heartbeats.bars([], 3)).size, 0);
  });

  it('keeps the newest of polls that share the time of the last one shown, as listHeartbeats does', async () => {
    const store = await backend.open();
    const feed = await store.feeds.add('https://ties.example/feed.xml', at(0));
    await addHeartbeats(backend, store, feed.id, [
      [1, 'ok', 1],
      [2, 'ok', 2],
      [2, 'fetch_error', 3],
      [2, 'ok', 4],
      [3, 'ok', 5],
    ]);
    const bars = (await store.heartbeats.bars([feed.id], 3)).get(feed.id);
    assert.deepEqual(
      bars?.map((bar) => bar.newCount),
      [5, 4, 3],
    );
    const full = await store.heartbeats.list(feed.id, 3);
    assert.deepEqual(
      bars,
      full.map(({ at, status, newCount }) => ({ at, status, newCount })),
    );
  });

  it('lists the last ones of a feed polled a thousand times', async () => {
    const store = await backend.open();
    const feed = await store.feeds.add('https://busy.example/feed.xml', at(0));
    const beats = Array.from(
      { length: 1000 },
      (_, i) => [i, i % 7 === 0 ? 'fetch_error' : 'ok', i % 5] as const,
    );
    await addHeartbeats(backend, store, feed.id, beats);
    const bars = (await store.heartbeats.bars([feed.id], 30)).get(feed.id);
    assert.deepEqual(
      bars?.map((bar) => bar.at),
      Array.from({ length: 30 }, (_, i) => at(999 - i)),
    );
  });
}

describe('store: heartbeat bars of a page of the health list', () => {
  for (const backend of storeBackends())
    describe(backend.name, { skip: backend.skip ?? false }, () => suite(backend));
});
