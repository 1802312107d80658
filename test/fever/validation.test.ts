// Every parameter of the Fever API, malformed: ids and times as "", " ", hex, exponents, signs,
// fractions, 20 digits, words and very long values, given twice, and unknown `mark` and `as`. Fever
// answers HTTP 200 whatever happens, so a malformed request must change nothing (a mark) or give no
// items (a read), never "everything" and never a 500 (issue 22). Both backends.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { accountState } from '../helpers/account-state.js';
import { FEVER_KEY, openSyncHarness, rssItem, type SyncHarness } from '../helpers/sync-harness.js';
import { storeBackends } from '../helpers/temp-store.js';

type Body = Record<string, unknown>;

const LONG = '1'.repeat(5000);
const ZEROES = ['', ' ', '0x0', '-0', '0.0', '+0', '0e0', ' 0', '0 ', '00', '\t0', '0,0'];
const NOT_NUMBERS = ['-1', '1.5', '9'.repeat(20), 'NaN', 'Infinity', '1e1', 'abc', LONG];

/** Malformed spellings of a real id: each must name nothing. */
function spellings(id: number): string[] {
  return [`0x${id.toString(16)}`, `${id}.0`, `${id}e0`, ` ${id}`, `${id} `, `+${id}`, `-${id}`, `0${id}`];
}

