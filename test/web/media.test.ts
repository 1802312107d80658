import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { toJf2 } from '../../src/microsub/jf2.js';
import type { Channel } from '../../src/model/stored.js';
import { send, startServer, type TestServer } from '../helpers/http-server.js';
import { type Client, signedIn, type WebHarness, webHarness } from './harness.js';

/** A YouTube channel feed as YouTube writes it: the video in media:group, no content of its own. */
export function youtubeFeed(): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns:yt="http://www.youtube.com/xml/schemas/2015" xmlns:media="http://search.yahoo.com/mrss/" xmlns="http://www.w3.org/2005/Atom">
 <title>A video channel</title>
 <link rel="alternate" href="https://www.youtube.com/channel/UC1"/>
 <entry>
  <id>yt:video:abc123</id>
  <title>Building a boat</title>
  <link rel="alternate" href="https://www.youtube.com/watch?v=abc123"/>
  <published>2026-11-20T10:00:00+00:00</published>
  <media:group>
   <media:title>Building a boat</media:title>
   <media:content url="https://www.youtube.com/v/abc123?version=3" type="application/x-shockwave-flash" width="640" height="390"/>
   <media:thumbnail url="https://i1.ytimg.com/vi/abc123/hqdefault.jpg" width="480" height="360"/>
   <media:description>Planks, glue and patience.</media:description>
  </media:group>
 </entry>
</feed>`;
}

/** A podcast: one episode with an MP3 enclosure, its length and iTunes duration; an Atom entry dated only by updated. */
export function podcastFeed(base: string): string {
  return `<?xml version="1.0"?>
<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>A podcast</title><link>${base}/</link>
<item><guid>ep1</guid><title>Episode 1</title><link>${base}/ep1</link><description>Talk.</description>
<pubDate>Thu, 19 Nov 2026 10:00:00 GMT</pubDate>
<enclosure url="${base}/ep1.mp3" length="12345678" type="audio/mpeg"/><itunes:duration>1:02:03</itunes:duration></item>
</channel></rss>`;
}

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
    assert.match(page.text, /<p class="entry-content text">Planks, glue and patience\.<\/p>/);
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
