import { hash } from 'node:crypto';
import type { Diagnostic, ParseResult } from '../model/index.js';
import { type ParseOptions, parseFeed } from '../parse/index.js';
import type { NewEntry } from '../store/index.js';
import { identifyEntries, inheritedAuthors, toNewEntry } from './entries.js';
import { statusOfParse } from './status.js';

/** One fetched document to read: its bytes, how it was served, and how its entries are placed. */
export interface PrepareJob {
  /** The document. A worker pool may take it over (transfer it): the caller must not read it after. */
  body: Uint8Array;
  options: ParseOptions;
  /** ISO time of the poll. */
  now: string;
  /** Entries are placed by arrival (the feed was read before) or by their date (first read). */
  arrival: boolean;
}

/** An entry ready to be compared with the store and written. */
export interface PreparedItem {
  guid: string;
  urlKey: string | undefined;
  contentHash: string;
  entry: NewEntry;
  /** A guid other entries of the document share, and this entry's own form of it (entries.ts). */
  shared?: { base: string; own: string };
}

/** What the poller needs of a parsed document: everything but the parsed entries themselves. */
export interface PreparedDocument {
  /** SHA-256 of the document's bytes (hex), to catch servers whose validators never change. */
  bodyHash: string;
  result: Omit<ParseResult, 'entries'>;
  entryCount: number;
  items: PreparedItem[];
  /** The parser's diagnostics, then those of identity and dates. */
  diagnostics: Diagnostic[];
  status: ReturnType<typeof statusOfParse>;
  /** Publication times of the document's entries (ms), to learn the feed's cadence. */
  publishedTimes: number[];
}

/**
 * Parses a document and prepares every entry for storage. It is pure (bytes in, plain data out), so it
 * can run in a worker thread: parsing and normalizing then use the second core while the main thread
 * fetches and writes (bench:poll).
 */
export function prepareDocument(job: PrepareJob): PreparedDocument {
  const bodyHash = hash('sha256', job.body, 'hex');
  const parsed = parseFeed(job.body, { ...job.options, excerpts: true });
  const { entries, ...result } = parsed;
  const diagnostics: Diagnostic[] = [...parsed.diagnostics];
  const now = new Date(job.now);
  const feedAuthors = inheritedAuthors(parsed);
  const items = identifyEntries(entries, diagnostics).map(
    (item): PreparedItem => ({
      guid: item.guid,
      urlKey: item.urlKey,
      contentHash: item.contentHash,
      entry: toNewEntry(item, now, diagnostics, job.arrival, feedAuthors),
      ...(item.shared ? { shared: item.shared } : {}),
    }),
  );
  const publishedTimes = entries
    .map((e) => Date.parse(e.published ?? e.updated ?? ''))
    .filter(Number.isFinite);
  return {
    bodyHash,
    result,
    entryCount: entries.length,
    items,
    diagnostics,
    status: statusOfParse(parsed),
    publishedTimes,
  };
}
