// mute/unmute and block/unblock over HTTP, per channel and global: what they hide, and their lists.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { rss } from '../helpers/poll-harness.js';
import { storeBackends } from '../helpers/temp-store.js';
import { type Harness, item, openHarness } from './harness.js';

const RSS = 'application/rss+xml';

// An RSS feed whose items name an author by URL, the way mute and block rules match them.
function feedWithAuthors(items: { guid: string; minute: number; author: string }[]): string {
  const channel = items
    .map(({ guid, minute, author }) => {
      const base = item(guid, minute);
      return `<item><guid isPermaLink="false">${guid}</guid><title>${base.title}</title><pubDate>${base.pubDate}</pubDate>
        <author>someone@example.com (Someone)</author><atom:author><atom:name>A</atom:name><atom:uri>${author}</atom:uri></atom:author></item>`;
    })
    .join('\n');
  return `<?xml version="1.0"?><rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel><title>Mixed</title><link>https://mixed.example/</link>${channel}</channel></rss>`;
}

for (const backend of storeBackends()) {
  describe(`microsub mute and block (${backend.name})`, { skip: backend.skip }, () => {
    let h: Harness;
    let a: string;
    let b: string;
    const guidsOf = async (channel: string) =>
      ((await h.get({ action: 'timeline', channel })).body['items'] as { uid: string }[])
        .map((i) => i.uid)
        .sort();

    before(async () => {
      h = await openHarness(backend);
      a = (await h.post({ action: 'channels', name: 'A' })).body['uid'] as string;
      b = (await h.post({ action: 'channels', name: 'B' })).body['uid'] as string;
      h.docs['/mixed.xml'] = {
        body: feedWithAuthors([
          { guid: 'm1', minute: 1, author: 'https://loud.example/' },
          { guid: 'm2', minute: 2, author: 'https://quiet.example/' },
        ]),
        type: RSS,
      };
      h.docs['/other.xml'] = { body: rss([item('o1', 3)]), type: RSS };
      for (const channel of [a, b]) {
        await h.post({ action: 'follow', channel, url: h.url('/mixed.xml') });
        await h.post({ action: 'follow', channel, url: h.url('/other.xml') });
      }
    });

    after(async () => {
      await h.close();
      await backend.cleanup();
    });

    it('mutes an author in one channel only, lists it, and unmutes it', async () => {
      assert.deepEqual(await guidsOf(a), ['m1', 'm2', 'o1']);
      const muted = await h.post({ action: 'mute', channel: a, url: 'https://loud.example/' });
      assert.equal(muted.status, 200);
      assert.deepEqual(await guidsOf(a), ['m2', 'o1']);
      assert.deepEqual(await guidsOf(b), ['m1', 'm2', 'o1']);
      const list = await h.get({ action: 'mute', channel: a });
      assert.deepEqual(list.body['items'], [{ type: 'card', url: 'https://loud.example/' }]);
      assert.deepEqual((await h.get({ action: 'mute', channel: b })).body['items'], []);
      assert.equal(
        (await h.post({ action: 'unmute', channel: a, url: 'https://loud.example/' })).status,
        200,
      );
      assert.deepEqual(await guidsOf(a), ['m1', 'm2', 'o1']);
    });

    it('mutes globally (channel=global) in every channel', async () => {
      await h.post({ action: 'mute', channel: 'global', url: 'https://quiet.example/' });
      assert.deepEqual(await guidsOf(a), ['m1', 'o1']);
      assert.deepEqual(await guidsOf(b), ['m1', 'o1']);
      assert.deepEqual((await h.get({ action: 'mute', channel: 'global' })).body['items'], [
        { type: 'card', url: 'https://quiet.example/' },
      ]);
      assert.deepEqual(
        (await h.get({ action: 'mute', channel: a })).body['items'],
        [],
        'a channel lists its own rules',
      );
      await h.post({ action: 'unmute', channel: 'global', url: 'https://quiet.example/' });
      assert.deepEqual(await guidsOf(b), ['m1', 'm2', 'o1']);
    });

    it('blocks a whole feed by its URL in a channel, and globally without a channel', async () => {
      await h.post({ action: 'block', channel: a, url: h.url('/other.xml') });
      assert.deepEqual(await guidsOf(a), ['m1', 'm2']);
      assert.deepEqual(await guidsOf(b), ['m1', 'm2', 'o1']);
      assert.deepEqual((await h.get({ action: 'block', channel: a })).body['items'], [
        { type: 'card', url: h.url('/other.xml') },
      ]);
      await h.post({ action: 'unblock', channel: a, url: h.url('/other.xml') });
      await h.post({ action: 'block', url: 'https://loud.example/' });
      assert.deepEqual(await guidsOf(a), ['m2', 'o1']);
      assert.deepEqual(await guidsOf(b), ['m2', 'o1']);
      assert.deepEqual((await h.get({ action: 'block' })).body['items'], [
        { type: 'card', url: 'https://loud.example/' },
      ]);
      await h.post({ action: 'unblock', url: 'https://loud.example/' });
      assert.deepEqual(await guidsOf(b), ['m1', 'm2', 'o1']);
    });

    it('does not count muted entries as unread', async () => {
      await h.post({ action: 'mute', channel: a, url: 'https://loud.example/' });
      const channels = (await h.get({ action: 'channels' })).body['channels'] as {
        uid: string;
        unread: number;
      }[];
      assert.equal(channels.find((c) => c.uid === a)?.unread, 2);
      assert.equal(channels.find((c) => c.uid === b)?.unread, 3);
      await h.post({ action: 'unmute', channel: a, url: 'https://loud.example/' });
    });

    it('refuses a rule without a URL, and unknown channels', async () => {
      assert.equal((await h.post({ action: 'mute', channel: a })).status, 400);
      assert.equal((await h.post({ action: 'block', channel: a, url: 'not a url' })).status, 400);
      assert.equal(
        (await h.post({ action: 'mute', channel: 'nope', url: 'https://x.example/' })).status,
        404,
      );
      assert.equal((await h.get({ action: 'unmute', channel: a })).status, 400);
    });
  });
}
