import { cutHtml, cutPlainText, fitsInBytes } from '../html/index.js';
import { type Entry, type Feed, plural, type Text } from '../model/index.js';
import type { DiagnosticList } from './diagnostics.js';

// Issue 22: nothing limited one entry's content, and 31 entries of 19 MB made the Google Reader and Fever
// APIs answer 500 (a JSON string past V8's limit) at 4.8 GB of memory. FreshRSS keeps an entry's content
// in a 16 MiB MEDIUMBLOB and its title in 8,192 characters; Miniflux refuses feeds over 15 MiB. A field of
// 1 MiB is about twice the longest real post of the perf corpus (532 KiB, in yakubin.atom),
// and 31 such entries are 31 MiB, not 600.

/** The most one long text field (content, summary, a feed's subtitle) keeps, in UTF-8 bytes. */
export const MAX_CONTENT_BYTES = 1024 * 1024;
/** The most a title keeps, in UTF-8 bytes (FreshRSS keeps 8,192 characters). */
export const MAX_TITLE_BYTES = 8 * 1024;

export interface FieldLimits {
  /** Bytes kept of an entry's content and summary, its media description and a feed's subtitle. */
  contentBytes: number;
  /** Bytes kept of a title, the feed's and each entry's. */
  titleBytes: number;
}

const CUT = 'cut to fit (HTML at an element boundary, what was open closed)';

/** Which entries had one field cut, for the one diagnostic per field. */
interface CutField {
  entries: number[];
  largestBytes: number;
}

/**
 * The feed and entries with every long text field cut to the limits (HTML at an element boundary, with
 * what is open closed), and one `field.too-long` diagnostic per field that was cut, naming its first entry.
 */
export function capFields(
  feed: Feed,
  entries: Entry[],
  limits: FieldLimits,
  diagnostics: DiagnosticList,
): { feed: Feed; entries: Entry[] } {
  const cuts = new Map<string, CutField>();
  const note = (field: string, entry: number, value: string) => {
    const seen = cuts.get(field) ?? { entries: [], largestBytes: 0 };
    seen.entries.push(entry);
    seen.largestBytes = Math.max(seen.largestBytes, Buffer.byteLength(value, 'utf8'));
    cuts.set(field, seen);
  };
  const cappedEntries = entries.map((entry, index) =>
    capEntry(entry, limits, (field, value) => note(field, index, value)),
  );
  const feedCuts: { field: string; value: string }[] = [];
  const cappedFeed = capFeed(feed, limits, (field, value) => feedCuts.push({ field, value }));
  for (const { field, value } of feedCuts) {
    const limit = field === 'title' ? limits.titleBytes : limits.contentBytes;
    diagnostics.add(
      'field.too-long',
      `parse: the feed's ${field} is ${formatBytes(Buffer.byteLength(value, 'utf8'))}, over the limit of ${formatBytes(limit)}; ${CUT}`,
      { field },
    );
  }
  for (const [field, { entries: which, largestBytes }] of cuts) {
    const limit = field === 'title' ? limits.titleBytes : limits.contentBytes;
    const first = which[0] as number;
    const what =
      which.length === 1
        ? `the ${field} of entry ${first} is ${formatBytes(largestBytes)}`
        : `the ${field} of ${plural(which.length, 'entry', 'entries')} (${listEntries(which)}) is up to ${formatBytes(largestBytes)}`;
    diagnostics.add(
      'field.too-long',
      `parse: ${what}, over the limit of ${formatBytes(limit)} a field; ${CUT}`,
      { entry: first, field },
    );
  }
  return { feed: cappedFeed, entries: cappedEntries };
}

type OnCut = (field: string, value: string) => void;

function capEntry(entry: Entry, limits: FieldLimits, onCut: OnCut): Entry {
  let out = entry;
  const change = (patch: Partial<Entry>) => {
    out = { ...out, ...patch };
  };
  const content = entry.content;
  if (content?.some((text) => !fitsInBytes(text.value, limits.contentBytes))) {
    content.forEach((text) => {
      if (!fitsInBytes(text.value, limits.contentBytes)) onCut('content', text.value);
    });
    change({ content: content.map((text) => capText(text, limits.contentBytes)) });
  }
  const summary = capTextField(entry.summary, entry.summaryDetail, limits.contentBytes);
  if (summary) {
    onCut('summary', entry.summary ?? '');
    change({ summary: summary.value, ...(summary.detail ? { summaryDetail: summary.detail } : {}) });
  }
  const title = capTextField(entry.title, entry.titleDetail, limits.titleBytes);
  if (title) {
    onCut('title', entry.title ?? '');
    change({ title: title.value, ...(title.detail ? { titleDetail: title.detail } : {}) });
  }
  const description = entry.media?.description;
  if (description !== undefined && !fitsInBytes(description, limits.contentBytes)) {
    onCut('media description', description);
    change({ media: { ...entry.media, description: cutPlainText(description, limits.contentBytes) } });
  }
  return out;
}

function capFeed(feed: Feed, limits: FieldLimits, onCut: OnCut): Feed {
  let out = feed;
  const title = capTextField(feed.title, feed.titleDetail, limits.titleBytes);
  if (title) {
    onCut('title', feed.title ?? '');
    out = { ...out, title: title.value, ...(title.detail ? { titleDetail: title.detail } : {}) };
  }
  const subtitle = capTextField(feed.subtitle, feed.subtitleDetail, limits.contentBytes);
  if (subtitle) {
    onCut('subtitle', feed.subtitle ?? '');
    out = {
      ...out,
      subtitle: subtitle.value,
      ...(subtitle.detail ? { subtitleDetail: subtitle.detail } : {}),
    };
  }
  return out;
}

/** A text construct cut to maxBytes by its type. */
function capText(text: Text, maxBytes: number): Text {
  if (fitsInBytes(text.value, maxBytes)) return text;
  const value =
    text.type === 'text/plain' ? cutPlainText(text.value, maxBytes) : cutHtml(text.value, maxBytes);
  return { ...text, value };
}

/**
 * A field kept as a string and its Text (`summary` and `summaryDetail`) cut alike, or undefined when it
 * fits. The string is the Text's value in every reader; should it not be, it is cut as the Text's type.
 */
function capTextField(
  value: string | undefined,
  detail: Text | undefined,
  maxBytes: number,
): { value: string; detail?: Text } | undefined {
  if (value === undefined || fitsInBytes(value, maxBytes)) return undefined;
  const cut = capText({ type: detail?.type ?? 'text/plain', value }, maxBytes).value;
  return detail === undefined ? { value: cut } : { value: cut, detail: { ...detail, value: cut } };
}

function listEntries(which: number[]): string {
  const shown = which.slice(0, 5).join(', ');
  return which.length > 5 ? `entries ${shown} and ${which.length - 5} more` : `entries ${shown}`;
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${trimZero((bytes / (1024 * 1024)).toFixed(1))} MiB`;
  if (bytes >= 1024) return `${trimZero((bytes / 1024).toFixed(1))} KiB`;
  return `${bytes} bytes`;
}

function trimZero(text: string): string {
  return text.endsWith('.0') ? text.slice(0, -2) : text;
}
