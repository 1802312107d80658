// One read state, seen alike through the four interfaces: the web UI, Microsub, the Google Reader API
// and the Fever API. Each marks an entry read and unread; the other three must see it at once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hashPassword, PASSWORD_SETTING } from '../../src/auth/password-hash.js';
import { type GReaderClient, type Json, signIn } from '../greader/harness.js';
import { FEVER_KEY, openSyncHarness, rssItem, type SyncHarness } from '../helpers/sync-harness.js';
import { storeBackends } from '../helpers/temp-store.js';
import { type Client, PASSWORD, signedIn } from '../web/harness.js';

const READ = 'user/-/state/com.google/read';
const STARRED = 'user/-/state/com.google/starred';

type Interface = 'web' | 'microsub' | 'greader' | 'fever';
const INTERFACES: Interface[] = ['web', 'microsub', 'greader', 'fever'];

for (const backend of storeBackends()) {
  describe(`one read state through four interfaces (${backend.name})`, { skip: backend.skip }, () => {
    let h: SyncHarness;
    let web: Client;
    let reader: GReaderClient;
    let uid: string;
    let ids: number[];

    const fever = async (query: string, form: Record<string, string> = {}) => {
      const body = new URLSearchParams({ api_key: FEVER_KEY, ...form });
      const res = await h.app.request(`/api/fever?api&${query}`, { method: 'POST', body });
      return (await res.json()) as Json;
    };

    /** Marks an entry read or unread through one interface, as its clients do. */
    const mark = async (through: Interface, id: number, read: boolean) => {
      if (through === 'web') {
        const res = await web.post(`/c/${uid}/entries/${id}/read`, { read: read ? '1' : '0' });
        assert.equal(res.status, 303);
      } else if (through === 'microsub') {
        const method = read ? 'mark_read' : 'mark_unread';
        const res = await h.post({ action: 'timeline', method, channel: uid, entry: String(id) });
        assert.equal(res.status, 200);
      } else if (through === 'greader') {
        const res = await reader.post('edit-tag', { i: String(id), [read ? 'a' : 'r']: READ });
        assert.equal(await res.text(), 'OK');
      } else {
        const answer = await fever('', { mark: 'item', as: read ? 'read' : 'unread', id: String(id) });
        assert.equal(answer['auth'], 1);
      }
    };

    /** Whether an entry is read, as one interface shows it. */
    const isRead = async (through: Interface, id: number): Promise<boolean> => {
      if (through === 'web') {
        const page = await web.get(`/c/${uid}`);
        const article = new RegExp(`<article class="([^"]*)" data-entry="${id}"`).exec(page.text);
        assert.ok(article, `web: entry ${id} is on the page`);
        return (article[1] ?? '').split(' ').includes('is-read');
      }
      if (through === 'microsub') {
        const answer = await h.get({ action: 'timeline', channel: uid });
        const item = (answer.body['items'] as Json[]).find((i) => i['_id'] === String(id));
        assert.ok(item, `microsub: entry ${id} is in the timeline`);
        return item['_is_read'] === true;
      }
      if (through === 'greader') {
        const res = await reader.get(`stream/items/ids?s=${READ}&n=100`);
        const refs = ((await res.json()) as Json)['itemRefs'] as Json[];
        return refs.some((ref) => ref['id'] === String(id));
      }
      const [item] = (await fever(`items&with_ids=${id}`))['items'] as Json[];
      return item?.['is_read'] === 1;
    };

    before(async () => {
      h = await openSyncHarness(backend);
      await h.store.accounts.setUserSetting(PASSWORD_SETTING, await hashPassword(PASSWORD, { N: 1024 }));
      h.serve(
        '/feed.xml',
        [0, 1, 2, 3].map((i) => rssItem(`e${i}`, i)),
      );
      const followed = await h.follow('/feed.xml', 'News');
      uid = followed.channel.uid;
      ids = await h.entryIds(followed.feedId);
      web = await signedIn(h.app);
      reader = await signIn(h);
    });
    after(async () => {
      await h.close();
      await backend.cleanup();
    });

    for (const [index, through] of INTERFACES.entries()) {
      it(`sees an entry marked read, then unread, through ${through} in the other three`, async () => {
        const id = ids[index] as number;
        for (const other of INTERFACES) assert.equal(await isRead(other, id), false, `${other} before`);
        await mark(through, id, true);
        for (const other of INTERFACES) assert.equal(await isRead(other, id), true, `${other} after read`);
        await mark(through, id, false);
        for (const other of INTERFACES) assert.equal(await isRead(other, id), false, `${other} after unread`);
      });
    }

    it('sees an entry starred through any interface starred through the other three', async () => {
      const starred = {
        web: async () => {
          const page = await web.get('/saved');
          return [...page.text.matchAll(/<article class="[^"]*" data-entry="(\d+)"/g)].map((m) =>
            Number(m[1]),
          );
        },
        microsub: async () => {
          const answer = await h.get({ action: 'timeline', channel: uid });
          return (answer.body['items'] as Json[])
            .filter((i) => i['_is_saved'] === true)
            .map((i) => Number(i['_id']));
        },
        greader: async () => {
          const res = await reader.get(`stream/items/ids?s=${STARRED}`);
          return (((await res.json()) as Json)['itemRefs'] as Json[]).map((ref) => Number(ref['id']));
        },
        fever: async () =>
          String((await fever('saved_item_ids'))['saved_item_ids'])
            .split(',')
            .filter(Boolean)
            .map(Number),
      };
      const star = {
        web: async (id: number, on: boolean) => {
          const res = await web.post(`/entries/${id}/save`, { saved: on ? '1' : '0' });
          assert.equal(res.status, 303);
        },
        microsub: async (id: number, on: boolean) => {
          const res = await h.post({
            action: 'timeline',
            method: on ? 'save' : 'unsave',
            channel: uid,
            entry: String(id),
          });
          assert.equal(res.status, 200);
        },
        greader: async (id: number, on: boolean) => {
          await reader.post('edit-tag', { i: String(id), [on ? 'a' : 'r']: STARRED });
        },
        fever: async (id: number, on: boolean) => {
          await fever('', { mark: 'item', as: on ? 'saved' : 'unsaved', id: String(id) });
        },
      };
      const names = ['web', 'microsub', 'greader', 'fever'] as const;
      for (const [index, through] of names.entries()) {
        const id = ids[index] as number;
        await star[through](id, true);
        for (const other of names)
          assert.deepEqual(await starred[other](), [id], `${other} sees ${through}'s star`);
        await star[through](id, false);
        for (const other of names)
          assert.deepEqual(await starred[other](), [], `${other} sees ${through}'s unstar`);
      }
    });
  });
}
