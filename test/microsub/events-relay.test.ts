// Events across processes (issue 14): two servers on one PostgreSQL database, each with its own store
// (connection pool) and its own LISTEN connection, as two `tidings serve` processes behind a load
// balancer, or `serve --no-poller` beside a `tidings worker`. An entry stored by one process's poller
// reaches the other's event stream; a mark_read through one updates the count on the other's stream.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { microsubRoutes } from '../../src/microsub/routes.js';
import { PollEvents } from '../../src/poll/events.js';
import { microsubDeps } from '../../src/server/app.js';
import type { Store } from '../../src/store/index.js';
import { type EventRelay, openEventRelay } from '../../src/store/index.js';
import { rss } from '../helpers/poll-harness.js';
import { nextNamed, sseReader } from '../helpers/sse-reader.js';
import { storeBackends } from '../helpers/temp-store.js';
import { type Harness, item, openHarness, serverDeps } from './harness.js';

const postgres = storeBackends().find((b) => b.name === 'postgres');

describe('microsub events across processes (postgres)', {
  skip: postgres?.skip ?? false,
  timeout: 30_000,
}, () => {
  const backend = postgres!;
  const relays: EventRelay[] = [];
  let a: Harness;
  let storeB: Store;
  let eventsB: PollEvents;
  let base: string;
  let close: () => Promise<void>;

  async function relayOf(store: Store): Promise<EventRelay> {
    const relay = await openEventRelay(backend.urlOf(store), (err) => {
      throw err;
    });
    assert.ok(relay, 'PostgreSQL has a relay');
    relays.push(relay);
    return relay;
  }

  before(async () => {
    // process A: polls and serves (its own endpoint is not used here)
    const storeA = await backend.open();
    const eventsA = new PollEvents(await relayOf(storeA));
    a = await openHarness(
      { ...backend, open: async () => storeA },
      { events: eventsA, microsub: { heartbeatMs: 60_000 } },
    );
    // process B: serves only (serve --no-poller), on a pool and a relay of its own
    storeB = await backend.openPeer(a.store);
    eventsB = new PollEvents(await relayOf(storeB));
    const depsB = serverDeps(storeB, a.clock, eventsB, {});
    const appB = new Hono().route('/microsub', microsubRoutes(microsubDeps(depsB), { heartbeatMs: 60_000 }));
    const server = serve({ fetch: appB.fetch, hostname: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ('closeAllConnections' in server) server.closeAllConnections();
      });
  });

  after(async () => {
    await close?.();
    await Promise.all(relays.map((r) => r.close()));
    await a?.close();
    await backend.cleanup();
  });

  /**
   * Resolves once process B has heard of entries stored (a follow's first fetch): NOTIFY reaches B's
   * connection when PostgreSQL delivers it, so a stream opened sooner could still hear those as new.
   */
  function heardOnB(): Promise<void> {
    return new Promise((resolve) => {
      const off = eventsB.onNewEntries(() => {
        off();
        resolve();
      });
    });
  }

  async function openStreamOnB() {
    const abort = new AbortController();
    const response = await fetch(`${base}/microsub?action=events`, {
      headers: { authorization: `Bearer ${a.token}`, accept: 'text/event-stream' },
      signal: abort.signal,
    });
    assert.equal(response.status, 200);
    assert.ok(response.body);
    const next = sseReader(response.body);
    assert.ok((await next()).comment !== undefined, 'a comment opens the stream');
    return { abort, next };
  }

  it('sends a new-item on one server for an entry the other process polled', async () => {
    const uid = (await a.post({ action: 'channels', name: 'Relayed' })).body['uid'] as string;
    a.docs['/r.xml'] = { body: rss([item('r1', 1)]), type: 'application/rss+xml' };
    const followed = heardOnB();
    await a.post({ action: 'follow', channel: uid, url: a.url('/r.xml') });
    await followed;
    const { abort, next } = await openStreamOnB();
    a.docs['/r.xml'] = { body: rss([item('r1', 1), item('r2', 2)]), type: 'application/rss+xml' };
    await a.poll(a.url('/r.xml'));
    const newItem = JSON.parse((await nextNamed(next, 'new-item')).data) as {
      channel: string;
      item: { uid: string; _id: string };
    };
    assert.equal(newItem.channel, uid);
    assert.equal(newItem.item.uid, 'r2');
    const change = JSON.parse((await nextNamed(next, 'change-channel')).data) as {
      channel: { uid: string; unread: number };
    };
    assert.deepEqual(change.channel, { uid, name: 'Relayed', unread: 2 });
    // a mark_read through process A changes the count on B's stream
    await a.post({ action: 'timeline', method: 'mark_read', channel: uid, entry: newItem.item._id });
    const afterRead = JSON.parse((await nextNamed(next, 'change-channel')).data) as {
      channel: { uid: string; unread: number };
    };
    assert.deepEqual(afterRead.channel, { uid, name: 'Relayed', unread: 1 });
    abort.abort();
  });

  it('relays a poll that stored more ids than one notification holds', async () => {
    const uid = (await a.post({ action: 'channels', name: 'Big' })).body['uid'] as string;
    a.docs['/big.xml'] = { body: rss([item('b0', 0)]), type: 'application/rss+xml' };
    const followed = heardOnB();
    await a.post({ action: 'follow', channel: uid, url: a.url('/big.xml') });
    await followed;
    const { abort, next } = await openStreamOnB();
    const items = Array.from({ length: 450 }, (_, i) => item(`b${i}`, i));
    a.docs['/big.xml'] = { body: rss(items), type: 'application/rss+xml' };
    await a.poll(a.url('/big.xml'));
    const seen = new Set<string>();
    while (seen.size < 449) {
      const event = JSON.parse((await nextNamed(next, 'new-item')).data) as { item: { uid: string } };
      seen.add(event.item.uid);
    }
    assert.equal(seen.has('b0'), false, 'the entry stored before is not new');
    assert.equal(seen.has('b449'), true);
    abort.abort();
  });
});

describe('microsub events across processes (sqlite)', () => {
  it('has no relay: several processes on one SQLite file are not supported for events', async () => {
    assert.equal(await openEventRelay('sqlite:/tmp/none.db', () => {}), undefined);
  });
});
