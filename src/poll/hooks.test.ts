import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StoredFeed } from '../model/index.js';
import type { NewEntry } from '../store/index.js';
import { combineHooks, type PollHooks, type StoredPoll } from './hooks.js';

const feed = { id: 7 } as StoredFeed;
const entry = { guid: 'g', title: 'T' } as NewEntry;
const stored: StoredPoll = {
  heartbeat: {
    at: '2026-01-01T00:00:00.000Z',
    status: 'ok',
    newCount: 0,
    updatedCount: 0,
    bytes: 0,
    durationMs: 1,
    diagnostics: [],
  },
  insertedIds: [],
  updatedIds: [],
};

describe('combineHooks', () => {
  it('calls every onStored and onFetch in the order given, awaiting each', async () => {
    const heard: string[] = [];
    const slow: PollHooks = {
      onStored: async () => {
        await new Promise((resolve) => setImmediate(resolve));
        heard.push('slow');
      },
    };
    const fast: PollHooks = {
      onStored: () => void heard.push('fast'),
      onFetch: () => void heard.push('fetch'),
    };
    const hooks = combineHooks(slow, {}, fast);
    await hooks.onStored?.(feed, stored);
    await hooks.onFetch?.(feed, { kind: 'gone', status: 410, url: 'u', redirects: [], durationMs: 1 });
    assert.deepEqual(heard, ['slow', 'fast', 'fetch']);
  });

  it('hands the entry from one onEntry to the next and stops at the first that drops it', async () => {
    const seen: string[] = [];
    const retitle: PollHooks = { onEntry: (_f, e) => ({ ...e, title: `${e.title}!` }) };
    const drop: PollHooks = { onEntry: () => null };
    const watch: PollHooks = {
      onEntry: (_f, e) => {
        seen.push(e.title ?? '');
        return e;
      },
    };
    assert.equal((await combineHooks(retitle, watch).onEntry?.(feed, entry, 'new'))?.title, 'T!');
    assert.deepEqual(seen, ['T!']);
    assert.equal(await combineHooks(drop, watch).onEntry?.(feed, entry, 'new'), null);
    assert.deepEqual(seen, ['T!']);
  });

  it('leaves out the hooks no part has', () => {
    assert.deepEqual(combineHooks(), {});
    assert.deepEqual(Object.keys(combineHooks({ onFetch: () => {} })), ['onFetch']);
  });
});
