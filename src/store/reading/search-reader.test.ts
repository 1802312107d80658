import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import {
  minutesAfterT0 as at,
  type StoreBackend,
  storeBackends,
  testEntry,
  testPoll,
} from '../../../test/helpers/temp-store.js';
import { parseSearchQuery } from './search.js';

describe('parseSearchQuery', () => {
  it('reads phrases and words to include, and -words to exclude', () => {
    assert.deepEqual(parseSearchQuery('"banana split" apple -cherry - --x'), {
      include: ['banana split', 'apple', '--x'],
      exclude: ['cherry'],
    });
  });
});

function suite(backend: StoreBackend) {
  after(() => backend.cleanup());

  async function library() {
    const store = await backend.open();
    const channel = await store.channels.create('reading');
    const feed = await store.feeds.add('https://example.org/cjk.xml', at(0));
    await store.channels.subscribe(channel.id, feed.id, at(0));
    const text = (guid: string, title: string, body: string) => testEntry(guid, { title, contentText: body });
    await store.polling.record(
      testPoll(feed.id, [
        text('expo', '上海世博五卷', '世博会的历史记录'),
        text('fruit', 'Apple and cherry', 'a pie of apple and cherry'),
        text('apple', 'Apple alone', 'just an apple'),
        text('kana', 'カタカナのテスト', 'ひらがなとカタカナ'),
      ]),
    );
    const find = async (query: string) =>
      (await store.reading.search({ query, channelId: channel.id, limit: 10 })).entries
        .map((e) => e.guid)
        .sort();
    return { find };
  }

  it('finds CJK text inside a run: 世博 in 世博五卷, kana in a longer word', async () => {
    const { find } = await library();
    assert.deepEqual(await find('世博'), ['expo']);
    assert.deepEqual(await find('世博五卷'), ['expo']);
    assert.deepEqual(await find('历史'), ['expo']);
    assert.deepEqual(await find('カタカナ'), ['kana']);
    assert.deepEqual(await find('世博 -历史'), []);
    assert.deepEqual(await find('100%'), []);
  });

  it('leaves out entries with a -term', async () => {
    const { find } = await library();
    assert.deepEqual(await find('apple'), ['apple', 'fruit']);
    assert.deepEqual(await find('apple -cherry'), ['apple']);
    assert.deepEqual(await find('-cherry'), []);
  });
}

for (const backend of storeBackends()) {
  if (backend.skip !== undefined) it(backend.name, { skip: backend.skip }, () => {});
  else describe(backend.name, () => suite(backend));
}
