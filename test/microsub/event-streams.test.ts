// Event streams end when their token is revoked, wherever it was revoked (the web UI, or
// `tidings token revoke` in another process), and are capped per token and in all (issue 22: a
// revoked token kept its stream; 300 open streams made writes 5x slower).
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { serve } from '@hono/node-server';
import { PollEvents } from '../../src/poll/events.js';
import type { Store } from '../../src/store/index.js';
import { hashToken } from '../../src/store/index.js';
import { type SseEvent, sseReader } from '../helpers/sse-reader.js';
import { storeBackends } from '../helpers/temp-store.js';
import { ALL_SCOPES, type Harness, openHarness } from './harness.js';

/** Counts the listeners of open event streams, to see them go. */
class CountingEvents extends PollEvents {
  listening = 0;

  override onNewEntries(listener: Parameters<PollEvents['onNewEntries']>[0]): () => void {
    this.listening++;
    const stop = super.onNewEntries(listener);
    return () => {
      this.listening--;
      stop();
    };
  }
}

for (const backend of storeBackends()) {
  describe(`microsub event streams: revocation and caps (${backend.name})`, { skip: backend.skip }, () => {
    let h: Harness;
    let base: string;
    let close: () => Promise<void>;
    const events = new CountingEvents();

    before(async () => {
      h = await openHarness(backend, {
        events,
        microsub: { heartbeatMs: 40, streams: { perToken: 2, total: 3, recheckMs: 30 } },
      });
      const server = serve({ fetch: h.app.fetch, hostname: '127.0.0.1', port: 0 });
      await new Promise<void>((resolve) => server.once('listening', () => resolve()));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      close = () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          if ('closeAllConnections' in server) server.closeAllConnections();
        });
    });
    after(async () => {
      await close();
      await h.close();
      await backend.cleanup();
    });

    async function open(token: string) {
      const abort = new AbortController();
      const response = await fetch(`${base}/microsub?action=events&access_token=${token}`, {
        headers: { accept: 'text/event-stream' },
        signal: abort.signal,
      });
      const next = response.body && response.status === 200 ? sseReader(response.body) : undefined;
      return { response, abort, next };
    }

    /** Reads events until the stream ends; what it read last. */
    async function untilEnd(next: () => Promise<SseEvent>): Promise<SseEvent[]> {
      const read: SseEvent[] = [];
      for (;;) {
        try {
          read.push(await next());
        } catch (error) {
          assert.match(String(error), /the stream ended/);
          return read;
        }
      }
    }

    async function idOf(store: Store, token: string): Promise<number> {
      const found = await store.accounts.findToken(hashToken(token));
      assert.ok(found);
      return found.id;
    }

    async function settled(count: number): Promise<void> {
      for (let i = 0; i < 200 && events.listening > count; i++) await new Promise((r) => setTimeout(r, 5));
      assert.equal(events.listening, count);
    }

    it('ends the streams of a token revoked here, and keeps the streams of other tokens', {
      timeout: 5_000,
    }, async () => {
      const revokedToken = await h.tokenWith(ALL_SCOPES);
      const keptToken = await h.tokenWith('read');
      const doomed = await open(revokedToken);
      const kept = await open(keptToken);
      assert.equal(doomed.response.status, 200);
      await doomed.next!();
      await kept.next!();
      await h.store.accounts.revokeToken(await idOf(h.store, revokedToken), h.clock.now().toISOString());
      const last = (await untilEnd(doomed.next!)).at(-1);
      assert.equal(last?.comment, 'the access token was revoked');
      // the other token's stream goes on
      assert.equal((await kept.next!()).comment, 'heartbeat');
      kept.abort.abort();
      await settled(0);
      // reconnecting with the revoked token is refused, as EventSource does after the stream ends
      assert.equal((await open(revokedToken)).response.status, 401);
    });

    it('ends the stream of a token revoked by another process (`tidings token revoke`)', {
      timeout: 5_000,
    }, async () => {
      const token = await h.tokenWith(ALL_SCOPES);
      const stream = await open(token);
      await stream.next!();
      const peer = await backend.openPeer(h.store);
      await peer.accounts.revokeToken(await idOf(peer, token), new Date().toISOString());
      const last = (await untilEnd(stream.next!)).at(-1);
      assert.equal(last?.comment, 'the access token was revoked');
      await settled(0);
    });

    it('caps streams per token (429) and in all (503), and frees a place when a stream closes', {
      timeout: 5_000,
    }, async () => {
      const [a, b, c] = [await h.tokenWith('read'), await h.tokenWith('read'), await h.tokenWith('read')];
      const first = await open(a);
      const second = await open(a);
      assert.deepEqual([first.response.status, second.response.status], [200, 200]);
      const third = await open(a);
      assert.equal(third.response.status, 429);
      const refusal = (await third.response.json()) as { error: string; error_description: string };
      assert.equal(refusal.error, 'too_many_requests');
      assert.match(refusal.error_description, /2 event streams open already/);
      const other = await open(b);
      assert.equal(other.response.status, 200);
      const full = await open(c);
      assert.equal(full.response.status, 503);
      assert.equal(full.response.headers.get('retry-after'), '30');
      assert.match(
        ((await full.response.json()) as { error_description: string }).error_description,
        /3 event streams/,
      );
      assert.equal(events.listening, 3);
      first.abort.abort();
      await settled(2);
      const again = await open(c);
      assert.equal(again.response.status, 200);
      for (const s of [second, other, again]) s.abort.abort();
      await settled(0);
    });

    it('answers HEAD with the headers and no stream: HEADs hold no place', { timeout: 5_000 }, async () => {
      const token = await h.tokenWith('read');
      for (let i = 0; i < 5; i++) {
        const head = await fetch(`${base}/microsub?action=events&access_token=${token}`, { method: 'HEAD' });
        assert.equal(head.status, 200);
        assert.equal(head.headers.get('content-type'), 'text/event-stream');
      }
      assert.equal(events.listening, 0);
      const stream = await open(token);
      assert.equal(stream.response.status, 200, 'the token still has both its places');
      stream.abort.abort();
      await settled(0);
    });
  });
}
