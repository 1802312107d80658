import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { runSql } from '../../../test/helpers/raw-sql.js';
import { searchIndexKeys } from '../../../test/helpers/search-index.js';
import {
  minutesAfterT0 as at,
  type StoreBackend,
  storeBackends,
  testEntry,
  testPoll,
} from '../../../test/helpers/temp-store.js';
import type { Store } from '../store.js';
import type { TimelinePage } from '../types.js';
import { fts5Query, searchTerms } from './search.js';

const guids = (page: TimelinePage) => page.entries.map((entry) => entry.guid);

/** `news` follows feed a, `blogs` follows feed b; entries carry their words in title, summary or content. */
async function library(store: Store) {
  const news = await store.channels.create('news');
  const blogs = await store.channels.create('blogs');
  const a = await store.feeds.add('https://a.example/feed.xml', at(0));
  const b = await store.feeds.add('https://b.example/feed.xml', at(0));
  await store.channels.subscribe(news.id, a.id, at(0));
  await store.channels.subscribe(blogs.id, b.id, at(0));
  await store.polling.record(
    testPoll(a.id, [
      testEntry('apple', { title: 'Apple and Banana', sortAt: at(1) }),
      testEntry('split', { title: 'Dessert', summary: 'a banana split', sortAt: at(2) }),
      testEntry('pie', { title: 'Baking', contentText: 'Cherry pie with a lattice', sortAt: at(3) }),
      testEntry('cafe', { title: 'Café crème', authorUrl: 'https://carol.example/', sortAt: at(4) }),
    ]),
  );
  await store.polling.record(
    testPoll(b.id, [testEntry('b-banana', { title: 'Banana bread', sortAt: at(5) })]),
  );
  const find = async (query: string, scope: number | 'all' = news.id) =>
    guids(await store.reading.search({ query, limit: 9, ...(scope === 'all' ? {} : { channelId: scope }) }));
  return { news, blogs, a, b, find };
}

describe('search terms', () => {
  it('keeps quoted phrases and words, and turns every term into a quoted FTS5 string', () => {
    assert.deepEqual(searchTerms('  banana "split  second" NEAR( - "foo AND (bar'), [
      'banana',
      'split second',
      'NEAR(',
      'foo',
      'AND',
      '(bar',
    ]);
    assert.equal(fts5Query(['a"b', 'c d']), '"a""b" "c d"');
    assert.deepEqual(searchTerms('"" ( ) *'), []);
  });
});

