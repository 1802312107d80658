// action=events: server-sent events from a real server (@hono/node-server on 127.0.0.1:0) read with
// fetch, as a browser's EventSource would: new entries and unread counts arrive when a poll finds new
// entries, and counts when entries are read through any front end; heartbeats keep the stream open;
// listeners go when the client disconnects.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { serve } from '@hono/node-server';
import { PollEvents } from '../../src/poll/events.js';
import { changeEntries } from '../../src/reading/entry-state.js';
import { rss } from '../helpers/poll-harness.js';
import { nextNamed, sseReader } from '../helpers/sse-reader.js';
import { storeBackends } from '../helpers/temp-store.js';
import { type Harness, item, openHarness } from './harness.js';

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
  describe(`microsub events (${backend.name})`, { skip: backend.skip }, () => {
    let h: Harness;
    let base: string;
    let close: () => Promise<void>;
    const events = new CountingEvents();

    before(async () => {
      h = await openHarness(backend, { events, microsub: { heartbeatMs: 50 } });
      const server = serve({ fetch: h.app.fetch, hostname: '127.0.0.1', port: 0 });
      await new Promise<void>((resolve) => server.once('listening', () => resolve()));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      close = () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          // idle keep-alive connections of fetch would hold close() for seconds
          if ('closeAllConnections' in server) server.closeAllConnections();
        });
    });

    after(async () => {
      await close();
      await h.close();
      await backend.cleanup();
    });

    async function open(token = h.token) {
      const abort = new AbortController();
      const response = await fetch(`${base}/microsub?action=events`, {
        headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
        signal: abort.signal,
      });
      return { response, abort, next: response.body ? sseReader(response.body) : undefined };
    }

    it('sends new items and the new unread count when a poll finds new entries', async () => {
      const uid = (await h.post({ action: 'channels', name: 'Live' })).body['uid'] as string;
      h.docs['/live.xml'] = { body: rss([item('l1', 1)]), type: 'application/rss+xml' };
      await h.post({ action: 'follow', channel: uid, url: h.url('/live.xml') });
      const { response, abort, next } = await open();
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /text\/event-stream/);
      assert.equal(response.headers.get('access-control-allow-origin'), '*');
      const first = await next!();
      assert.ok(first.comment !== undefined, 'a comment opens the stream');
      h.docs['/live.xml'] = { body: rss([item('l1', 1), item('l2', 2)]), type: 'application/rss+xml' };
      await h.poll(h.url('/live.xml'));
      const newItem = JSON.parse((await nextNamed(next!, 'new-item')).data) as {
        channel: string;
        item: { uid: string; _id: string; _source: string };
      };
      assert.equal(newItem.channel, uid);
      assert.equal(newItem.item.uid, 'l2');
      assert.equal(typeof newItem.item._id, 'string');
      const change = JSON.parse((await nextNamed(next!, 'change-channel')).data) as {
        channel: { uid: string; unread: number };
      };
      assert.deepEqual(change.channel, { uid, name: 'Live', unread: 2 });
      // marking read through the endpoint updates the count on the stream too
      await h.post({ action: 'timeline', method: 'mark_read', channel: uid, entry: newItem.item._id });
      const afterRead = JSON.parse((await nextNamed(next!, 'change-channel')).data) as {
        channel: { unread: number };
      };
      assert.equal(afterRead.channel.unread, 1);
      abort.abort();
    });

    it('sends the new unread count when entries are read through the web UI or the apps', {
      timeout: 20_000,
    }, async () => {
      const uid = (await h.post({ action: 'channels', name: 'Elsewhere' })).body['uid'] as string;
      h.docs['/elsewhere.xml'] = {
        body: rss([item('w1', 1), item('w2', 2), item('w3', 3)]),
        type: 'application/rss+xml',
      };
      await h.post({ action: 'follow', channel: uid, url: h.url('/elsewhere.xml') });
      await h.poll(h.url('/elsewhere.xml'));
      const channel = (await h.store.channels.get(uid))!;
      const [first, second] = (await h.store.reading.timeline({ channelId: channel.id, limit: 10 })).entries;
      const { abort, next } = await open();
      await next!();
      /** The next unread count announced for this channel (a change of every channel names them all). */
      const unread = async () => {
        for (;;) {
          const { channel: c } = JSON.parse((await nextNamed(next!, 'change-channel')).data) as {
            channel: { uid: string; unread: number };
          };
          if (c.uid === uid) return c.unread;
        }
      };
      // the web UI marks read in a channel
      await h.store.reading.markRead(channel.id, [first!.id], true, new Date().toISOString());
      assert.equal(await unread(), 2);
      // the Google Reader and Fever APIs mark read everywhere
      await changeEntries(h.store, [second!.id], 'read', new Date());
      assert.equal(await unread(), 1);
      abort.abort();
    });

    it('leaves out entries muted in the channel', async () => {
      const uid = (await h.post({ action: 'channels', name: 'Muted live' })).body['uid'] as string;
      h.docs['/muted.xml'] = { body: rss([item('q1', 1)]), type: 'application/rss+xml' };
      await h.post({ action: 'follow', channel: uid, url: h.url('/muted.xml') });
      await h.post({ action: 'mute', channel: uid, url: h.url('/muted.xml') });
      const { abort, next } = await open();
      h.docs['/muted.xml'] = { body: rss([item('q1', 1), item('q2', 2)]), type: 'application/rss+xml' };
      await h.poll(h.url('/muted.xml'));
      const change = await nextNamed(next!, 'change-channel');
      assert.equal((JSON.parse(change.data) as { channel: { unread: number } }).channel.unread, 0);
      abort.abort();
    });

    it('sends a heartbeat comment while nothing happens', async () => {
      const { abort, next } = await open();
      await next!();
      const beat = await next!();
      assert.equal(beat.comment, 'heartbeat');
      abort.abort();
    });

    it('stops listening when the client disconnects', async () => {
      await settled(0);
      const { abort, next } = await open();
      await next!();
      assert.equal(events.listening, 1);
      abort.abort();
      await settled(0);
      assert.equal(events.listening, 0);
    });

    /** Waits (a bounded number of turns) for the streams of earlier requests to be cleaned up. */
    async function settled(count: number): Promise<void> {
      for (let i = 0; i < 200 && events.listening > count; i++) await new Promise((r) => setTimeout(r, 5));
    }

    it('needs the read scope', async () => {
      const { response, abort } = await open(await h.tokenWith('follow'));
      assert.equal(response.status, 403);
      abort.abort();
    });
  });
}
