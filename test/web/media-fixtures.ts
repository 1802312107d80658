// Media RSS feeds for the web and browser tests (issue 16).

const cdataOf = (html: string) => `<![CDATA[${html}]]>`;

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

/**
 * The media of real feeds that showed badly (issue 22), each item linking to /story/NAME of `base`: a
 * podcast with a placeholder length of 1, a video with length 0, the Guardian's one picture at 140 and 460
 * px, a WordPress featured image the content shows at another size, and a YouTube page given as a video.
 */
export function mediaVariantsFeed(base: string): string {
  // the Guardian gives each story's picture twice, 140 and 460 wide, as two media:content
  const guardian = (width: number) =>
    `${base}/img/master/5000.jpg?width=${width}&amp;quality=85&amp;auto=format&amp;fit=max&amp;s=abc${width}`;
  return `<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel>
<title>Media site</title><link>${base}/</link>
<item><guid>pod</guid><title>An episode</title><link>${base}/story/pod</link><description>Talk.</description>
<pubDate>Tue, 20 Jan 2026 12:00:00 GMT</pubDate>
<enclosure url="${base}/media/episode.mp3" length="1" type="audio/mpeg"/><itunes:duration>42:00</itunes:duration></item>
<item><guid>clip</guid><title>A clip</title><link>${base}/story/clip</link><description>Moving pictures.</description>
<pubDate>Tue, 20 Jan 2026 11:00:00 GMT</pubDate>
<enclosure url="${base}/media/clip.mp4" length="0" type="video/mp4"/></item>
<item><guid>guardian</guid><title>A picture at two sizes</title><link>${base}/story/guardian</link>
<description>${cdataOf('<p>The story, with its picture below.</p>')}</description>
<pubDate>Tue, 20 Jan 2026 10:00:00 GMT</pubDate>
<media:content width="140" url="${guardian(140)}"/><media:content width="460" url="${guardian(460)}"/></item>
<item><guid>wordpress</guid><title>A featured image</title><link>${base}/story/wordpress</link>
<description>${cdataOf(`<p>Text.</p><img src="${base}/img/uploads/harbour-1024x683.jpg" width="1024" height="683" alt="">`)}</description>
<pubDate>Tue, 20 Jan 2026 09:00:00 GMT</pubDate>
<media:content url="${base}/img/uploads/harbour.jpg" medium="image"/></item>
<item><guid>embed</guid><title>A video on YouTube</title><link>${base}/story/embed</link><description>Watch it there.</description>
<pubDate>Tue, 20 Jan 2026 08:00:00 GMT</pubDate>
<media:content url="https://www.youtube.com/embed/abc123" medium="video"/>
<media:thumbnail url="${base}/img/yt-thumb.jpg"/></item>
</channel></rss>`;
}