function searchSuite(backend: StoreBackend) {
  after(() => backend.cleanup());

  it('finds entries holding every word, newest first, ignoring case', async () => {
    const { find } = await library(await backend.open());
    assert.deepEqual(await find('banana'), ['split', 'apple']);
    assert.deepEqual(await find('BANANA apple'), ['apple']);
    assert.deepEqual(await find('cherry lattice'), ['pie']);
    assert.deepEqual(await find('banana cherry'), []);
  });

  it('keeps quoted phrases together', async () => {
    const { find } = await library(await backend.open());
    assert.deepEqual(await find('"banana split"'), ['split']);
    assert.deepEqual(await find('split banana'), ['split']);
    assert.deepEqual(await find('"split banana"'), []);
  });

  it('reads operators and syntax as plain words, never as an error', async () => {
    const { find } = await library(await backend.open());
    for (const query of [
      '"foo AND (bar',
      'NEAR(',
      'NEAR(apple banana)',
      '*',
      'apple OR',
      '-',
      "'",
      ')))',
      '^a',
    ]) {
      assert.ok(Array.isArray(await find(query)), query);
    }
    assert.deepEqual(await find('apple AND banana'), ['apple']);
    assert.deepEqual(await find('apple OR cherry'), []);
    assert.deepEqual(await find('title:apple'), []);
    assert.deepEqual(await find(''), []);
  });

  it('searches one channel, or all of them with the read state of any', async () => {
    const store = await backend.open();
    const { blogs, find } = await library(store);
    assert.deepEqual(await find('banana', blogs.id), ['b-banana']);
    assert.deepEqual(await find('banana', 'all'), ['b-banana', 'split', 'apple']);
    const [bread] = (await store.reading.search({ query: 'bread', channelId: blogs.id, limit: 1 })).entries;
    await store.reading.markRead(blogs.id, [bread!.id], true, at(10));
    const everywhere = await store.reading.search({ query: 'banana', limit: 9 });
    assert.deepEqual(
      everywhere.entries.map((entry) => [entry.guid, entry.isRead]),
      [
        ['b-banana', true],
        ['split', false],
        ['apple', false],
      ],
    );
  });

  it('pages results with after', async () => {
    const store = await backend.open();
    const { news } = await library(store);
    const first = await store.reading.search({ query: 'banana', channelId: news.id, limit: 1 });
    assert.deepEqual(guids(first), ['split']);
    const second = await store.reading.search({
      query: 'banana',
      channelId: news.id,
      limit: 1,
      after: first.after,
    });
    assert.deepEqual(guids(second), ['apple']);
    assert.equal(second.after, undefined);
  });

  it('lists matches newest first whatever order they arrived in, and pages through all of them once', async () => {
    const store = await backend.open();
    const { news, a } = await library(store);
    // a feed lists its newest item first: ids grow as dates go back; every third one says "tide"
    const batch = Array.from({ length: 60 }, (_, i) =>
      testEntry(`old-${i}`, { title: `Item ${i}${i % 3 === 0 ? ' tide' : ''}`, sortAt: at(500 - i * 7) }),
    );
    await store.polling.record(testPoll(a.id, batch, at(600)));
    const expected = batch.filter((_, i) => i % 3 === 0).map((entry) => entry.guid);
    const seen: string[] = [];
    let after: string | undefined;
    for (let page = 0; page < 10; page++) {
      const result = await store.reading.search({ query: 'tide', limit: 6, channelId: news.id, after });
      seen.push(...guids(result));
      after = result.after;
      if (after === undefined) break;
    }
    assert.deepEqual(seen, expected);
    const everywhere = await store.reading.search({ query: 'tide -item', limit: 50 });
    assert.deepEqual(guids(everywhere), []);
  });

  it('leaves out removed, muted and blocked entries', async () => {
    const store = await backend.open();
    const { news, find } = await library(store);
    const [split] = (await store.reading.search({ query: 'split', channelId: news.id, limit: 1 })).entries;
    await store.reading.removeEntries(news.id, [split!.id], at(10));
    assert.deepEqual(await find('banana'), ['apple']);
    assert.deepEqual(await find('banana', 'all'), ['b-banana', 'apple']);
    await store.filters.add({ kind: 'block', url: 'https://b.example/feed.xml' }, at(11));
    assert.deepEqual(await find('banana', 'all'), ['apple']);
    await store.filters.add({ channelId: news.id, kind: 'mute', url: 'https://carol.example/' }, at(12));
    assert.deepEqual(await find('crème'), []);
  });

  it("finds words of an entry's content and of its Media RSS description, not of its HTML markup", async () => {
    const store = await backend.open();
    const { a, find } = await library(store);
    const video = testEntry('video', {
      title: 'A video',
      contentHtml: '<p class="marquee">Watch</p>',
      contentText: 'Watch',
      extra: { media: { items: [], description: 'Glassblowing in Murano' } },
      sortAt: at(6),
    });
    await store.polling.record(testPoll(a.id, [video], at(10)));
    assert.deepEqual(await find('murano glassblowing'), ['video']);
    assert.deepEqual(await find('watch'), ['video']);
    assert.deepEqual(await find('marquee'), []);
  });

  it('indexes the new text of an updated entry', async () => {
    const store = await backend.open();
    const { a, find } = await library(store);
    const [pie] = await store.entries.listByFeed(a.id, 9).then((all) => all.filter((e) => e.guid === 'pie'));
    const changed = { ...testEntry('pie', { contentText: 'Plum pie', contentHash: 'pie-2' }), id: pie!.id };
    await store.polling.record(testPoll(a.id, [], at(20), { changedEntries: [changed] }));
    assert.deepEqual(await find('cherry'), []);
    assert.deepEqual(await find('plum'), ['pie']);
  });

  it('finds a word with or without its diacritics, in either database', async () => {
    const { find } = await library(await backend.open());
    assert.deepEqual(await find('cafe creme'), ['cafe']);
    assert.deepEqual(await find('CAFÉ "crème"'), ['cafe']);
    // decomposed (e + combining acute), as some keyboards and feeds write it
    assert.deepEqual(await find('cafe\u0301'), ['cafe']);
    assert.deepEqual(await find('creme brulee'), []);
  });

  it('finds a phrase only where its words stand next to each other', async () => {
    const { find } = await library(await backend.open());
    assert.deepEqual(await find('"cherry pie"'), ['pie']);
    assert.deepEqual(await find('"pie cherry"'), []);
    assert.deepEqual(await find('"cherry lattice"'), []);
  });

  it('still finds entries PostgreSQL indexed with its own parser before migration 0018', {
    skip: backend.name === 'postgres' ? false : 'PostgreSQL only',
  }, async () => {
    const store = await backend.open();
    const { a, find } = await library(store);
    await store.polling.record(
      testPoll(a.id, [testEntry('mail', { title: 'Write an e-mail to info@news.example', sortAt: at(6) })]),
    );
    // as the trigger of migration 0016 wrote every entry's vector
    await runSql(
      backend,
      store,
      "UPDATE entries SET search_vector = to_tsvector('simple', concat_ws(chr(10), title, summary, content_text))",
    );
    assert.deepEqual(await find('e-mail'), ['mail']);
    assert.deepEqual(await find('info@news.example'), ['mail']);
    assert.deepEqual(await find('"banana split"'), ['split']);
    assert.deepEqual(await find('crème'), ['cafe']);
  });

  it('leaves nothing of a removed feed in the index', async () => {
    const store = await backend.open();
    const { a, find } = await library(store);
    await store.feeds.remove(a.id);
    assert.deepEqual(await find('banana', 'all'), ['b-banana']);
    if (backend.name !== 'sqlite') return;
    // the index holds one row per entry left, under the entry's search key
    const { indexed, entries } = searchIndexKeys(backend.urlOf(store).slice('sqlite:'.length));
    assert.deepEqual(indexed, entries);
  });
}

for (const backend of storeBackends()) {
  if (backend.skip !== undefined) it(backend.name, { skip: backend.skip }, () => {});
  else describe(backend.name, () => searchSuite(backend));
}
