import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { runSql } from '../../test/helpers/raw-sql.js';
import { minutesAfterT0 as at, storeBackends, testEntry, testPoll } from '../../test/helpers/temp-store.js';
import { runDoctor } from './doctor.js';

/** Runs `work` with stdout captured. */
async function captured(work: () => Promise<number>): Promise<{ code: number; out: string }> {
  const write = process.stdout.write.bind(process.stdout);
  let out = '';
  process.stdout.write = ((chunk: string) => {
    out += chunk;
    return true;
  }) as typeof process.stdout.write;
  try {
    return { code: await work(), out };
  } finally {
    process.stdout.write = write;
  }
}

for (const backend of storeBackends()) {
  describe(`tidings doctor on ${backend.name}`, { skip: backend.skip }, () => {
    after(() => backend.cleanup());

    it('finds nothing after writes, reports damage with exit 1, and --repair mends it', async () => {
      const store = await backend.open();
      const channel = await store.channels.create('news');
      const feed = await store.feeds.add('https://doctor.example/feed.xml', at(0));
      await store.channels.subscribe(channel.id, feed.id, at(0));
      const { insertedIds } = await store.polling.record(testPoll(feed.id, [testEntry('a'), testEntry('b')]));
      await store.reading.markRead(channel.id, insertedIds.slice(0, 1), true, at(2));

      const clean = await captured(() => runDoctor(store, {}));
      assert.deepEqual(clean, { code: 0, out: 'unread counts: ok (they equal a recount)\n' });

      await runSql(backend, store, 'UPDATE unread_counts SET unread = 5');
      const damaged = await captured(() => runDoctor(store, {}));
      assert.equal(damaged.code, 1);
      assert.match(
        damaged.out,
        new RegExp(`channel ${channel.id}, feed ${feed.id}: 5 unread kept, 1 counted`),
      );
      assert.match(damaged.out, /tidings doctor --repair/);

      const repaired = await captured(() => runDoctor(store, { repair: true }));
      assert.equal(repaired.code, 0);
      assert.match(repaired.out, /repaired/);
      assert.deepEqual(await captured(() => runDoctor(store, { json: true })), {
        code: 0,
        out: `${JSON.stringify({ readingState: { missingRows: 0, strayRows: 0, wrongRows: 0, countDrift: [], repaired: false } }, null, 2)}\n`,
      });
      assert.equal(
        (await store.reading.unreadCounts()).find((count) => count.channelId === channel.id)?.unread,
        1,
      );
    });
  });
}
