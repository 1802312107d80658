// Every id, stream and number of the Google Reader API, malformed (issue 22): a 4xx or "nothing", never
// "everything" (mark-all-as-read of the read stream marked the whole account read) and never a 500
// (19-digit ot and nt did).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openSyncHarness, rssItem, type SyncHarness } from '../helpers/sync-harness.js';
import { storeBackends } from '../helpers/temp-store.js';
import { type GReaderClient, type Json, signIn } from './harness.js';

const READ = 'user/-/state/com.google/read';
const READING_LIST = 'user/-/state/com.google/reading-list';

type Form = Record<string, string | string[]>;

/** Values that are no id, stream, time or count tidings writes, or are out of every range. */
const ODD_VALUES = [
  '',
  ' ',
  '-1',
  '0',
  '1.5',
  '1e3',
  '0x10',
  '9999999999999999999',
  '99999999999999999999',
  'abc',
  '%E0%A4%A',
  '\u0000',
  'user/-/state/com.google/nonsense',
  'user/-/label/',
  'feed/',
  'feed/abc',
  'feed/javascript:alert(1)',
  'tag:google.com,2005:reader/item/zz',
  'tag:google.com,2005:reader/item/ffffffffffffffffff',
  'x'.repeat(5000),
];

/** Every call and the parameters it reads (the writes that could change the account are run on their own below). */
const CALLS: [string, string[]][] = [
  ['stream/items/ids', ['s', 'n', 'r', 'c', 'xt', 'it', 'ot', 'nt']],
  ['stream/contents', ['s', 'n', 'r', 'c', 'xt', 'it', 'ot', 'nt']],
  ['stream/items/contents', ['i', 's']],
  ['edit-tag', ['i', 'a', 'r']],
  ['mark-all-as-read', ['s', 'ts']],
  ['subscription/edit', ['ac', 's', 't', 'a', 'r']],
  ['subscription/quickadd', ['quickadd']],
  ['rename-tag', ['s', 't', 'dest']],
  ['disable-tag', ['s', 't']],
  ['subscription/list', ['output']],
  ['tag/list', ['output']],
  ['unread-count', ['output']],
  ['user-info', ['output']],
];

