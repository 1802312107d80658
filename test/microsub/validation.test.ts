// Every parameter of every Microsub action, malformed: huge, negative, fractional, hex and exponent
// numbers, whitespace, arrays where one value is expected, very long values, unknown names. Each
// request is a 4xx and changes nothing, never a 500 and never "everything" (issue 22). Both backends.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { accountState } from '../helpers/account-state.js';
import { rss } from '../helpers/poll-harness.js';
import { storeBackends } from '../helpers/temp-store.js';
import { type Harness, item, openHarness } from './harness.js';

type Params = Record<string, string | string[]>;

/** A malformed request: its parameters (or a raw JSON body) and the status it must get. */
interface Row {
  name: string;
  method?: 'GET' | 'POST';
  params?: Params;
  json?: string;
  status: number;
}

const NUMBERS = ['', ' ', '0x1', '-1', '1.0', '1e3', '+1', '9'.repeat(20), '1'.repeat(5000), 'NaN', '½'];
const LONG = 'x'.repeat(5000);
const cursor = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

/** Every row, given a channel (its uid and entry ids) and another channel's entry. */
function rows(uid: string, ids: number[], otherId: number, url: (path: string) => string): Row[] {
  const id = String(ids[0]);
  const timeline = (params: Params, status = 400): Row => ({
    name: `timeline ${JSON.stringify(params).slice(0, 80)}`,
    params: { action: 'timeline', channel: uid, ...params },
    status,
  });
  const read = (params: Params, status = 400): Row => ({
    ...timeline(params, status),
    method: 'GET',
    name: `GET timeline ${JSON.stringify(params).slice(0, 80)}`,
  });
  const act = (action: string, params: Params, status = 400): Row => ({
    name: `${action} ${JSON.stringify(params).slice(0, 80)}`,
    params: { action, ...params },
    status,
  });
  const json = (body: Record<string, unknown>, status = 400): Row => ({
    name: `JSON ${JSON.stringify(body).slice(0, 80)}`,
    json: JSON.stringify({ action: 'timeline', channel: uid, method: 'mark_read', ...body }),
    status,
  });
  return [
    ...NUMBERS.map((entry) => timeline({ method: 'mark_read', entry })),
    ...['mark_unread', 'remove', 'save', 'unsave'].flatMap((method) =>
      ['', '0x1', '-1', '1e3', '9'.repeat(20)].map((entry) => timeline({ method, entry })),
    ),
    timeline({ method: 'mark_read', entry: [id, 'abc'] }),
    timeline({ method: 'mark_read', entry: Array.from({ length: 1001 }, (_, i) => String(i + 1)) }),
    ...['mark_read', 'mark_unread', 'remove', 'save'].map((method) =>
      timeline({ method, entry: String(otherId) }, 404),
    ),
    timeline({ method: 'mark_read', last_read_entry: String(otherId) }, 404),
    timeline({ method: 'mark_read', entry: '0' }, 404),
    ...NUMBERS.filter((n) => n.trim() !== '').map((n) =>
      timeline({ method: 'mark_read', last_read_entry: n }),
    ),
    timeline({ method: 'mark_read', last_read_entry: ['1', '2'] }),
    timeline({ method: 'mark_read', 'last_read_entry[0]': id, 'last_read_entry[1]': id }),
    timeline({ method: 'MARK_READ', entry: id }),
    timeline({ method: ['mark_read', 'remove'], entry: id }),
    timeline({ method: '', entry: id }),
    timeline({ method: LONG, entry: id }),
    timeline({ method: 'mark_read', entry: id, channel: '' }),
    timeline({ method: 'mark_read', entry: id, channel: LONG }),
    timeline({ method: 'mark_read', entry: id, channel: [uid, 'notifications'] }),
    timeline({ method: 'mark_read', entry: id, channel: 'global' }, 404),
    json({ entry: [1.5] }),
    json({ entry: { id: ids[0] } }),
    json({ entry: true }),
    json({ entry: 1e300 }),
    // JSON has one zero: entry 0, which no entry is
    json({ entry: -0 }, 404),
    json({ channel: null, entry: ids[0] }),
    json({ channel: [uid, uid], entry: ids[0] }),
    ...['0', '-1', '1.5', '1e2', '0x10', '9'.repeat(30), '+5', ' 5x', '1,2'].map((limit) => read({ limit })),
    read({ limit: ['5', '10'] }),
    read({ after: 'abc!' }),
    read({ after: LONG }),
    read({ after: cursor('2026-02-01T00:00:00.000Z|0') }),
    read({ after: cursor('2026-02-01T00:00:00.000Z|99999999999999999999') }),
    read({ after: cursor('2026-02-01|1') }),
    // the shape of a time, but none
    read({ after: cursor('9999-99-99T12:00:00.000Z|11') }),
    read({ before: cursor('2024-13-45T99:99:99.000Z|1') }),
    read({ after: [cursor('2026-02-01T00:00:00.000Z|1'), cursor('2026-02-01T00:00:00.000Z|2')] }),
    read({ before: cursor('2026-02-01T00:00:00.000Z|1'), after: cursor('2026-02-01T00:00:00.000Z|1') }),
    ...['-1', '9'.repeat(20), '1e3', 'javascript:alert(1)'].map((source) => read({ source }, 404)),
    read({ source: LONG }),
    read({ source: ['1', '2'] }),
    read({ is_read: ['false', 'true'] }),
    act('channels', { name: '' }),
    act('channels', { name: 'x'.repeat(201) }),
    act('channels', { name: ['One', 'Two'] }),
    act('channels', { name: 'Renamed', channel: 'no-such-channel' }, 404),
    act('channels', { method: 'delete', channel: '' }),
    act('channels', { method: 'delete', channel: 'notifications' }),
    act('channels', { method: 'delete', channel: 'no-such-channel' }, 404),
    act('channels', { method: 'delete', channel: [uid, 'notifications'] }),
    act('channels', { method: 'DELETE', channel: uid }),
    act('channels', { method: 'order', channels: [] }),
    act('channels', { method: 'order', channels: Array.from({ length: 1001 }, (_, i) => `c${i}`) }),
    act('channels', { method: 'order', channels: [LONG] }),
    act('channels', { method: 'order', channels: ['no-such', 'nor-this'] }, 404),
    ...['', 'javascript:alert(1)', 'data:text/html,x', 'ftp://example.com/', 'http://', 'not a url'].map(
      (u) => act('follow', { channel: uid, url: u }),
    ),
    act('follow', { channel: uid, url: url(`/${'x'.repeat(2100)}`) }),
    act('follow', { channel: uid, url: [url('/a.xml'), url('/b.xml')] }),
    act('follow', { channel: 'no-such-channel', url: url('/a.xml') }, 404),
    act('unfollow', { channel: uid, url: '' }),
    act('unfollow', { channel: uid, url: [url('/a.xml'), url('/b.xml')] }),
    act('unfollow', { channel: uid, url: 'javascript:alert(1)' }, 404),
    ...['mute', 'unmute', 'block', 'unblock'].flatMap((action) => [
      ...['', 'javascript:alert(1)', 'data:,x', 'not a url', `https://example.com/${'x'.repeat(2100)}`].map(
        (u) => act(action, { channel: uid, url: u }),
      ),
      act(action, { channel: uid, url: ['https://a.example/', 'https://b.example/'] }),
      act(action, { channel: 'no-such-channel', url: 'https://a.example/' }, 404),
    ]),
    act('search', { query: '' }),
    act('search', { query: ['a', 'b'] }),
    act('search', { query: LONG }),
    ...[
      '"',
      '*',
      'AND',
      'NEAR(a b)',
      '^',
      '-x',
      'a:b',
      '"open',
      'OR OR',
      '(',
      '%',
      '_',
      '\\',
      "'",
      '\u0000',
    ].map((query) => act('search', { channel: 'global', query }, 200)),
    act('search', { channel: uid, query: 'x', limit: '0' }),
    act('search', { channel: uid, query: 'x', after: 'abc!' }),
    act('search', { channel: uid, query: 'x', before: 'abc' }),
    act('search', { channel: 'no-such-channel', query: 'x' }, 404),
    ...['', 'javascript:alert(1)', 'x', `https://example.com/${'x'.repeat(2100)}`].map((u) =>
      act('preview', { url: u }),
    ),
    act('', {}),
    act(LONG, {}),
    { name: 'two actions', params: { action: ['timeline', 'channels'], channel: uid }, status: 400 },
  ];
}

