import type { Context } from 'hono';
import { safeLinkUrl } from '../model/index.js';
import type { AppFeeds } from '../reading/index.js';
import type { SyncEntry } from '../store/index.js';
import type { GReaderDeps } from './deps.js';
import {
  feedStreamId,
  labelStreamId,
  longItemId,
  parseStreamId,
  READ,
  READING_LIST,
  STARRED,
} from './ids.js';
import { safeEnclosures, siteUrlOf } from './items.js';
import { streamPage, streamTitle } from './stream-routes.js';

// The Atom stream, /reader/atom/<stream id>, as Google Reader served it and terminal clients (newsboat's
// FeedHQ and Inoreader modes: /reader/atom/feed%2F<id>?n=20) still read it: an Atom feed with the
// gr: namespace, entries whose id is the long item id (the guid in gr:original-id), the entry's read,
// starred and folder state as categories in Google's scheme, its feed as <source gr:stream-id>, and
// gr:continuation when more remain. The same parameters (n, c, r, xt, it, ot, nt) and paging as
// stream/contents (stream-routes.ts).

const ATOM_PATH = '/reader/atom/';
const GOOGLE_SCHEME = 'http://www.google.com/reader/';
const TAG = 'tag:google.com,2005:reader/';

/** GET /reader/atom[/<stream id>]: a page of a stream as Atom. */
export async function atomStream(c: Context, deps: GReaderDeps): Promise<Response> {
  const page = await streamPage(c, deps, ATOM_PATH);
  const self = new URL(c.req.url);
  const feedId = parseStreamId(page.streamId);
  const feed = feedId.kind === 'feed' ? page.entries[0]?.feed : undefined;
  const lines = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom" xmlns:gr="http://www.google.com/schemas/reader/atom/"' +
      ' xmlns:idx="urn:atom-extension:indexing" idx:index="no" gr:dir="ltr">',
    '<generator>tidings</generator>',
    `<id>${xml(TAG + page.streamId)}</id>`,
    `<title>${xml(streamTitle(page))}</title>`,
    ...(page.continuation ? [`<gr:continuation>${page.continuation}</gr:continuation>`] : []),
    `<link rel="self" href="${xml(self.href)}"/>`,
    ...(feed ? [`<link rel="alternate" href="${xml(siteUrlOf(feed))}" type="text/html"/>`] : []),
    `<updated>${deps.now().toISOString()}</updated>`,
    ...page.entries.map((entry) => atomEntry(entry, page.folders)),
    '</feed>',
  ];
  return c.body(lines.join('\n'), 200, { 'content-type': 'application/atom+xml; charset=utf-8' });
}

function category(term: string, label: string): string {
  return `<category term="${xml(term)}" scheme="${GOOGLE_SCHEME}" label="${xml(label)}"/>`;
}

/** One entry as Google Reader's Atom wrote it; titles as HTML (type="html"), as Google did. */
function atomEntry(entry: SyncEntry, folders: AppFeeds['foldersOf']): string {
  const published = entry.published ?? entry.sortAt;
  const url = safeLinkUrl(entry.url);
  const site = siteUrlOf(entry.feed);
  const content = entry.contentHtml ?? entry.summary ?? '';
  const author = entry.authors[0]?.name;
  const feedTitle = entry.feed.title ?? entry.feed.url;
  const parts = [
    `<entry gr:crawl-timestamp-msec="${Date.parse(entry.firstSeenAt)}">`,
    `<id gr:original-id="${xml(entry.guid)}">${longItemId(entry.id)}</id>`,
    category(READING_LIST, 'reading-list'),
    ...(folders.get(entry.feedId) ?? []).map((f) => category(labelStreamId(f.name), f.name)),
    ...(entry.isRead ? [category(READ, 'read')] : []),
    ...(entry.isSaved ? [category(STARRED, 'starred')] : []),
    ...entry.categories.map((term) => `<category term="${xml(term)}"/>`),
    `<title type="html">${xml(html(entry.title ?? ''))}</title>`,
    `<published>${published}</published>`,
    `<updated>${entry.updated ?? published}</updated>`,
    ...(url ? [`<link rel="alternate" href="${xml(url)}" type="text/html"/>`] : []),
    ...safeEnclosures(entry).map(
      (e) =>
        `<link rel="enclosure" href="${xml(e.href)}"${e.type ? ` type="${xml(e.type)}"` : ''}` +
        `${e.length && /^\d+$/.test(e.length) ? ` length="${e.length}"` : ''}/>`,
    ),
    `<content xml:base="${xml(site)}" type="html">${xml(content)}</content>`,
    ...(author ? [`<author><name>${xml(author)}</name></author>`] : []),
    `<source gr:stream-id="${feedStreamId(entry.feedId)}">`,
    `<id>${TAG}${feedStreamId(entry.feedId)}</id>`,
    `<title type="html">${xml(html(feedTitle))}</title>`,
    `<link rel="alternate" href="${xml(site)}" type="text/html"/>`,
    '</source>',
    '</entry>',
  ];
  return parts.join('');
}

// Characters XML 1.0 does not allow at all (C0 controls but tab and newlines, lone surrogates,
// U+FFFE/U+FFFF): a feed's text may hold them, a well-formed answer may not.
const NOT_XML =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text for XML character data and attribute values. */
function xml(text: string): string {
  return text
    .replace(NOT_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** Plain text as HTML (a title Google marked type="html"). */
function html(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