for (const backend of storeBackends()) {
  describe(`google reader validation (${backend.name})`, { skip: backend.skip }, () => {
    let h: SyncHarness;
    let app: GReaderClient;
    let feedId: number;

    const unreadTotal = async () => {
      const counts = (await app.json('unread-count'))['unreadcounts'] as Json[];
      return counts.find((c) => c['id'] === READING_LIST)?.['count'] ?? 0;
    };

    before(async () => {
      h = await openSyncHarness(backend);
      h.serve(
        '/news.xml',
        [0, 1, 2, 3].map((i) => rssItem(`n${i}`, i)),
      );
      ({ feedId } = await h.follow('/news.xml', 'News'));
      app = await signIn(h);
    });
    after(async () => {
      await h.close();
      await backend.cleanup();
    });

    it('refuses malformed numbers of stream calls with a 400 that says which', async () => {
      for (const call of ['stream/items/ids', 'stream/contents']) {
        for (const query of [
          'n=abc',
          'n=-1',
          'n=0',
          'n=1e3',
          'r=x',
          'c=abc',
          'c=-5',
          'c=0',
          'c=1e3',
          'c=99999999999999999999',
          'ot=abc',
          'ot=-1',
          'ot=1.5.5',
          'ot=.5',
          'ot=99999999999999999999',
          'nt=-1',
          'xt=garbage',
          'xt=user/-/label/News',
          'it=garbage',
          'it=feed/1',
        ]) {
          const res = await app.get(`${call}?${query}`);
          assert.equal(res.status, 400, `${call}?${query}`);
          const name = query.split('=')[0] as string;
          assert.match(await res.text(), new RegExp(`^greader: .*\\b${name}\\b`), `${call}?${query}`);
        }
      }
    });

    it('reads 19-digit times, the most ids, and streams that name nothing as an empty stream', async () => {
      const refs = async (query: string) => {
        const res = await app.get(`stream/items/ids?${query}`);
        assert.equal(res.status, 200, query);
        return ((await res.json()) as Json)['itemRefs'] as Json[];
      };
      // a time in seconds, milli-, micro- or nanoseconds is the same time
      const seen = Math.floor(h.clock.now().getTime() / 1000) - 3600;
      for (const ot of [`${seen}`, `${seen}000`, `${seen}000000`, `${seen}000000000`])
        assert.equal((await refs(`ot=${ot}`)).length, 4, ot);
      for (const nt of [`${seen}`, `${seen}000`, `${seen}000000`, `${seen}000000000`])
        assert.equal((await refs(`nt=${nt}`)).length, 0, nt);
      // nanoseconds far ahead: nothing was crawled after; and nothing before 1970
      assert.deepEqual(await refs('ot=9999999999999999999'), []);
      assert.deepEqual(await refs('nt=1'), []);
      assert.equal((await refs('nt=9999999999999999999')).length, 4);
      assert.equal((await refs('n=99999999999999999999')).length, 4);
      for (const s of [
        'garbage',
        'feed/987654',
        'feed/abc',
        'user/-/label/No such',
        'user/-/state/com.google/x',
      ])
        assert.deepEqual(await refs(`s=${encodeURIComponent(s)}`), [], s);
      // a state tidings does not keep holds nothing: including it gives nothing, leaving it out everything
      assert.deepEqual(await refs('it=user/-/state/com.google/fresh'), []);
      assert.equal((await refs('xt=user/-/state/com.google/fresh')).length, 4);
      const contents = await app.json('stream/contents/%E0%A4%A');
      assert.deepEqual(contents['items'], []);
    });

    it('gives no item for a malformed item id in any form', async () => {
      const res = await app.post('stream/items/contents', {
        i: [
          'garbage',
          '-1',
          '0',
          '1.5',
          '99999999999999999999',
          'tag:google.com,2005:reader/item/zz',
          'tag:google.com,2005:reader/item/ffffffffffffffffff',
          'tag:google.com,2005:reader/item/',
          '',
        ],
      });
      assert.equal(res.status, 200);
      assert.deepEqual(((await res.json()) as Json)['items'], []);
    });

    it('marks nothing read for a malformed or read stream, a malformed ts or id', async () => {
      const before = await unreadTotal();
      assert.equal(before, 4);
      const cases: [Form, number][] = [
        [{}, 400],
        [{ s: '' }, 400],
        [{ s: 'garbage' }, 400],
        [{ s: READ }, 200],
        [{ s: 'user/1234/state/com.google/read' }, 200],
        [{ s: 'user/-/state/com.google/fresh' }, 200],
        [{ s: 'feed/987654' }, 404],
        [{ s: 'user/-/label/No such' }, 404],
        [{ s: READING_LIST, ts: 'abc' }, 400],
        [{ s: READING_LIST, ts: '-1' }, 400],
        [{ s: READING_LIST, ts: '99999999999999999999' }, 400],
      ];
      for (const [form, status] of cases) {
        const res = await app.post('mark-all-as-read', form);
        assert.equal(res.status, status, JSON.stringify(form));
        assert.equal(await unreadTotal(), before, JSON.stringify(form));
      }
      for (const i of ['garbage', '-1', '0', 'tag:google.com,2005:reader/item/zz']) {
        const res = await app.post('edit-tag', { i, a: READ });
        assert.equal(res.status, 200);
      }
      const [first] = await h.entryIds(feedId);
      await app.post('edit-tag', { i: String(first), a: ['user/-/label/News', 'garbage', ''] });
      assert.equal(await unreadTotal(), before);
      // a 19-digit ts is nanoseconds: marking up to a time far ahead marks the feed read
      const ok = await app.post('mark-all-as-read', { s: `feed/${feedId}`, ts: '9999999999999999999' });
      assert.equal(ok.status, 200);
      assert.equal(await unreadTotal(), 0);
      await app.post('edit-tag', { i: (await h.entryIds(feedId)).map(String), r: READ });
    });

    it('refuses malformed subscription edits with a 4xx and changes nothing', async () => {
      const list = async () => [
        (await app.json('subscription/list'))['subscriptions'],
        (await app.json('tag/list'))['tags'],
      ];
      const listed = await list();
      const cases: [string, Form, number][] = [
        ['subscription/edit', { ac: 'bogus', s: `feed/${feedId}` }, 400],
        ['subscription/edit', { ac: 'edit', t: 'No stream' }, 400],
        ['subscription/edit', { ac: 'unsubscribe' }, 400],
        ['subscription/edit', { ac: 'edit', s: 'garbage', t: 'x' }, 400],
        ['subscription/edit', { ac: 'edit', s: 'feed/987654', t: 'x' }, 404],
        ['subscription/edit', { ac: 'unsubscribe', s: 'feed/987654' }, 404],
        ['subscription/edit', { ac: 'subscribe', s: 'feed/987654' }, 404],
        ['subscription/edit', { ac: 'subscribe', s: 'feed/javascript:alert(1)' }, 400],
        // a feed that cannot be followed leaves no empty folder behind
        [
          'subscription/edit',
          { ac: 'subscribe', s: `feed/${h.url('/missing.xml')}`, a: 'user/-/label/Ghost' },
          400,
        ],
        ['subscription/edit', { ac: 'edit', s: `feed/${feedId}`, t: 'x'.repeat(1001) }, 400],
        ['subscription/edit', { ac: 'edit', s: `feed/${feedId}`, a: `user/-/label/${'x'.repeat(201)}` }, 400],
        ['subscription/quickadd', {}, 400],
        ['subscription/quickadd', { quickadd: 'javascript:alert(1)' }, 400],
        ['rename-tag', { s: 'user/-/label/News' }, 400],
        ['rename-tag', { s: 'user/-/label/News', dest: `user/-/label/${'x'.repeat(201)}` }, 400],
        ['rename-tag', { dest: 'user/-/label/Other' }, 400],
        ['disable-tag', {}, 404],
        ['disable-tag', { s: 'user/-/label/No such' }, 404],
      ];
      for (const [call, form, status] of cases) {
        const res = await app.post(call, form);
        assert.equal(res.status, status, `${call} ${JSON.stringify(form).slice(0, 100)}`);
      }
      assert.deepEqual(await list(), listed);
    });

    it('never answers 500 to an odd value of any parameter of any call', async () => {
      const unread = await unreadTotal();
      const failures: string[] = [];
      for (const [call, names] of CALLS) {
        for (const name of names) {
          for (const value of ODD_VALUES) {
            // GET and POST parameters are read alike (http/request.ts): a form is enough
            const res = await app.post(call, { [name]: value });
            if (res.status >= 500) failures.push(`${call} ${name}=${JSON.stringify(value.slice(0, 40))}`);
          }
        }
      }
      assert.deepEqual(failures, []);
      // and none of them marked everything read
      assert.equal(await unreadTotal(), unread);
    });
  });
}
