import { hash } from 'node:crypto';
import { htmlToText } from '../html/index.js';
import type { Diagnostic } from '../model/index.js';
import { type Entry, MF2_PROPERTIES, type ParseResult, type Person, toEntryMedia } from '../model/index.js';
import type { NewEntry } from '../store/index.js';
import { urlKey } from './url-key.js';

// PostgreSQL refuses btree index entries over ~2.7 kB: longer guids are stored as their hash.
const MAX_GUID_LENGTH = 512;
// A date further ahead than this is a mistake (a wrong year, a wrong zone): it is kept as written but
// does not decide the entry's place in timelines.
const FUTURE_SLACK_MS = 24 * 3600 * 1000;

/** An entry of the parsed document with its identity and content hash, before it is compared with the store. */
export interface ParsedItem {
  index: number;
  guid: string;
  urlKey: string | undefined;
  contentHash: string;
  entry: Entry;
  /**
   * For an entry whose guid another, different entry of the document shares: the shared guid and this
   * entry's own form of it (the guid plus a hash of its link and title). Which entry has the bare guid is
   * settled against what is stored (diff.ts), not by order: entries that swap places keep their rows.
   */
  shared?: { base: string; own: string };
}

function sha256(text: string): string {
  return hash('sha256', text, 'hex');
}

/**
 * Identity and hash of every entry. A guid repeated inside one document by a different entry: the first
 * keeps it and each later one gets the guid plus a hash of its link and title, so nothing is lost; all
 * of them carry `shared`, with which the diff gives the bare guid to the entry stored under it.
 */
export function identifyEntries(entries: readonly Entry[], diagnostics: Diagnostic[]): ParsedItem[] {
  const seen = new Map<string, string>();
  const firsts = new Map<string, ParsedItem>();
  const items: ParsedItem[] = [];
  const ownGuid = (base: string, entry: Entry) =>
    `${base}#${sha256(`${entry.link ?? ''}\u0000${entry.title ?? ''}`).slice(0, 12)}`;
  entries.forEach((entry, index) => {
    let guid = entry.id ?? entry.link ?? '';
    if (guid.length > MAX_GUID_LENGTH) guid = `sha256:${sha256(guid)}`;
    const contentHash = hashEntry(entry);
    const earlier = seen.get(guid);
    if (earlier === contentHash) return;
    let shared: ParsedItem['shared'];
    if (earlier !== undefined) {
      const base = guid;
      guid = ownGuid(base, entry);
      shared = { base, own: guid };
      const first = firsts.get(base);
      if (first && !first.shared) first.shared = { base, own: ownGuid(base, first.entry) };
      diagnostics.push({
        severity: 'warning',
        code: 'entry.guid.duplicate',
        message: `poll: entry ${index} repeats the guid of an earlier, different entry; stored under ${guid.slice(0, 120)}`,
        entry: index,
      });
    }
    seen.set(guid, contentHash);
    const item: ParsedItem = { index, guid, urlKey: urlKey(entry.link), contentHash, entry };
    if (shared) item.shared = shared;
    else firsts.set(guid, item);
    items.push(item);
  });
  return items;
}

/**
 * A hash of what a reader sees of an entry: a change in it is an update. Stored hashes are compared
 * with new ones, so the bytes hashed never change: each part followed by NUL (a missing one is \u0001),
 * the content values each followed by NUL, \u0002, then each enclosure URL followed by NUL. The NULs
 * also keep parts from pairing surrogates across their boundary, so hashing them as one string is
 * hashing them one by one (one call: a hash object fed part by part cost 14 µs an entry).
 */
export function hashEntry(entry: Entry): string {
  let text = '';
  for (const part of [entry.title, entry.link, entry.summary, entry.publishedRaw, entry.updatedRaw])
    text += `${part ?? '\u0001'}\u0000`;
  for (const content of entry.content ?? []) text += `${content.value}\u0000`;
  text += '\u0002';
  for (const enclosure of entry.enclosures ?? []) text += `${enclosure.href}\u0000`;
  return sha256(text);
}

/**
 * The authors of a feed's entries that name none, as its format says: Atom's feed authors (RFC 4287
 * 4.2.1, after the entry's atom:source, which toNewEntry reads) and JSON Feed's top-level ones (1.1: an
 * item without authors has the feed's). RSS says nothing of the kind; h-feed's reader gives its entries
 * the page's author itself. The parse result stays as the document says (contracts/parse-json.md).
 */
export function inheritedAuthors(result: Pick<ParseResult, 'version' | 'feed'>): readonly Person[] {
  const inherits = result.version.startsWith('atom') || result.version.startsWith('json');
  return inherits ? (result.feed.authors ?? []).filter((a) => a.name || a.uri) : [];
}

/**
 * Where an entry sits in timelines (`sortAt`): entries found when a feed is read for the first time are
 * placed by their date, so that following a feed does not flood the top with its back catalogue; entries
 * that arrive later are placed by their arrival, so a reader paging from the top never misses one that
 * came with an older date (Microsub paging must neither skip nor repeat an entry).
 *
 * The entry as the store keeps it: its HTML content (or, for an entry without content, its HTML summary),
 * a plain-text version only for plain-text content, and a summary only when the entry has one besides
 * its content: a description that is the whole post is not stored twice.
 */