for (const backend of storeBackends()) {
  describe(`microsub validation (${backend.name})`, { skip: backend.skip }, () => {
    let h: Harness;
    let table: Row[];
    let alpha: { uid: string; ids: number[] };

    before(async () => {
      h = await openHarness(backend);
      const channel = async (name: string, count: number) => {
        const uid = (await h.post({ action: 'channels', name })).body['uid'] as string;
        const path = `/${name}.xml`;
        const items = Array.from({ length: count }, (_, i) => item(`${name}-${i}`, i));
        h.docs[path] = { body: rss(items), type: 'application/rss+xml' };
        const followed = await h.post({ action: 'follow', channel: uid, url: h.url(path) });
        assert.equal(followed.status, 200);
        const page = await h.get({ action: 'timeline', channel: uid });
        const ids = (page.body['items'] as { _id: string }[]).map((i) => Number(i._id));
        return { uid, ids };
      };
      alpha = await channel('alpha', 5);
      const beta = await channel('beta', 3);
      table = rows(alpha.uid, alpha.ids, beta.ids[0] as number, h.url);
    });

    after(async () => {
      await h.close();
      await backend.cleanup();
    });

    it('answers every malformed request with its 4xx and changes nothing', async () => {
      const wrong: string[] = [];
      // one picture for all the rows: the first row that changes something is the one reported
      const was = JSON.stringify(await accountState(h.store));
      for (const row of table) {
        const answer = row.json
          ? await jsonPost(h, row.json)
          : row.method === 'GET'
            ? await h.get(row.params ?? {})
            : await h.post(row.params ?? {});
        const changed = JSON.stringify(await accountState(h.store)) !== was;
        if (answer.status !== row.status || changed) {
          wrong.push(`${row.name}: ${answer.status}${changed ? ', changed the account' : ''}`);
        }
      }
      assert.deepEqual(wrong, []);
    });

    it('answers at the endpoint URL with a slash after it as at the endpoint', async () => {
      const headers = { authorization: `Bearer ${h.token}` };
      const slash = await h.app.request('/microsub/?action=channels', { headers });
      assert.equal(slash.status, 200);
      const plain = await h.app.request('/microsub?action=channels', { headers });
      assert.deepEqual(await slash.json(), await plain.json());
      const refused = await h.app.request('/microsub/?action=nothing', { headers });
      assert.equal(refused.status, 400);
      assert.equal(((await refused.json()) as { error: string }).error, 'invalid_request');
    });

    it('still takes the well-formed request after all that', async () => {
      const was = JSON.stringify(await accountState(h.store));
      const done = await h.post({
        action: 'timeline',
        method: 'mark_read',
        channel: alpha.uid,
        entry: ` ${alpha.ids[0]} `,
      });
      assert.equal(done.status, 200);
      assert.notEqual(JSON.stringify(await accountState(h.store)), was);
    });
  });
}

async function jsonPost(h: Harness, body: string) {
  const response = await h.app.request('/microsub', {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${h.token}` },
  });
  return { status: response.status };
}
