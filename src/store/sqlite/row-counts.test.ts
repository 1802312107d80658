import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { minutesAfterT0 as at, testEntry, testPoll } from '../../../test/helpers/temp-store.js';
import { openStore } from '../open.js';
import type { Store } from '../store.js';

// SQLite's planner reads the value bound to a LIMIT, so a statement with `limit ?` was prepared again
// at every run: a third of the timeline page query's time. Every SQL text the store prepares is
// recorded here (on the main connection: the store is opened without read threads).
const prepared: string[] = [];
const prepare = BetterSqlite3.prototype.prepare;

describe('row counts in SQLite statements', () => {
  let dir: string;
  let store: Store;
  before(async () => {
    BetterSqlite3.prototype.prepare = function (this: BetterSqlite3.Database, source: string) {
      prepared.push(source);
      return prepare.call(this, source);
    } as typeof prepare;
    dir = await mkdtemp(join(tmpdir(), 'tidings-row-counts-'));
    store = await openStore(`sqlite:${join(dir, 'store.db')}`);
    await store.migrate();
  });
  after(async () => {
    BetterSqlite3.prototype.prepare = prepare;
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('writes LIMIT and OFFSET into the SQL of every page, search and history read', async () => {
    const channel = await store.channels.create('news');
    const feed = await store.feeds.add('https://example.org/rows.xml', at(0));
    await store.channels.subscribe(channel.id, feed.id, at(0));
    const entries = Array.from({ length: 7 }, (_, i) =>
      testEntry(`rows-${i}`, { sortAt: at(i), title: `tide ${i}` }),
    );
    await store.polling.record(testPoll(feed.id, entries));
    const from = prepared.length;

    const first = await store.reading.timeline({ channelId: channel.id, limit: 3 });
    const older = await store.reading.timeline({ channelId: channel.id, limit: 3, after: first.after });
    const newer = await store.reading.timeline({ channelId: channel.id, limit: 3, before: older.before });
    assert.deepEqual(
      newer.entries.map((entry) => entry.guid),
      first.entries.map((entry) => entry.guid),
    );
    const unread = await store.reading.timeline({ channelId: channel.id, limit: 2, unreadOnly: true });
    assert.equal(unread.entries.length, 2);
    assert.equal((await store.reading.allUnread({ limit: 4 })).entries.length, 4);
    const found = await store.reading.search({ query: 'tide', channelId: channel.id, limit: 2 });
    assert.equal(found.entries.length, 2);
    assert.equal((await store.reading.search({ query: 'tide', limit: 5 })).entries.length, 5);
    assert.equal((await store.entries.listByFeed(feed.id, 5)).length, 5);
    assert.equal((await store.heartbeats.list(feed.id, 5)).length, 1);
    assert.equal((await store.heartbeats.bars([feed.id], 5)).get(feed.id)?.length, 1);

    const statements = prepared.slice(from);
    const bound = statements.filter((text) => /\b(limit|offset)\s+\?/i.test(text));
    assert.deepEqual(bound, [], 'no statement binds its row count');
    const written = statements.filter((text) => /\blimit\s+\d+/i.test(text));
    assert.ok(written.length >= 6, `the reads prepared statements with a LIMIT (${written.length})`);
  });
});
