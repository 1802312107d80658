// The one byte budget of API pages (src/reading/page-budget.ts) and the answers written as they are made
// (src/reading/json-stream.ts), issue 22: entries' stored sizes are read without their text, pages stop
// at the budget (the first entry always fits), and a whole answer is made a batch at a time.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { streamJsonObject } from '../../src/reading/json-stream.js';
import { batchesWithinBudget, countWithinBudget, pageWithinBudget } from '../../src/reading/page-budget.js';
import type { Store } from '../../src/store/index.js';
import { minutesAfterT0, storeBackends, testEntry, testPoll } from '../helpers/temp-store.js';

describe('countWithinBudget', () => {
  it('counts from the first (or the last) size while the sum stays within the budget, at least one', () => {
    assert.equal(countWithinBudget([40, 40, 40], 100), 2);
    assert.equal(countWithinBudget([40, 60, 40], 100), 2);
    assert.equal(countWithinBudget([500, 1, 1], 100), 1);
    assert.equal(countWithinBudget([1, 1, 500], 100, true), 1);
    assert.equal(countWithinBudget([500, 40, 40], 100, true), 2);
    assert.equal(countWithinBudget([], 100), 0);
    assert.equal(countWithinBudget([1, 2, 3], 100), 3);
  });
});

describe('streamJsonObject', () => {
  it('writes the fields, then the items, as one JSON object', async () => {
    async function* items() {
      yield '{"a":1}';
      yield '"two"';
    }
    const text = await new Response(streamJsonObject({ x: 'y', n: 2 }, 'items', items())).text();
    assert.deepEqual(JSON.parse(text), { x: 'y', n: 2, items: [{ a: 1 }, 'two'] });
    const none = await new Response(streamJsonObject({}, 'items', items())).text();
    assert.deepEqual(JSON.parse(none), { items: [{ a: 1 }, 'two'] });
  });

  it('makes an item only when the reader has taken the ones before', async () => {
    let made = 0;
    async function* items() {
      for (let i = 0; i < 1000; i++) {
        made += 1;
        yield String(i);
      }
    }
    const reader = streamJsonObject({}, 'items', items()).getReader();
    for (let i = 0; i < 4; i++) await reader.read();
    assert.ok(made <= 5, `made ${made} items for 4 reads`);
    await reader.cancel();
  });
});

for (const backend of storeBackends()) {
  describe(`entry sizes and batches (${backend.name})`, { skip: backend.skip }, () => {
    let store: Store;
    let ids: number[];

    before(async () => {
      store = await backend.open();
      const channel = await store.channels.create('A');
      const feed = await store.feeds.add('https://example.org/feed', minutesAfterT0(0));
      await store.channels.subscribe(channel.id, feed.id, minutesAfterT0(0));
      const entries = [
        testEntry('a', { title: 'é', contentHtml: 'x'.repeat(100) }),
        testEntry('b', { title: 'b', contentHtml: 'y'.repeat(100) }),
        testEntry('c', { title: 'c', summary: 'z'.repeat(300) }),
      ];
      const polled = await store.polling.record(testPoll(feed.id, entries));
      ids = [...polled.insertedIds].sort((x, y) => x - y);
    });
    after(async () => {
      await backend.cleanup();
    });

    it('gives the UTF-8 bytes of every text an entry is written from, by id', async () => {
      const sizes = await store.entries.sizes([...ids, 999_999]);
      assert.equal(sizes.size, 3);
      // the URL, the title ("é" is two bytes), the content or summary, and authors, categories and
      // enclosures "[]", extra "{}"
      const url = 'https://example.org/a'.length;
      assert.equal(sizes.get(ids[0] as number), url + 2 + 100 + 8);
      assert.equal(sizes.get(ids[1] as number), url + 1 + 100 + 8);
      assert.equal(sizes.get(ids[2] as number), url + 1 + 300 + 8);
    });

    it('cuts ids into batches within the budget, a bigger one alone, in the order given', async () => {
      const [a, b, c] = ids as [number, number, number];
      const batches = async (order: number[], maxBytes: number) => {
        const all: number[][] = [];
        for await (const batch of batchesWithinBudget(store, order, maxBytes)) all.push(batch);
        return all;
      };
      assert.deepEqual(await batches([a, b, c], 300), [[a, b], [c]]);
      assert.deepEqual(await batches([c, b, a], 300), [[c], [b, a]]);
      assert.deepEqual(await batches([a, b, c], 10), [[a], [b], [c]]);
      assert.deepEqual(await batches([], 10), []);
      assert.deepEqual(await pageWithinBudget(store, [b, a, c], 300), [b, a]);
      // an id that is no entry takes no room
      assert.deepEqual(await pageWithinBudget(store, [999_999, a, b], 200), [999_999, a]);
    });
  });
}
