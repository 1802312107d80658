import { type Expression, expressionBuilder, type Kysely, type SqlBool, sql } from 'kysely';
import { pageKeys, toPage } from './paging.js';
import type { SearchQuery, TimelinePage } from './reader.js';
import type { Database } from './schema.js';
import { loadTimelineEntries } from './timeline.js';
import { anyChannelEntryKeys, channelEntryKeys } from './visibility.js';

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

const eb = expressionBuilder<Database, 'entries'>();

/** True for entries whose indexed text holds every term (SQLite FTS5 or PostgreSQL tsvector). */
function matchesTerms(dialect: Dialect, terms: readonly string[]): Expression<SqlBool> {
  if (dialect === 'sqlite') {
    const matching = eb
      .selectFrom('entries_fts')
      .select('entries_fts.rowid')
      .where('entries_fts.body', 'match', fts5Query(terms));
    return eb('entries.id', 'in', matching);
  }
  // Kysely has no builder for tsquery functions. Each term is a bound parameter: phraseto_tsquery reads
  // no operators, and the 'simple' configuration matches the one the index was written with.
  const queries = terms.map((term) => sql`phraseto_tsquery('simple', ${term})`);
  return sql<SqlBool>`${sql.ref('entries.search_vector')} @@ (${sql.join(queries, sql` && `)})`;
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
  const matching = matchesQuery(dialect, parsed);
  const page =
    channelId === undefined
      ? await pageKeys(() => anyChannelEntryKeys(db).where(matching), request)
      : await pageKeys(() => channelEntryKeys(db, channelId).where(matching), request);
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

/** True for entries whose title, summary or content holds the term as written (a substring). */
function containsText(term: string): Expression<SqlBool> {
  const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const columns = ['entries.title', 'entries.summary', 'entries.content_text', 'entries.content_html'];
  return eb.or(columns.map((column) => sql<SqlBool>`${sql.ref(column)} LIKE ${pattern} ESCAPE '\\'`));
}

/** One term matched: CJK as a substring, anything else through the full-text index. */
function matchesOne(dialect: Dialect, term: string): Expression<SqlBool> {
  return isCjkTerm(term) ? containsText(term) : matchesTerms(dialect, [term]);
}

/** Every included term found and no excluded one. */
function matchesQuery(dialect: Dialect, query: ParsedSearch): Expression<SqlBool> {
  const words = query.include.filter((term) => !isCjkTerm(term));
  const conditions = [
    ...(words.length > 0 ? [matchesTerms(dialect, words)] : []),
    ...query.include.filter(isCjkTerm).map(containsText),
    ...query.exclude.map((term) => eb.not(matchesOne(dialect, term))),
  ];
  return eb.and(conditions);
}
