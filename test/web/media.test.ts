import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { toJf2 } from '../../src/microsub/jf2.js';
import type { Channel } from '../../src/model/stored.js';
import { send, startServer, type TestServer } from '../helpers/http-server.js';
import { type Client, signedIn, type WebHarness, webHarness } from './harness.js';
import { podcastFeed, youtubeFeed } from './media-fixtures.js';

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
    });
    client = await signedIn(h.app);
    await client.post('/subscriptions/follow', {
      url: `${server.url}/yt.xml`,
      channel: '',
      new_channel: 'Watch',
    });
    channel = (await h.store.listChannels()).find((ch) => ch.name === 'Watch') as Channel;
    await client.post('/subscriptions/follow', { url: `${server.url}/pod.xml`, channel: channel.uid });
  });
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
    const { entries } = await h.store.timeline({ channelId: channel.id, limit: 10 });
    const video = entries.find((e) => e.title === 'Building a boat');
    const episode = entries.find((e) => e.title === 'Episode 1');
    assert.ok(video && episode);
    assert.deepEqual(toJf2(video, video.feed).photo, ['https://i1.ytimg.com/vi/abc123/hqdefault.jpg']);
    assert.deepEqual(toJf2(episode, episode.feed).audio, [`${server.url}/ep1.mp3`]);
  });
});
