import { FOLDER_SEPARATOR } from './read.js';

/** A channel and its feeds, as written to OPML. */
export interface OpmlChannel {
  /** "Parent / Child" names are written as nested outlines. */
  name: string;
  feeds: { xmlUrl: string; title?: string; htmlUrl?: string }[];
}

/** An outline folder: its feeds, then its sub-folders, in the order first met. */
interface Folder {
  name: string;
  feeds: OpmlChannel['feeds'];
  folders: Folder[];
}

/**
 * Writes an OPML 2.0 subscription list: one outline folder per channel, one outline per feed; a channel
 * named "A / B" is folder B inside folder A, so that readOpml gives the same channel names back.
 */
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
  for (const folder of folderTree(channels).folders) writeFolder(folder, '    ', lines);
  lines.push('  </body>', '</opml>', '');
  return lines.join('\n');
}

function folderTree(channels: readonly OpmlChannel[]): Folder {
  const root: Folder = { name: '', feeds: [], folders: [] };
  for (const channel of channels) {
    let folder = root;
    for (const part of channel.name.split(FOLDER_SEPARATOR)) {
      let next = folder.folders.find((f) => f.name === part);
      if (!next) {
        next = { name: part, feeds: [], folders: [] };
        folder.folders.push(next);
      }
      folder = next;
    }
    folder.feeds.push(...channel.feeds);
  }
  return root;
}

function writeFolder(folder: Folder, indent: string, lines: string[]): void {
  lines.push(`${indent}<outline text="${escapeXml(folder.name)}" title="${escapeXml(folder.name)}">`);
  for (const feed of folder.feeds) {
    const title = feed.title ?? feed.xmlUrl;
    const html = feed.htmlUrl ? ` htmlUrl="${escapeXml(feed.htmlUrl)}"` : '';
    lines.push(
      `${indent}  <outline type="rss" text="${escapeXml(title)}" title="${escapeXml(title)}" xmlUrl="${escapeXml(feed.xmlUrl)}"${html}/>`,
    );
  }
  for (const child of folder.folders) writeFolder(child, `${indent}  `, lines);
  lines.push(`${indent}</outline>`);
}

function escapeXml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');
}
