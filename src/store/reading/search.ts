import { type Expression, type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import { decodeCursor } from '../cursor.js';
import {
  type KeyColumns,
  type KeyPage,
  type KeyQuery,
  type PageRequest,
  pageKeys,
  pageSize,
} from '../paging.js';
import type { Database } from '../schema.js';
import { entryIdOfKey, searchKey } from '../search-key.js';
import { tsqueryLiteral } from '../search-words.js';
import { rowCount } from '../values.js';
import { isShownIn } from '../visibility.js';

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
 * PostgreSQL: the tsquery of one term (a word or a phrase). Kysely has no builder for tsquery functions;
 * the term is bound, never spliced. Entries are indexed with search-words.ts's words (migration 0018); those
 * indexed before with the 'simple' parser's, which phraseto_tsquery finds (it reads no operators). A term
 * matches when either form does.
 */
function tsquery(term: string): RawBuilder<unknown> {
  const words = tsqueryLiteral(term);
  const parsed = sql`phraseto_tsquery('simple', ${term})`;
  return words === undefined ? parsed : sql`(${words}::tsquery || ${parsed})`;
}

/**
 * True for the entry with id `idColumn` when its indexed text holds every term (SQLite FTS5 or PostgreSQL
 * tsvector). Written as a look-up of that one entry, so that a walk down the timeline can test each row
 * it passes and stop after a page.
 */
function matchesTerms(dialect: Dialect, terms: readonly string[], idColumn: string): Expression<SqlBool> {
  const id = sql.ref(idColumn);
  // SQLite answers a word for one entry no faster than for all: its searches walk the index instead
  if (dialect === 'sqlite') return amongMatches(dialect, terms, idColumn);
  const queries = terms.map(tsquery);
  return sql<SqlBool>`EXISTS (SELECT 1 FROM entries matched WHERE matched.id = ${id} AND matched.search_vector @@ (${sql.join(queries, sql` && `)}))`;
}

/**
 * True for entries whose indexed text holds every term, as a set (SQLite: the FTS5 index answers it whole;
 * PostgreSQL: the GIN index). For terms so rare that walking the timeline would pass too many rows.
 */
function amongMatches(dialect: Dialect, terms: readonly string[], idColumn: string): Expression<SqlBool> {
  const id = sql.ref(idColumn);
  if (dialect === 'sqlite')
    return sql<SqlBool>`${id} IN (SELECT ${entryIdOfKey('rowid')} FROM entries_fts WHERE entries_fts MATCH ${fts5Query(terms)})`;
  const queries = terms.map(tsquery);
  return sql<SqlBool>`${id} IN (SELECT matched.id FROM entries matched WHERE matched.search_vector @@ (${sql.join(queries, sql` && `)}))`;
}

/**
 * How many rows of the timeline a search walks, newest first, testing each, before it asks the index for
 * every match instead. A common word fills a page within a few hundred rows; a rare one has few matches,
 * which the index lists at once. Either way a search costs about a page, not the database.
 */
export const SEARCH_WALK_ROWS = 2000;

type Keys = () => KeyQuery<keyof Database>;

/** How a query is tested: the words (through the index), other row tests, and the whole test as a set. */
interface QueryTests {
  words: readonly string[];
  /** Tests of a row other than the words (CJK substrings, excluded terms), for the walk's window. */
  others: Expression<SqlBool>[];
  set: Expression<SqlBool>;
}

/** Pages through `keys`: first by walking SEARCH_WALK_ROWS rows, then, if that was not enough, by the index. */
export async function pageMatches(
  db: Kysely<Database>,
  dialect: Dialect,
  keys: Keys,
  tests: QueryTests,
  request: PageRequest,
  columns: KeyColumns,
): Promise<KeyPage> {
  const limit = pageSize(request.limit);
  const window = await pageKeys(keys, { limit: SEARCH_WALK_ROWS, after: request.after }, columns);
  const found = await windowMatches(db, dialect, keys, tests, window.keys, columns);
  // Enough matches in the window, or the window was the whole rest of the timeline: the page is exact.
  if (found.length > limit || !window.hasOlder)
    return { keys: found.slice(0, limit), hasOlder: found.length > limit || window.hasOlder };
  return pageKeys(() => keys().where(tests.set), request, columns);
}

/** The rows of the window (newest first) that match, in the window's order. */
async function windowMatches(
  db: Kysely<Database>,
  dialect: Dialect,
  keys: Keys,
  tests: QueryTests,
  window: KeyPage['keys'],
  columns: KeyColumns,
): Promise<KeyPage['keys']> {
  const candidates = window;
  const rowTests = [...tests.others];
  // PostgreSQL reads each row's tsvector (SQLite walks its index instead: walkSearchIndex)
  if (tests.words.length > 0) rowTests.push(matchesTerms(dialect, tests.words, 'recent.id'));
  if (rowTests.length === 0 || candidates.length === 0) return candidates;
  const rows = await db
    .selectFrom(
      keys()
        .where(
          sql.ref(columns.id),
          'in',
          candidates.map((key) => key.id),
        )
        .as('recent'),
    )
    .select('recent.id')
    .where(all(rowTests))
    .execute();
  const kept = new Set(rows.map((row) => row.id));
  return candidates.filter((key) => kept.has(key.id));
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

/** All of these conditions, as one. */
function all(conditions: Expression<SqlBool>[]): Expression<SqlBool> {
  return conditions.length === 1
    ? (conditions[0] as Expression<SqlBool>)
    : sql<SqlBool>`(${sql.join(conditions, sql` AND `)})`;
}

/**
 * The walk's and the set's tests for a parsed query: every word through the full-text index, every CJK
 * term as a substring, and no excluded term.
 */
export function queryTests(dialect: Dialect, query: ParsedSearch, idColumn: string): QueryTests {
  const words = query.include.filter((term) => !isCjkTerm(term));
  const cjk = query.include.filter(isCjkTerm);
  const others = (column: string): Expression<SqlBool>[] => [
    ...cjk.map((term) => containsText(term, column)),
    ...query.exclude.map(
      (term): Expression<SqlBool> =>
        sql<SqlBool>`NOT ${isCjkTerm(term) ? containsText(term, column) : amongMatches(dialect, [term], column)}`,
    ),
  ];
  return {
    words,
    others: others('recent.id'),
    set: all([...(words.length > 0 ? [amongMatches(dialect, words, idColumn)] : []), ...others(idColumn)]),
  };
}

/**
 * SQLite: the FTS5 query of a parsed search, every word required and every excluded word (CJK terms
 * aside) refused, or undefined when it requires no word.
 */
function indexQuery(query: ParsedSearch): string | undefined {
  const words = query.include.filter((term) => !isCjkTerm(term));
  if (words.length === 0) return undefined;
  const refused = query.exclude.filter((term) => !isCjkTerm(term));
  return [`(${fts5Query(words)})`, ...refused.map((term) => fts5Query([term]))].join(' NOT ');
}

/**
 * SQLite, a walk whose only test is the channel (no CJK terms to match as text): the index's entry ids
 * are tested against channel_entries alone, never against the entries table, whose rows are large and
 * scattered (a page of "common" in a channel of 1 entry in 200 read 4,000 entries' rows: 22 ms, against
 * 1.9 ms this way). Searching everywhere, the page's sort times are read after the walk, for its rows only.
 */
async function walkWithoutEntries(
  db: Kysely<Database>,
  match: string,
  below: RawBuilder<unknown>,
  where: { channelId: number | undefined; userId: number },
  limit: number,
): Promise<{ id: number; sort_at: string }[]> {
  const key = entryIdOfKey('f.rowid');
  if (where.channelId !== undefined) {
    const { rows } = await sql<{ id: number; sort_at: string }>`SELECT shown.entry_id AS id, shown.sort_at
      FROM entries_fts f JOIN channel_entries shown ON shown.channel_id = ${where.channelId} AND shown.entry_id = ${key}
      WHERE entries_fts MATCH ${match} ${below} AND shown.is_removed = 0 AND shown.is_hidden = 0
      ORDER BY f.rowid DESC LIMIT ${rowCount(limit)}`.execute(db);
    return rows;
  }
  const { rows } = await sql<{ id: number }>`SELECT ${key} AS id FROM entries_fts f
    WHERE entries_fts MATCH ${match} ${below}
      AND EXISTS (SELECT 1 FROM channel_entries shown WHERE shown.entry_id = ${key}
        AND shown.user_id = ${where.userId} AND shown.is_removed = 0 AND shown.is_hidden = 0)
    ORDER BY f.rowid DESC LIMIT ${rowCount(limit)}`.execute(db);
  if (rows.length === 0) return [];
  const times = await db
    .selectFrom('entries')
    .select(['id', 'sort_at'])
    .where(
      'id',
      'in',
      rows.map((row) => row.id),
    )
    .execute();
  const sortAt = new Map(times.map((row) => [row.id, row.sort_at]));
  return rows.flatMap((row) => {
    const at = sortAt.get(row.id);
    return at === undefined ? [] : [{ id: row.id, sort_at: at }];
  });
}

/**
 * SQLite: a page of the entries that match, in one channel or in any of the user's, read down the full-text index
 * newest first from the cursor. The index's rowids are search keys that sort as the reader does
 * (search-key.ts), so SQLite reads the words' entries in that order and stops once the page is full:
 * a common word costs a page, however many entries hold it. Each entry read is kept when its channel
 * shows it and its CJK terms (matched as text) say so. Within one minute entries come in arrival order.
 */
export async function walkSearchIndex(
  db: Kysely<Database>,
  query: ParsedSearch,
  where: { channelId: number | undefined; userId: number },
  request: PageRequest,
): Promise<KeyPage> {
  const limit = pageSize(request.limit);
  const match = indexQuery(query) ?? '';
  const cursor = request.after === undefined ? undefined : decodeCursor(request.after);
  const below = cursor === undefined ? sql`` : sql`AND f.rowid < ${searchKey(cursor.sortAt, cursor.id)}`;
  const cjk = [
    ...query.include.filter(isCjkTerm).map((term) => containsText(term, 'e.id')),
    ...query.exclude
      .filter(isCjkTerm)
      .map((term): Expression<SqlBool> => sql<SqlBool>`NOT ${containsText(term, 'e.id')}`),
  ];
  if (cjk.length === 0) {
    const rows = await walkWithoutEntries(db, match, below, where, limit + 1);
    return { keys: rows.slice(0, limit), hasOlder: rows.length > limit };
  }
  const others = sql`AND ${all(cjk)}`;
  const { rows } = await sql<{ id: number; sort_at: string }>`SELECT e.id, e.sort_at
    FROM entries_fts f JOIN entries e ON e.id = ${entryIdOfKey('f.rowid')}
    WHERE entries_fts MATCH ${match} ${below}
      AND ${isShownIn('sqlite', where, 'e.id')} ${others}
    ORDER BY f.rowid DESC LIMIT ${rowCount(limit + 1)}`.execute(db);
  return { keys: rows.slice(0, limit), hasOlder: rows.length > limit };
}

/** Entries per statement when a rule tests new entries. */
const MATCH_CHUNK = 500;

/**
 * The entries among `entries` (just stored, with their sort_at) that a search for `query` finds: the same
 * index and the same tests as a search, asked of these entries only, so that a rule (store/rules/) and
 * its saved-search view agree. SQLite looks each entry's key up in the full-text index; PostgreSQL tests
 * each row's tsvector.
 */
export async function matchingEntries(
  db: Kysely<Database>,
  dialect: Dialect,
  query: ParsedSearch,
  entries: readonly { id: number; sortAt: string }[],
): Promise<Set<number>> {
  const found = new Set<number>();
  for (let at = 0; at < entries.length; at += MATCH_CHUNK) {
    const part = entries.slice(at, at + MATCH_CHUNK);
    const candidates = dialect === 'sqlite' ? await indexedMatches(db, query, part) : part.map((e) => e.id);
    for (const id of await rowMatches(db, dialect, query, candidates)) found.add(id);
  }
  return found;
}

/** SQLite: the entries whose full-text index rows hold every word and no excluded word (CJK aside). */
async function indexedMatches(
  db: Kysely<Database>,
  query: ParsedSearch,
  entries: readonly { id: number; sortAt: string }[],
): Promise<number[]> {
  const keys = entries.map((entry) => searchKey(entry.sortAt, entry.id));
  const lookUp = async (match: string) => {
    const { rows } = await sql<{ id: number }>`SELECT ${entryIdOfKey('rowid')} AS id FROM entries_fts
      WHERE entries_fts MATCH ${match} AND rowid IN (${sql.join(keys)})`.execute(db);
    return rows.map((row) => Number(row.id));
  };
  const match = indexQuery(query);
  if (match !== undefined) return lookUp(match);
  const refused = query.exclude.filter((term) => !isCjkTerm(term));
  if (refused.length === 0) return entries.map((entry) => entry.id);
  const excluded = new Set(await lookUp(refused.map((term) => fts5Query([term])).join(' OR ')));
  return entries.map((entry) => entry.id).filter((id) => !excluded.has(id));
}

/**
 * The candidates that pass the tests the index did not make: on SQLite the CJK terms (as text); on
 * PostgreSQL every test, on each row's own tsvector.
 */
async function rowMatches(
  db: Kysely<Database>,
  dialect: Dialect,
  query: ParsedSearch,
  candidates: readonly number[],
): Promise<number[]> {
  if (candidates.length === 0) return [];
  const tests: Expression<SqlBool>[] = [
    ...query.include.filter(isCjkTerm).map((term) => containsText(term, 'e.id')),
    ...query.exclude
      .filter(isCjkTerm)
      .map((term): Expression<SqlBool> => sql<SqlBool>`NOT ${containsText(term, 'e.id')}`),
  ];
  if (dialect === 'postgres') {
    const words = query.include.filter((term) => !isCjkTerm(term));
    if (words.length > 0)
      tests.push(sql<SqlBool>`e.search_vector @@ (${sql.join(words.map(tsquery), sql` && `)})`);
    for (const term of query.exclude.filter((t) => !isCjkTerm(t)))
      tests.push(sql<SqlBool>`NOT (e.search_vector @@ ${tsquery(term)})`);
  }
  if (tests.length === 0) return [...candidates];
  const { rows } = await sql<{ id: number }>`SELECT e.id FROM entries e
    WHERE e.id IN (${sql.join([...candidates])}) AND ${all(tests)}`.execute(db);
  return rows.map((row) => Number(row.id));
}
