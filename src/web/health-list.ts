import type { FeedHealth } from '../model/index.js';
import type { FeedSummary } from '../store/index.js';

// The health list's query: filter, sort and page as GET parameters, so that it works without JavaScript
// and a filtered view is a link. 2,000 feeds on one page were 8.8 MB of HTML (issue 14): a page holds 50.

export const PAGE_SIZE = 50;

// Worst first: what needs attention is at the top of the dashboard.
export const HEALTH_ORDER: readonly FeedHealth[] = [
  'fetch_error',
  'parse_error',
  'encoding_error',
  'gone',
  'silent',
  'new',
  'paused',
  'not_modified',
  'ok',
  // no channel follows it any more: kept for its history (30 days) and saved entries, nothing to do
  'unfollowed',
];

export const SORTS = ['health', 'title', 'errors', 'last-success', 'next-check'] as const;
export type HealthSort = (typeof SORTS)[number];

/** What the list shows, read from the query string; unknown values fall back to the defaults. */
export interface HealthQuery {
  /** Every feed of the instance (`all=1`, admins only), not only the user's. */
  all?: boolean;
  status?: FeedHealth;
  channel?: string;
  text?: string;
  sort: HealthSort;
  page: number;
}

/** A feed with its health now: what the list counts, filters and sorts. */
export interface ListedFeed {
  feed: FeedSummary;
  health: FeedHealth;
}

/** Reads the query string: all, status, channel (uid), q, sort, page. */
export function readHealthQuery(params: Record<string, string | undefined>): HealthQuery {
  const status = HEALTH_ORDER.find((health) => health === params['status']);
  const sort = SORTS.find((name) => name === params['sort']) ?? 'health';
  const page = Number.parseInt(params['page'] ?? '1', 10);
  const text = params['q']?.trim();
  const channel = params['channel']?.trim();
  return {
    ...(params['all'] === '1' ? { all: true } : {}),
    ...(status ? { status } : {}),
    ...(channel ? { channel } : {}),
    ...(text ? { text } : {}),
    sort,
    page: Number.isSafeInteger(page) && page > 0 ? page : 1,
  };
}

/** The query string of a view of the list (defaults left out). */
export function healthQueryString(query: HealthQuery, patch: Partial<HealthQuery> = {}): string {
  const merged = { ...query, ...patch };
  const params = new URLSearchParams();
  if (merged.all) params.set('all', '1');
  if (merged.status) params.set('status', merged.status);
  if (merged.channel) params.set('channel', merged.channel);
  if (merged.text) params.set('q', merged.text);
  if (merged.sort !== 'health') params.set('sort', merged.sort);
  if (merged.page > 1) params.set('page', String(merged.page));
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

function titleOf(feed: FeedSummary): string {
  return feed.title ?? feed.url;
}

const byTitle = (a: ListedFeed, b: ListedFeed) => titleOf(a.feed).localeCompare(titleOf(b.feed));
const rank = (row: ListedFeed) => HEALTH_ORDER.indexOf(row.health);
/** Unknown times sort last either way. */
const byTime =
  (key: 'lastSuccessAt' | 'nextCheckAt', direction: 1 | -1) => (a: ListedFeed, b: ListedFeed) => {
    const x = a.feed[key];
    const y = b.feed[key];
    if (x === y) return 0;
    if (x === undefined) return 1;
    if (y === undefined) return -1;
    return x < y ? -direction : direction;
  };

const COMPARE: Record<HealthSort, (a: ListedFeed, b: ListedFeed) => number> = {
  health: (a, b) => rank(a) - rank(b) || byTitle(a, b),
  title: byTitle,
  errors: (a, b) => b.feed.errorCount - a.feed.errorCount || rank(a) - rank(b) || byTitle(a, b),
  'last-success': (a, b) => byTime('lastSuccessAt', 1)(a, b) || byTitle(a, b),
  'next-check': (a, b) => byTime('nextCheckAt', 1)(a, b) || byTitle(a, b),
};

/**
 * The feeds the query selects, sorted, and the page of them it asks for (the last one when beyond).
 * `followed` holds the ids of the feeds that the query's channel follows (unused without a channel).
 */
export function selectFeeds(rows: readonly ListedFeed[], query: HealthQuery, followed: ReadonlySet<number>) {
  const needle = query.text?.toLocaleLowerCase();
  const matching = rows
    .filter((row) => query.status === undefined || row.health === query.status)
    .filter((row) => query.channel === undefined || followed.has(row.feed.id))
    .filter(
      (row) =>
        needle === undefined ||
        [row.feed.title, row.feed.url, row.feed.siteUrl, row.feed.message].some((value) =>
          value?.toLocaleLowerCase().includes(needle),
        ),
    )
    .sort(COMPARE[query.sort]);
  const pages = Math.max(1, Math.ceil(matching.length / PAGE_SIZE));
  const page = Math.min(query.page, pages);
  return {
    total: matching.length,
    pages,
    page,
    rows: matching.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE),
  };
}
