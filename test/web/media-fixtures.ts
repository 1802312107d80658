// Media RSS feeds for the web and browser tests (issue 16).

/** A YouTube channel feed as YouTube writes it: the video in media:group, no content of its own. */
export function youtubeFeed(thumbnail = 'https://i1.ytimg.com/vi/abc123/hqdefault.jpg'): string {
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
   <media:thumbnail url="${thumbnail}" width="480" height="360"/>
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