export function toNewEntry(
  item: ParsedItem,
  now: Date,
  diagnostics: Diagnostic[],
  arrival: boolean,
  feedAuthors: readonly Person[] = [],
): NewEntry {
  const { entry } = item;
  // an entry without authors has its atom:source's, else those its feed gives it (inheritedAuthors)
  const ownAuthors = entry.authors?.length ? entry.authors : entry.source?.authors;
  const authors = ownAuthors?.length ? ownAuthors : feedAuthors;
  const html = entry.content?.find((c) => c.type !== 'text/plain');
  const plain = entry.content?.find((c) => c.type === 'text/plain');
  const summaryIsHtml = entry.summaryDetail !== undefined && entry.summaryDetail.type !== 'text/plain';
  const hasContent = html !== undefined || plain !== undefined;
  const out: NewEntry = {
    guid: item.guid,
    sortAt: arrival ? now.toISOString() : sortAt(entry, now, item.index, diagnostics),
    authors: authors.map((a) => ({ ...a })),
    categories: (entry.categories ?? []).flatMap((c) => (c.term ? [c.term] : c.label ? [c.label] : [])),
    enclosures: (entry.enclosures ?? []).map((e) => ({ ...e })),
    extra: extraOf(entry),
    contentHash: item.contentHash,
  };
  if (item.urlKey !== undefined) out.urlKey = item.urlKey;
  if (entry.link && !isGuidOnlyLink(entry)) out.url = entry.link;
  if (entry.title)
    out.title = entry.titleDetail?.type === 'text/plain' ? entry.title : htmlToText(entry.title);
  if (html) out.contentHtml = html.value;
  else if (!plain && summaryIsHtml && entry.summary) out.contentHtml = entry.summary;
  if (plain && !html) out.contentText = plain.value;
  else if (!hasContent && !summaryIsHtml && entry.summary) out.contentText = entry.summary;
  // The text of HTML content, worked out once here: Microsub's jf2 carries it with the HTML, and
  // converting it again on every timeline request cost a third of the request (issue 14).
  if (out.contentHtml !== undefined && out.contentText === undefined)
    out.contentText = htmlToText(out.contentHtml).trim();
  const summary = hasContent && entry.summary !== entry.content?.[0]?.value ? entry.summary : undefined;
  if (summary) out.summary = summaryIsHtml ? htmlToText(summary) : summary;
  if (entry.published) out.published = entry.published;
  if (entry.updated) out.updated = entry.updated;
  const authorUrl = authors.find((a) => a.uri)?.uri;
  if (authorUrl) out.authorUrl = authorUrl;
  if (arrival) checkFuture(entry, now, item.index, diagnostics);
  return out;
}

function checkFuture(entry: Entry, now: Date, index: number, diagnostics: Diagnostic[]): void {
  const date = entry.published ?? entry.updated;
  if (date !== undefined && Date.parse(date) > now.getTime() + FUTURE_SLACK_MS) {
    diagnostics.push({
      severity: 'warning',
      code: 'date.future',
      message: `poll: entry ${index} is dated ${date}, in the future`,
      entry: index,
    });
  }
}

function sortAt(entry: Entry, now: Date, index: number, diagnostics: Diagnostic[]): string {
  const date = entry.published ?? entry.updated;
  if (date === undefined) return now.toISOString();
  if (Date.parse(date) > now.getTime() + FUTURE_SLACK_MS) {
    diagnostics.push({
      severity: 'warning',
      code: 'date.future',
      message: `poll: entry ${index} is dated ${date}, in the future; it is placed by when it was first seen`,
      entry: index,
    });
    return now.toISOString();
  }
  return date;
}

/** The jf2 extras of an entry (in-reply-to, photo, video ...), kept as the store's `extra`. */
function extraOf(entry: Entry): Record<string, unknown> {
  const extra: Record<string, unknown> = {};
  for (const [key, values] of Object.entries(entry.mf2 ?? {})) {
    const name = MF2_PROPERTIES[key as keyof typeof MF2_PROPERTIES];
    if (name && Array.isArray(values) && values.length > 0) extra[name] = values;
  }
  if (entry.image?.href && extra['photo'] === undefined) extra['photo'] = [entry.image.href];
  if (entry.itunes?.duration) extra['duration'] = entry.itunes.duration;
  if (entry.externalUrl) extra['externalUrl'] = entry.externalUrl;
  if (entry.comments) extra['comments'] = entry.comments;
  // Media RSS (YouTube's media:group: thumbnail, description, media:content): shown by the reader and
  // given to Microsub clients as photo/video/audio (issue 16)
  const media = toEntryMedia(entry.media);
  if (media) extra['media'] = media;
  return extra;
}

/**
 * True when the entry's only link is its RSS guid (isPermaLink by default) and that guid is no URL, e.g.
 * `<guid>post-1234</guid>`: the parser resolves it against the feed as the Universal Feed Parser does,
 * which makes a link that leads nowhere, so the entry is stored without one. An absolute URL or a path
 * from the site's root (`/2026/11/post`) stays a link, and so does an item's own <link>, wherever it is.
 */
function isGuidOnlyLink(entry: Entry): boolean {
  if (!entry.guidislink) return false;
  // a <link> after the guid is the link (guidislink stays true, as in the Universal Feed Parser)
  if (entry.links?.some((link) => link.href === entry.link)) return false;
  const guid = entry.id ?? '';
  return !/^[a-z][a-z0-9+.-]*:/i.test(guid) && !guid.startsWith('/');
}
