/** A channel and its feeds, as written to OPML. */
export interface OpmlChannel {
  name: string;
  feeds: { xmlUrl: string; title?: string; htmlUrl?: string }[];
}

/** Writes an OPML 2.0 subscription list: one outline folder per channel, one outline per feed. */
export function writeOpml(channels: readonly OpmlChannel[], options: { title: string; now: string }): string {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<opml version="2.0">',
    '  <head>',
    `    <title>${escapeXml(options.title)}</title>`,
    `    <dateCreated>${new Date(options.now).toUTCString()}</dateCreated>`,
    '  </head>',
    '  <body>',
  ];
  for (const channel of channels) {
    lines.push(`    <outline text="${escapeXml(channel.name)}" title="${escapeXml(channel.name)}">`);
    for (const feed of channel.feeds) {
      const title = feed.title ?? feed.xmlUrl;
      const html = feed.htmlUrl ? ` htmlUrl="${escapeXml(feed.htmlUrl)}"` : '';
      lines.push(
        `      <outline type="rss" text="${escapeXml(title)}" title="${escapeXml(title)}" xmlUrl="${escapeXml(feed.xmlUrl)}"${html}/>`,
      );
    }
    lines.push('    </outline>');
  }
  lines.push('  </body>', '</opml>', '');
  return lines.join('\n');
}

function escapeXml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');
}
