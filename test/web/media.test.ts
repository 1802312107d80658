import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { toJf2 } from '../../src/microsub/jf2.js';
import type { Channel } from '../../src/model/stored.js';
import { send, startServer, type TestServer } from '../helpers/http-server.js';
import { type Client, signedIn, type WebHarness, webHarness } from './harness.js';
import { mediaVariantsFeed, podcastFeed, youtubeFeed } from './media-fixtures.js';

describe('web: media in entries', () => {
  let h: WebHarness;
  let server: TestServer;
  let client: Client;
  let channel: Channel;

  before(async () => {
    h = await webHarness();
    server = await startServer({
      '/yt.xml': (_req, res) => send(res, 200, youtubeFeed(), { 'content-type': 'application/atom+xml' }),
      '/pod.xml': (_req, res) =>
        send(res, 200, podcastFeed(server.url), { 'content-type': 'application/rss+xml' }),
      '/variants.xml': (_req, res) =>
        send(res, 200, mediaVariantsFeed(server.url), { 'content-type': 'application/rss+xml' }),
    });
    client = await signedIn(h.app);
    await client.post('/subscriptions/follow', {
      url: `${server.url}/yt.xml`,
      channel: '',
      new_channel: 'Watch',
    });
    channel = (await h.store.channels.list()).find((ch) => ch.name === 'Watch') as Channel;
    await client.post('/subscriptions/follow', { url: `${server.url}/pod.xml`, channel: channel.uid });
    await client.post('/subscriptions/follow', { url: `${server.url}/variants.xml`, channel: 'Variants' });
  });

  /** The HTML of one entry of the Variants channel, by guid, as its river shows it. */
  async function entryHtml(guid: string): Promise<string> {
    const variants = (await h.store.channels.list()).find((ch) => ch.name === 'Variants') as Channel;
    const { entries } = await h.store.reading.timeline({ channelId: variants.id, limit: 20 });
    const id = entries.find((e) => e.guid === guid)?.id;
    assert.ok(id, guid);
    const page = await client.get(`/c/${variants.uid}`);
    const start = page.text.indexOf(`<article class="entry" data-entry="${id}"`);
    assert.ok(start >= 0);
    return page.text.slice(start, page.text.indexOf('</article>', start));
  }
  after(async () => {
    await server.close();
    await h.close();
  });

  it("shows a YouTube entry's thumbnail and description", async () => {
    const page = await client.get(`/c/${channel.uid}`);
    assert.match(
      page.text,
      /<p class="media-thumbnail"><img loading="lazy" src="https:\/\/i1\.ytimg\.com\/vi\/abc123\/hqdefault\.jpg" alt=""\/?><\/p>/,
    );
    assert.match(page.text, /<p class="entry-content text" dir="auto">Planks, glue and patience\.<\/p>/);
    // the Flash player page is no player
    assert.doesNotMatch(page.text, /youtube\.com\/v\/abc123/);
  });

  it('plays an enclosure: an audio element that loads nothing before play, with duration and size', async () => {
    const page = await client.get(`/c/${channel.uid}`);
    const src = `${server.url}/ep1.mp3`.replaceAll('.', '\\.');
    assert.match(page.text, new RegExp(`<audio controls="" preload="none" src="${src}"></audio>`));
    assert.match(page.text, /audio\/mpeg · 1:02:03 · 11\.8 MB/);
  });

  it('gives Microsub clients the thumbnail as photo and the enclosure as audio', async () => {
    const { entries } = await h.store.reading.timeline({ channelId: channel.id, limit: 10 });
    const video = entries.find((e) => e.title === 'Building a boat');
    const episode = entries.find((e) => e.title === 'Episode 1');
    assert.ok(video && episode);
    assert.deepEqual(toJf2(video, video.feed).photo, ['https://i1.ytimg.com/vi/abc123/hqdefault.jpg']);
    assert.deepEqual(toJf2(episode, episode.feed).audio, [`${server.url}/ep1.mp3`]);
  });

  it('shows a picture given at two sizes once, at the larger size', async () => {
    const html = await entryHtml('guardian');
    const pictures = [...html.matchAll(/<img [^>]*src="([^"]+)"/g)].map((m) => m[1]);
    assert.equal(pictures.length, 1, pictures.join(' '));
    assert.match(pictures[0] ?? '', /5000\.jpg\?width=460&amp;/);
  });

  it('leaves out a featured image that the content shows already at another size', async () => {
    const html = await entryHtml('wordpress');
    const pictures = [...html.matchAll(/<img [^>]*src="([^"]+)"/g)].map((m) => m[1]);
    assert.deepEqual(pictures, [`${server.url}/img/uploads/harbour-1024x683.jpg`]);
  });

  it('plays no YouTube page as a video: its thumbnail stands for it', async () => {
    const html = await entryHtml('embed');
    assert.doesNotMatch(html, /<video/);
    assert.doesNotMatch(html, /youtube\.com\/embed/);
    assert.match(html, /<p class="media-thumbnail"><img loading="lazy" src="[^"]+\/img\/yt-thumb\.jpg"/);
  });

  it('shows no placeholder length as a size', async () => {
    const episode = await entryHtml('pod');
    assert.match(episode, /<audio controls="" preload="none" src="[^"]+\/media\/episode\.mp3">/);
    assert.match(episode, /episode\.mp3<\/a> · audio\/mpeg · 42:00<\/figcaption>/);
    const clip = await entryHtml('clip');
    assert.match(clip, /clip\.mp4<\/a> · video\/mp4<\/figcaption>/);
  });
});
