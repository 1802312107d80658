import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { minutesAfterT0 as at, type StoreBackend, storeBackends } from '../../../test/helpers/temp-store.js';

function suite(backend: StoreBackend) {
  after(() => backend.cleanup());

  it("lists every feed's summary, oldest first, with the values listFeeds gives", async () => {
    const store = await backend.open();
    const bare = await store.feeds.add('https://bare.example/feed.xml', at(0));
    const full = await store.feeds.add('https://full.example/feed.xml', at(1));
    await store.feeds.update(full.id, {
      title: 'Full',
      siteUrl: 'https://full.example/',
      message: 'fetch: timed out',
      status: 'fetch_error',
      paused: true,
      unfollowedAt: at(9),
      lastNewEntryAt: at(2),
      cadenceSeconds: 3600,
      errorCount: 3,
      lastSuccessAt: at(3),
      nextCheckAt: at(4),
      diagnostics: [{ severity: 'error', code: 'xml.unclosed-tag', message: 'unclosed' }],
    });
    const summaries = await store.feeds.listSummaries();
    const feeds = await store.feeds.list();
    assert.deepEqual(
      summaries.map((summary) => summary.id),
      [bare.id, full.id],
    );
    assert.deepEqual(summaries[0], {
      id: bare.id,
      url: bare.url,
      paused: false,
      errorCount: 0,
      nextCheckAt: at(0),
    });
    const { diagnostics, originalUrl, createdAt, trustsValidators, pendingMoveCount, ...wanted } = feeds[1]!;
    assert.deepEqual(summaries[1], wanted);
  });

  it('lists only the feeds asked for, oldest first, each once, and none for no ids', async () => {
    const store = await backend.open();
    const feeds = [];
    for (let i = 0; i < 5; i++) feeds.push(await store.feeds.add(`https://f${i}.example/feed.xml`, at(i)));
    const [a, b, , d] = feeds.map((feed) => feed.id) as [number, number, number, number, number];
    const asked = await store.feeds.listSummaries([d, a, d, b, 999_999]);
    assert.deepEqual(
      asked.map((summary) => summary.id),
      [a, b, d],
    );
    assert.deepEqual(
      asked[2],
      (await store.feeds.listSummaries()).find((s) => s.id === d),
    );
    assert.deepEqual(await store.feeds.listSummaries([]), []);
  });

  it('lists more feeds than one statement binds, in order', async () => {
    const store = await backend.open();
    const ids: number[] = [];
    for (let i = 0; i < 520; i++) ids.push((await store.feeds.add(`https://m${i}.example/`, at(0))).id);
    const asked = await store.feeds.listSummaries([...ids].reverse());
    assert.deepEqual(
      asked.map((summary) => summary.id),
      ids,
    );
  });
}

describe('store: feed summaries for the health list', () => {
  for (const backend of storeBackends())
    describe(backend.name, { skip: backend.skip ?? false }, () => suite(backend));
});
