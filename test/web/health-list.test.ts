import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Channel } from '../../src/model/stored.js';
import { type Client, signedIn, type WebHarness, webHarness } from './harness.js';

// What the paged health list shows of many feeds: the counts over every feed, and which feeds a filtered,
// sorted page holds. Feeds "Feed 000" to "Feed 129": the even ones in channel Even, the odd ones in Odd;
// every tenth fails to fetch, with (n / 10) errors. Besides them: a paused, a new, a silent and a broken
// feed, and four whose titles sort differently by locale than by code point (in Words).

const NUMBERED = 130;
const name = (n: number) => `Feed ${String(n).padStart(3, '0')}`;
const rowsOf = (text: string) =>
  [...text.matchAll(/<tr data-feed="\d+" data-health="[a-z_]+">\s*<td>\s*<a [^>]*>([^<]+)<\/a>/g)].map(
    (m) => m[1],
  );

describe('web: the feed health list, filtered, sorted and paged', () => {
  let h: WebHarness;
  let client: Client;
  let even: Channel;
  let words: Channel;

  before(async () => {
    h = await webHarness();
    client = await signedIn(h.app);
    const now = h.clock.now();
    const iso = now.toISOString();
    even = await h.store.channels.create('Even');
    const odd = await h.store.channels.create('Odd');
    words = await h.store.channels.create('Words');
    const follow = async (
      channel: Channel,
      url: string,
      patch: Parameters<typeof h.store.feeds.update>[1],
    ) => {
      const feed = await h.store.feeds.add(url, iso);
      await h.store.channels.subscribe(channel.id, feed.id, iso);
      await h.store.feeds.update(feed.id, patch);
    };
    for (let n = 0; n < NUMBERED; n++) {
      const failing = n % 10 === 0;
      await follow(n % 2 === 0 ? even : odd, `https://feed-${n}.example/feed.xml`, {
        title: name(n),
        status: failing ? 'fetch_error' : 'ok',
        message: failing ? 'HTTP 503 Service Unavailable' : '3 entries (rss20)',
        errorCount: failing ? n / 10 : 0,
        lastCheckedAt: iso,
      });
    }
    await follow(odd, 'https://paused.example/feed.xml', {
      title: 'Paused feed',
      status: 'ok',
      paused: true,
    });
    await follow(odd, 'https://new.example/feed.xml', { title: 'New feed' });
    const tenDaysAgo = new Date(now.getTime() - 10 * 86_400_000).toISOString();
    await follow(odd, 'https://silent.example/feed.xml', {
      title: 'Silent feed',
      status: 'ok',
      lastNewEntryAt: tenDaysAgo,
      cadenceSeconds: 3600,
    });
    await follow(odd, 'https://broken.example/feed.xml', {
      title: 'Broken feed',
      status: 'parse_error',
      message: 'xml: unclosed tag <channel>',
    });
    for (const title of ['zebra', 'Élan', 'apple', 'Banana'])
      await follow(words, `https://${encodeURIComponent(title)}.example/feed.xml`, { title, status: 'ok' });
  });
  after(() => h.close());

  it('counts every feed by health, whatever the page shows', async () => {
    const page = await client.get(`/feeds?channel=${even.uid}&page=2`);
    assert.match(page.text, /138 feeds:/);
    const counts = Object.fromEntries(
      [...page.text.matchAll(/href="\/feeds\?status=([a-z_]+)"><span[^>]*>[^<]*<\/span> (\d+)<\/a>/g)].map(
        (m) => [m[1], Number(m[2])],
      ),
    );
    assert.deepEqual(counts, {
      fetch_error: 13,
      parse_error: 1,
      silent: 1,
      new: 1,
      paused: 1,
      ok: 121,
    });
  });

  it('pages a channel worst first, then by title', async () => {
    const first = await client.get(`/feeds?channel=${even.uid}`);
    assert.match(first.text, /65 of 138 feeds match, page 1 of 2/);
    const failing = Array.from({ length: 13 }, (_, i) => name(i * 10));
    const fine = Array.from({ length: 65 }, (_, i) => i * 2)
      .filter((n) => n % 10 !== 0)
      .map(name);
    assert.deepEqual(rowsOf(first.text), [...failing, ...fine.slice(0, 37)]);
    const second = await client.get(`/feeds?channel=${even.uid}&page=2`);
    assert.deepEqual(rowsOf(second.text), fine.slice(37));
    assert.match(second.text, new RegExp(`<a rel="prev" href="/feeds\\?channel=${even.uid}">`));
    // beyond the last page: the last page
    const beyond = await client.get(`/feeds?channel=${even.uid}&page=9`);
    assert.deepEqual(rowsOf(beyond.text), fine.slice(37));
  });

  it('filters by status and channel, sorts by errors, and pages', async () => {
    const fine = await client.get(`/feeds?channel=${even.uid}&status=ok&sort=errors&page=2`);
    assert.match(fine.text, /52 of 138 feeds match, page 2 of 2/);
    assert.deepEqual(rowsOf(fine.text), [name(126), name(128)]);
    const failing = await client.get('/feeds?status=fetch_error&sort=errors');
    assert.deepEqual(
      rowsOf(failing.text),
      Array.from({ length: 13 }, (_, i) => name((12 - i) * 10)),
    );
  });

  it('shows paused, new, silent and broken feeds by their health', async () => {
    for (const [status, title] of [
      ['paused', 'Paused feed'],
      ['new', 'New feed'],
      ['silent', 'Silent feed'],
      ['parse_error', 'Broken feed'],
    ] as const) {
      const page = await client.get(`/feeds?status=${status}`);
      assert.deepEqual(rowsOf(page.text), [title], status);
      assert.match(page.text, new RegExp(`data-health="${status}"`));
    }
  });

  it('sorts titles as people read them and finds text whatever its case', async () => {
    const byTitle = await client.get(`/feeds?channel=${words.uid}&sort=title`);
    assert.deepEqual(rowsOf(byTitle.text), ['apple', 'Banana', 'Élan', 'zebra']);
    const found = await client.get(`/feeds?q=${encodeURIComponent('éLAN')}`);
    assert.deepEqual(rowsOf(found.text), ['Élan']);
    const byMessage = await client.get(`/feeds?q=UNCLOSED`);
    assert.deepEqual(rowsOf(byMessage.text), ['Broken feed']);
  });

  // last, since it adds a feed to the counts the tests above read
  it('counts an unfollowed feed and lists it after every followed one, to an admin looking at every feed', async () => {
    const iso = h.clock.now().toISOString();
    const feed = await h.store.feeds.add('https://left.example/feed.xml', iso);
    await h.store.channels.subscribe(words.id, feed.id, iso);
    await h.store.feeds.update(feed.id, { title: 'Aardvark (left)', status: 'ok' });
    await h.store.channels.unsubscribe(words.id, feed.id);
    await h.store.feeds.sweepUnfollowed(iso, 30);
    // nobody follows it: not among the admin's own feeds
    assert.deepEqual(rowsOf((await client.get('/feeds?status=unfollowed')).text), []);
    const only = await client.get('/feeds?all=1&status=unfollowed');
    assert.deepEqual(rowsOf(only.text), ['Aardvark (left)']);
    // it is not polled: no next check, on the list and on its own page
    assert.match(only.text, /data-label="Next check">never<\/td>/);
    const own = await client.get(`/feeds/${feed.id}`);
    assert.match(own.text, /Never: no channel follows it \(it is forgotten 30 days after\)/);
    assert.match(only.text, /href="\/feeds\?all=1&amp;status=unfollowed"><span[^>]*>[^<]*<\/span> 1<\/a>/);
    const last = await client.get('/feeds?all=1&page=3');
    assert.match(last.text, /139 feeds:/);
    assert.equal(rowsOf(last.text).at(-1), 'Aardvark (left)');
  });

  it('shows no feed for an unknown channel', async () => {
    const page = await client.get('/feeds?channel=no-such-channel');
    assert.match(page.text, /No feed matches these filters/);
    assert.deepEqual(rowsOf(page.text), []);
  });
});