for (const backend of storeBackends()) {
  describe(`fever validation (${backend.name})`, { skip: backend.skip }, () => {
    let h: SyncHarness;
    let news: { feedId: number; channel: { id: number } };
    let entryId: number;

    /** POST /api/fever?api&<query> with these form fields (repeated when given as an array). */
    const fever = async (query: string, form: Record<string, string | string[]> = {}) => {
      const body = new URLSearchParams({ api_key: FEVER_KEY });
      for (const [name, value] of Object.entries(form))
        for (const v of Array.isArray(value) ? value : [value]) body.append(name, v);
      const res = await h.app.request(`/api/fever?api${query ? `&${query}` : ''}`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      return { status: res.status, body: (await res.json()) as Body };
    };

    before(async () => {
      h = await openSyncHarness(backend);
      h.serve('/news.xml', [rssItem('n0', 0), rssItem('n1', 1), rssItem('n2', 2)]);
      h.serve('/blog.xml', [rssItem('b0', 0), rssItem('b1', 1)]);
      news = await h.follow('/news.xml', 'News');
      await h.follow('/blog.xml', 'Blogs');
      entryId = await h.idOf(news.feedId, 'n1');
    });
    after(async () => {
      await h.close();
      await backend.cleanup();
    });

    /** Sends each form as a mark; returns those answered other than 200 or that changed the account. */
    async function wrongMarks(forms: Record<string, string | string[]>[]): Promise<string[]> {
      const wrong: string[] = [];
      const was = JSON.stringify(await accountState(h.store));
      for (const form of forms) {
        const { status, body } = await fever('', form);
        const changed = JSON.stringify(await accountState(h.store)) !== was;
        if (status !== 200 || body['auth'] !== 1 || changed)
          wrong.push(
            `${JSON.stringify(form).slice(0, 100)}: ${status}${changed ? ', changed the account' : ''}`,
          );
      }
      return wrong;
    }

    it('marks nothing read for a group id that is not exactly 0 or a group id', async () => {
      const now = String(Math.floor(h.clock.now().getTime() / 1000));
      const forms = [
        { mark: 'group', as: 'read', before: now },
        ...[...ZEROES, ...NOT_NUMBERS].map((id) => ({ mark: 'group', as: 'read', id, before: now })),
        ...spellings(news.channel.id).map((id) => ({ mark: 'group', as: 'read', id, before: now })),
        { mark: 'group', as: 'read', id: ['5', '0'], before: now },
        { mark: 'group', as: 'read', id: ['0', ' 0'], before: now },
        { mark: 'group', as: 'read', 'id[]': '0', before: now },
      ];
      assert.deepEqual(await wrongMarks(forms), []);
    });

    it('marks nothing for a malformed feed or item id', async () => {
      const now = String(Math.floor(h.clock.now().getTime() / 1000));
      const forms = [
        // the zero spellings name no feed or item either way; the real ids' spellings are the ones that could
        ...['', ' ', '-1', '9'.repeat(20), LONG, ...spellings(news.feedId)].map((id) => ({
          mark: 'feed',
          as: 'read',
          id,
          before: now,
        })),
        ...['read', 'saved'].flatMap((as) =>
          ['', '-1', '9'.repeat(20), ...spellings(entryId)].map((id) => ({ mark: 'item', as, id })),
        ),
        { mark: 'item', as: 'saved', id: [String(entryId), String(entryId + 1)] },
      ];
      assert.deepEqual(await wrongMarks(forms), []);
    });

    it('marks nothing for a malformed `before`, `mark` or `as`, and never answers 500', async () => {
      const now = String(Math.floor(h.clock.now().getTime() / 1000));
      const forms = [
        ...['1e20', '-1', 'abc', '', ' ', '1.5', '0x10', '9'.repeat(20), 'Infinity', LONG, '0'].map((b) => ({
          mark: 'group',
          as: 'read',
          id: '0',
          before: b,
        })),
        { mark: 'group', as: 'read', id: '0', before: [now, '0'] },
        ...['READ', '', 'read ', 'unread', 'saved', ['read', 'unread']].map((as) => ({
          mark: 'group',
          as,
          id: '0',
          before: now,
        })),
        ...['GROUP', 'groups', '', 'group ', ['group', 'feed']].map((mark) => ({
          mark,
          as: 'read',
          id: '0',
          before: now,
        })),
      ];
      assert.deepEqual(await wrongMarks(forms), []);
    });

    it('gives no items for a malformed since_id, max_id or with_ids, never the newest ones', async () => {
      const forms = [
        ...['since_id', 'max_id'].flatMap((name) =>
          [' ', '-1', '1e3', '0x10', '1.5', '9'.repeat(20), 'abc', LONG, ['0', '1']].map((v) => ({
            [name]: v,
          })),
        ),
        { max_id: '' },
        ...['', ',', '1e3,0x10,-1', 'abc', LONG, ['1', '2']].map((v) => ({ with_ids: v })),
      ];
      const wrong: string[] = [];
      for (const form of forms) {
        const { status, body } = await fever('items', form);
        const items = body['items'] as unknown[] | undefined;
        if (status !== 200 || items?.length !== 0)
          wrong.push(`${JSON.stringify(form).slice(0, 80)}: ${status}`);
      }
      assert.deepEqual(wrong, []);
    });

    it("reads an empty since_id as the start, oldest first, as Read You's first sync sends it", async () => {
      const fromStart = await fever('items', { since_id: '0' });
      const empty = await fever('items', { since_id: '' });
      const ids = (body: Body) => (body['items'] as { id: number }[]).map((item) => item.id);
      assert.ok(ids(fromStart.body).length > 0);
      assert.deepEqual(ids(empty.body), ids(fromStart.body));
      assert.deepEqual(
        ids(empty.body),
        [...ids(empty.body)].sort((a, b) => a - b),
      );
    });

    it("takes a `before` of 16 to 19 digits as now: Read You's mark-all sends 16", async () => {
      const { status } = await fever('', {
        mark: 'feed',
        as: 'read',
        id: String(news.feedId),
        before: String(Math.floor(Number.MAX_SAFE_INTEGER / 1000) * 1000).slice(0, 16),
      });
      assert.equal(status, 200);
      const unread = await h.store.sync.ids({ readState: 'unread' });
      assert.ok(unread.length > 0, 'other feeds stay unread');
      assert.ok(!(await h.entryIds(news.feedId)).some((id) => unread.includes(id)));
      await h.store.sync.setReadEverywhere(
        { ids: await h.entryIds(news.feedId) },
        false,
        h.clock.now().toISOString(),
      );
    });

    it('still marks with well-formed values: a future `before` is now, a value given twice is one', async () => {
      const later = String(Math.floor(h.clock.now().getTime() / 1000) + 10 ** 12);
      const { status } = await fever('', {
        mark: 'feed',
        as: 'read',
        id: String(news.feedId),
        before: later,
      });
      assert.equal(status, 200);
      const unread = await h.store.sync.ids({ readState: 'unread' });
      assert.ok(unread.length > 0);
      assert.ok(!(await h.entryIds(news.feedId)).some((id) => unread.includes(id)));
      await fever('', { mark: 'group', as: 'read', id: '0', before: later });
      assert.deepEqual(await h.store.sync.ids({ readState: 'unread' }), []);
      // the same value in the query string and the form is one value
      const form = { mark: 'item', as: 'saved', id: String(entryId) };
      await fever(new URLSearchParams(form).toString(), form);
      assert.deepEqual(await h.store.sync.ids({ savedOnly: true }), [entryId]);
    });
  });
}
