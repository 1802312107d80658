import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import pg from 'pg';
import { storeBackends } from '../../../test/helpers/temp-store.js';
import { parseRelayMessage, type RelayMessage } from '../relay-message.js';
import { encode, IDS_PER_NOTIFICATION, openPgEventRelay } from './notify.js';

describe('event relay payloads', () => {
  it('splits many entry ids into payloads NOTIFY accepts (under 8,000 bytes)', () => {
    const entryIds = Array.from({ length: 1000 }, (_, i) => 900_000_000_000_000 + i);
    const payloads = encode({ kind: 'entries', feedId: 7, entryIds }, 'tidings_test_abcdef012345');
    assert.equal(payloads.length, Math.ceil(1000 / IDS_PER_NOTIFICATION));
    for (const payload of payloads) assert.ok(Buffer.byteLength(payload) < 8000, `${payload.length} bytes`);
    const back = payloads.flatMap((p) => {
      const m = parseRelayMessage(JSON.parse(p));
      return m?.kind === 'entries' ? m.entryIds : [];
    });
    assert.deepEqual(back, entryIds);
  });

  it('reads back only well-formed messages', () => {
    assert.deepEqual(parseRelayMessage({ kind: 'channel', channelId: 3 }), { kind: 'channel', channelId: 3 });
    assert.equal(parseRelayMessage({ kind: 'channel', channelId: '3' }), undefined);
    assert.equal(parseRelayMessage({ kind: 'entries', feedId: 1, entryIds: [1, 'x'] }), undefined);
    assert.equal(parseRelayMessage(null), undefined);
  });
});

const postgres = storeBackends().find((b) => b.name === 'postgres');

describe('event relay on PostgreSQL', { skip: postgres?.skip ?? false }, () => {
  const backend = postgres!;
  after(() => backend.cleanup());

  it('sends what many feeds publish at once in few queries, one at a time, and every message arrives in order', async () => {
    const url = backend.urlOf(await backend.open());
    const errors: unknown[] = [];
    const sender = await openPgEventRelay(url, (error) => errors.push(error));
    const receiver = await openPgEventRelay(url, (error) => errors.push(error));
    // pg runs one query at a time on a connection and only queues overlapping ones (with a deprecation
    // warning, shown once per process; pg 9 refuses them): count what each connection has in flight
    const inFlight = new WeakMap<object, number>();
    let most = 0;
    let notifying = 0;
    const query = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      if (String(args[0]).includes('pg_notify')) notifying++;
      const now = (inFlight.get(this) ?? 0) + 1;
      inFlight.set(this, now);
      most = Math.max(most, now);
      const settle = () => inFlight.set(this, (inFlight.get(this) ?? 1) - 1);
      const result = (query as (...a: unknown[]) => Promise<unknown>).apply(this, args);
      result.then(settle, settle);
      return result;
    } as typeof query;
    const heard: number[] = [];
    const all = new Promise<void>((resolve) => {
      receiver.onMessage((message) => {
        if (message.kind === 'entries') heard.push(message.feedId);
        if (heard.length === 250) resolve();
      });
    });
    try {
      const messages: RelayMessage[] = Array.from({ length: 250 }, (_, i) => ({
        kind: 'entries',
        feedId: i + 1,
        entryIds: [i + 1],
      }));
      await Promise.all(messages.map((message) => sender.publish(message)));
      await all;
    } finally {
      pg.Client.prototype.query = query;
      await sender.close();
      await receiver.close();
    }
    assert.equal(most, 1, 'one query at a time on the relay connection');
    // 250 messages published in one turn: 100 notifications a query
    assert.equal(notifying, 3);
    assert.deepEqual(
      heard,
      Array.from({ length: 250 }, (_, i) => i + 1),
    );
    assert.deepEqual(errors, []);
  });
});
