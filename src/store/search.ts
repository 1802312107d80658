import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import {
  ENTRY_KEYS,
  type KeyColumns,
  type KeyPage,
  type PageRequest,
  pageKeys,
  pageSize,
  toPage,
} from './paging.js';
import type { SearchQuery, TimelinePage } from './reader.js';
import type { Database } from './schema.js';
import { loadTimelineEntries } from './timeline.js';
import { anyChannelEntryKeys, CHANNEL_KEYS, channelEntryKeys, type KeyQuery } from './visibility.js';

type Dialect = 'sqlite' | 'postgres';

/** Enough for any query a person types; more terms are dropped so one statement stays small. */
const MAX_TERMS = 32;

// A term with no letter or digit (a lone "(" or "-") indexes to nothing in either database.
const WORD_CHARACTER = /[\p{L}\p{N}]/u;

/**
 * The terms of a query as typed: each "quoted phrase" and each other run of non-space characters. A
 * double quote without its partner separates words. Every term must be found; nothing is an operator
 * (AND, OR, NOT, NEAR, *, -, column filters are plain words), so both databases find the same entries
 * and no input is a syntax error.
 */
export function searchTerms(query: string): string[] {
  const terms: string[] = [];
  for (const match of query.matchAll(/"([^"]*)"|([^\s"]+)/g)) {
    const term = (match[1] ?? match[2] ?? '').trim().replace(/\s+/g, ' ');
    if (WORD_CHARACTER.test(term)) terms.push(term);
  }
  return terms.slice(0, MAX_TERMS);
}

/**
 * An FTS5 query requiring every term, each one a quoted FTS5 string (a phrase when it holds several
 * words). Inside a string FTS5 reads no operators, and a double quote is escaped by doubling it.
 */
export function fts5Query(terms: readonly string[]): string {
  return terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(' ');
}

/**
 * True for the entry with id `idColumn` when its indexed text holds every term (SQLite FTS5 or PostgreSQL
 * tsvector). Written as a look-up of that one entry, so that a walk down the timeline can test each row
 * it passes and stop after a page.
 */
function matchesTerms(dialect: Dialect, terms: readonly string[], idColumn: string): Expression<SqlBool> {
  const id = sql.ref(idColumn);
  if (dialect === 'sqlite')
    return sql<SqlBool>`EXISTS (SELECT 1 FROM entries_fts WHERE entries_fts.rowid = ${id} AND entries_fts MATCH ${fts5Query(terms)})`;
  // Kysely has no builder for tsquery functions. Each term is a bound parameter: phraseto_tsquery reads
  // no operators, and the 'simple' configuration matches the one the index was written with.
  const queries = terms.map((term) => sql`phraseto_tsquery('simple', ${term})`);
  return sql<SqlBool>`EXISTS (SELECT 1 FROM entries matched WHERE matched.id = ${id} AND matched.search_vector @@ (${sql.join(queries, sql` && `)}))`;
}

/**
 * True for entries whose indexed text holds every term, as a set (SQLite: the FTS5 index answers it whole;
 * PostgreSQL: the GIN index). For terms so rare that walking the timeline would pass too many rows.
 */
function amongMatches(dialect: Dialect, terms: readonly string[], idColumn: string): Expression<SqlBool> {
  const id = sql.ref(idColumn);
  if (dialect === 'sqlite')
    return sql<SqlBool>`${id} IN (SELECT rowid FROM entries_fts WHERE entries_fts MATCH ${fts5Query(terms)})`;
  const queries = terms.map((term) => sql`phraseto_tsquery('simple', ${term})`);
  return sql<SqlBool>`${id} IN (SELECT matched.id FROM entries matched WHERE matched.search_vector @@ (${sql.join(queries, sql` && `)}))`;
}

/** The test of each row of the walk's window. */
function walkTest(dialect: Dialect, terms: readonly string[]): Expression<SqlBool> {
  return dialect === 'sqlite'
    ? amongMatches(dialect, terms, 'recent.id')
    : matchesTerms(dialect, terms, 'recent.id');
}

/**
 * How many rows of the timeline a search walks, newest first, testing each, before it asks the index for
 * every match instead. A common word fills a page within a few hundred rows; a rare one has few matches,
 * which the index lists at once. Either way a search costs about a page, not the database.
 */
export const SEARCH_WALK_ROWS = 2000;

type Keys = () => KeyQuery<keyof Database>;

