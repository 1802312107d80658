import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TimelineEntry, TimelineRef } from '../store/index.js';
import { Jf2Cache } from './jf2-cache.js';

const FEED = { id: 7, url: 'https://blog.example/feed', title: 'The Blog' };

function entry(id: number, changedAt: string, text = `Body ${id}`): TimelineEntry {
  return {
    id,
    feedId: FEED.id,
    guid: `g${id}`,
    title: `Title ${id}`,
    contentText: text,
    sortAt: '2026-01-01T00:00:00.000Z',
    authors: [],
    categories: [],
    enclosures: [],
    extra: {},
    contentHash: 'h',
    firstSeenAt: '2026-01-01T00:00:00.000Z',
    changedAt,
    isRead: false,
    feed: FEED,
  };
}

const ref = (e: TimelineEntry, state: Partial<TimelineRef> = {}): TimelineRef => ({
  id: e.id,
  changedAt: e.changedAt,
  isRead: false,
  isSaved: false,
  feed: e.feed,
  ...state,
});

describe('jf2 cache', () => {
  it('loads only entries it has not made, or that changed since, and adds the state of each request', async () => {
    const cache = new Jf2Cache();
    const a = entry(1, 't1');
    const b = entry(2, 't1');
    const loads: number[][] = [];
    const load = (entries: TimelineEntry[]) => async (ids: number[]) => {
      loads.push(ids);
      return entries.filter((e) => ids.includes(e.id));
    };
    const first = (await cache.items([ref(a), ref(b)], load([a, b]))).map((j) => JSON.parse(j));
    assert.deepEqual(
      first.map((i) => [i._id, i._source, i._is_read, i._is_saved, i.content.text]),
      [
        ['1', '7', false, false, 'Body 1'],
        ['2', '7', false, false, 'Body 2'],
      ],
    );
    // the same entries read and saved: nothing loaded, the new state shown
    const again = await cache.items([ref(a, { isRead: true }), ref(b, { isSaved: true })], load([]));
    assert.deepEqual(
      again.map((j) => JSON.parse(j)).map((i) => [i._is_read, i._is_saved]),
      [
        [true, false],
        [false, true],
      ],
    );
    // entry 2 changed, and entry 1's feed was renamed: both made again
    const b2 = entry(2, 't2', 'Edited');
    const renamed = { ...FEED, title: 'Renamed' };
    const a2 = { ...a, feed: renamed };
    const third = await cache.items([ref(a2), ref(b2)], load([a2, b2]));
    assert.deepEqual(loads, [
      [1, 2],
      [1, 2],
    ]);
    assert.deepEqual(
      third.map((j) => JSON.parse(j)).map((i) => [i.author.name, i.content.text]),
      [
        ['Renamed', 'Body 1'],
        ['The Blog', 'Edited'],
      ],
    );
  });

  it('leaves out an entry gone before it could be loaded', async () => {
    const cache = new Jf2Cache();
    const a = entry(1, 't1');
    const items = await cache.items([ref(a), ref(entry(2, 't1'))], async () => [a]);
    assert.deepEqual(
      items.map((j) => JSON.parse(j)._id),
      ['1'],
    );
  });

  it('keeps at most its bound of characters, dropping the least recently used', async () => {
    const cache = new Jf2Cache(5000);
    const entries = Array.from({ length: 40 }, (_, i) => entry(i + 1, 't', 'x'.repeat(50)));
    for (const e of entries) await cache.items([ref(e)], async () => [e]);
    assert.ok(cache.size > 3 && cache.size < 40, `${cache.size} kept`);
    // the newest is kept, the oldest is not
    assert.notEqual(cache.item(ref(entries[39]!)), undefined);
    assert.equal(cache.item(ref(entries[0]!)), undefined);
  });
});