/** Pages through `keys`: first by walking SEARCH_WALK_ROWS rows, then, if that was not enough, by the index. */
async function pageMatches(
  db: Kysely<Database>,
  keys: Keys,
  test: { walk: Expression<SqlBool>; set: Expression<SqlBool> },
  request: PageRequest,
  columns: KeyColumns,
): Promise<KeyPage> {
  const limit = pageSize(request.limit);
  // SQLite's FTS5 answers a look-up of one id no faster than the whole set of matches, which it lists in
  // milliseconds: the window's ids are checked against that set. PostgreSQL reads each row's tsvector.
  const window = await pageKeys(keys, { limit: SEARCH_WALK_ROWS, after: request.after }, columns);
  const windowIds = window.keys.map((key) => key.id);
  const found =
    windowIds.length === 0
      ? []
      : await db
          .selectFrom(keys().where(sql.ref(columns.id), 'in', windowIds).as('recent'))
          .select(['recent.id', 'recent.sort_at'])
          .where(test.walk)
          .execute();
  const order = new Map(windowIds.map((id, index) => [id, index]));
  found.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  // Enough matches in the window, or the window was the whole rest of the timeline: the page is exact.
  if (found.length > limit || !window.hasOlder)
    return { keys: found.slice(0, limit), hasOlder: found.length > limit || window.hasOlder };
  return pageKeys(() => keys().where(test.set), request, columns);
}
/**
 * Returns a page of the entries matching the query, newest first: in one channel's timeline, or in any
 * channel's (read when read in any channel). Removed, muted and blocked entries stay hidden.
 */
export async function searchEntries(
  db: Kysely<Database>,
  dialect: Dialect,
  query: SearchQuery,
): Promise<TimelinePage> {
  const request = { limit: query.limit, after: query.after };
  const parsed = parseSearchQuery(query.query);
  const { channelId } = query;
  if (parsed.include.length === 0) return { entries: [] };
  const page =
    channelId === undefined
      ? await pageMatches(
          db,
          () => anyChannelEntryKeys(db, dialect),
          queryTests(dialect, parsed, 'entries.id'),
          request,
          ENTRY_KEYS,
        )
      : await pageMatches(
          db,
          () => channelEntryKeys(db, dialect, channelId),
          queryTests(dialect, parsed, 'channel_entries.entry_id'),
          request,
          CHANNEL_KEYS,
        );
  const ids = page.keys.map((key) => key.id);
  const entries = await loadTimelineEntries(db, ids, channelId === undefined ? 'any channel' : { channelId });
  return toPage(page, entries);
}

// reader (issue 16): -term excludes, and CJK text matches inside runs. Kept in functions of their own.

// Han, kana and hangul: FTS5's unicode61 and PostgreSQL's 'simple' parser index a run of them as one
// word, so 世博 would never find 世博五卷. Such terms are matched as substrings instead.
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** A query read as people type it: terms that must appear, and -terms that must not. */
export interface ParsedSearch {
  include: string[];
  exclude: string[];
}

/**
 * The terms of a query: "quoted phrases" and words must all appear; a word written -word must not.
 * Anything else (OR, AND, NEAR, *) is a plain word.
 */
export function parseSearchQuery(query: string): ParsedSearch {
  const words = query.split(/\s+/);
  const exclude = words
    .filter((word) => /^-[^-"]/.test(word))
    .map((word) => word.slice(1))
    .filter((word) => WORD_CHARACTER.test(word));
  const rest = words.filter((word) => !/^-[^-"]/.test(word)).join(' ');
  return { include: searchTerms(rest), exclude: exclude.slice(0, MAX_TERMS) };
}

/** True when a term holds CJK text (matched as a substring, not through the word index). */
export function isCjkTerm(term: string): boolean {
  return CJK.test(term);
}

/** True when the entry with id `idColumn` holds the term as written in its title, summary or content. */
function containsText(term: string, idColumn: string): Expression<SqlBool> {
  const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const like = ['title', 'summary', 'content_text', 'content_html'].map(
    (column) => sql`${sql.ref(`found.${column}`)} LIKE ${pattern} ESCAPE '\\'`,
  );
  return sql<SqlBool>`EXISTS (SELECT 1 FROM entries found WHERE found.id = ${sql.ref(idColumn)} AND (${sql.join(like, sql` OR `)}))`;
}

/**
 * The walk's and the set's tests for a parsed query: every word through the full-text index, every CJK
 * term as a substring, and no excluded term.
 */
function queryTests(
  dialect: Dialect,
  query: ParsedSearch,
  idColumn: string,
): { walk: Expression<SqlBool>; set: Expression<SqlBool> } {
  const words = query.include.filter((term) => !isCjkTerm(term));
  const cjk = query.include.filter(isCjkTerm);
  const others = (column: string): Expression<SqlBool>[] => [
    ...cjk.map((term) => containsText(term, column)),
    ...query.exclude.map(
      (term): Expression<SqlBool> =>
        sql<SqlBool>`NOT ${isCjkTerm(term) ? containsText(term, column) : amongMatches(dialect, [term], column)}`,
    ),
  ];
  const all = (conditions: Expression<SqlBool>[]): Expression<SqlBool> =>
    conditions.length === 1
      ? (conditions[0] as Expression<SqlBool>)
      : sql<SqlBool>`(${sql.join(conditions, sql` AND `)})`;
  return {
    walk: all([...(words.length > 0 ? [walkTest(dialect, words)] : []), ...others('recent.id')]),
    set: all([...(words.length > 0 ? [amongMatches(dialect, words, idColumn)] : []), ...others(idColumn)]),
  };
}
