import type { Channel, FeedHealth, HeartbeatBar } from '../../model/index.js';
import type { FeedSummary } from '../../store/index.js';
import { HEALTH_ORDER, type HealthQuery, type HealthSort, healthQueryString, SORTS } from '../health-list.js';
import { count, formatTimestamp, relativeTime } from './format.js';
import { HeartbeatStrip } from './sparkline.js';
import { healthWords, StatusBadge } from './status.js';

export interface FeedHealthRow {
  feed: FeedSummary;
  health: FeedHealth;
  heartbeats: HeartbeatBar[];
}

export interface HealthDashboardProps {
  /** The feeds of this page. */
  rows: FeedHealthRow[];
  now: Date;
  slots: number;
  /** Feeds per health, over every feed. */
  counts: Map<FeedHealth, number>;
  feedCount: number;
  channels: Channel[];
  query: HealthQuery;
  /** The user may see every feed of the instance (an admin): the page offers both views. */
  mayShowAll: boolean;
  /** Feeds the filters select, over all pages. */
  matching: number;
  pages: number;
}

const SORT_WORDS: Record<HealthSort, string> = {
  health: 'worst first',
  title: 'title',
  errors: 'most errors',
  'last-success': 'longest without success',
  'next-check': 'next check',
};

/**
 * The dashboard: a page of feeds with status, times, error count and a compact strip of their last polls
 * (the details of each poll are on the feed's page), filtered by status, channel and text, sorted, paged.
 */
export function HealthDashboard(props: HealthDashboardProps) {
  const { query } = props;
  return (
    <section class="panel wide">
      <h1>Feed health</h1>
      {props.mayShowAll && <ScopeSwitch query={query} />}
      <p class="summary">
        {count(props.feedCount, 'feed', 'feeds')}:{' '}
        {HEALTH_ORDER.filter((health) => props.counts.has(health)).map((health) => (
          <a
            class="summary-item"
            href={`/feeds${healthQueryString({ ...(query.all ? { all: true } : {}), sort: query.sort, page: 1, status: health })}`}
          >
            <StatusBadge health={health} /> {props.counts.get(health)}
          </a>
        ))}
      </p>
      <HealthFilters {...props} />
      <p class="muted small" data-matching={String(props.matching)}>
        {props.matching === props.feedCount
          ? count(props.matching, 'feed', 'feeds')
          : `${props.matching} of ${count(props.feedCount, 'feed', 'feeds')} match`}
        {props.pages > 1 ? `, page ${query.page} of ${props.pages}` : ''}
      </p>
      <div class="table-wrap">
        <table class="health health-cards">
          <thead>
            <tr>
              <th scope="col">Feed</th>
              <th scope="col">Status</th>
              <th scope="col">Last success</th>
              <th scope="col">Next check</th>
              <th scope="col">Errors</th>
              <th scope="col">Last {count(props.slots, 'poll', 'polls')}</th>
            </tr>
          </thead>
          <tbody>
            {props.rows.map((row) => (
              <HealthRow row={row} now={props.now} slots={props.slots} />
            ))}
          </tbody>
        </table>
      </div>
      {props.feedCount === 0 && <p class="empty">No feeds yet.</p>}
      {props.feedCount > 0 && props.matching === 0 && <p class="empty">No feed matches these filters.</p>}
      <Pager query={query} pages={props.pages} />
    </section>
  );
}

/** An admin's choice: the feeds they follow, or every feed of the instance (`all=1`). */
function ScopeSwitch(props: { query: HealthQuery }) {
  const { query } = props;
  return (
    <p class="muted small" data-scope={query.all ? 'all' : 'mine'}>
      <a
        href={`/feeds${healthQueryString({ sort: query.sort, page: 1 })}`}
        aria-current={query.all ? undefined : 'page'}
      >
        Feeds you follow
      </a>{' '}
      ·{' '}
      <a
        href={`/feeds${healthQueryString({ all: true, sort: query.sort, page: 1 })}`}
        aria-current={query.all ? 'page' : undefined}
      >
        Every feed of this tidings
      </a>
    </p>
  );
}

/** The filter form: a GET form, so it works without JavaScript and its result is a link. */
function HealthFilters(props: HealthDashboardProps) {
  const { query } = props;
  return (
    <form class="health-filters" method="get" action="/feeds">
      {query.all && <input type="hidden" name="all" value="1" />}
      <label>
        Status{' '}
        <select name="status">
          <option value="">any</option>
          {HEALTH_ORDER.map((health) => (
            <option value={health} selected={query.status === health}>
              {healthWords(health)}
            </option>
          ))}
        </select>
      </label>
      <label>
        Channel{' '}
        <select name="channel">
          <option value="">any</option>
          {props.channels.map((channel) => (
            <option value={channel.uid} selected={query.channel === channel.uid}>
              {channel.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        Text <input type="search" name="q" value={query.text ?? ''} placeholder="title, URL or error" />
      </label>
      <label>
        Sort{' '}
        <select name="sort">
          {SORTS.map((sort) => (
            <option value={sort} selected={query.sort === sort}>
              {SORT_WORDS[sort]}
            </option>
          ))}
        </select>
      </label>
      <button type="submit">Show</button>
    </form>
  );
}

function Pager(props: { query: HealthQuery; pages: number }) {
  if (props.pages <= 1) return null;
  const { page } = props.query;
  return (
    <nav class="pager" aria-label="Pages of feeds">
      {page > 1 && (
        <a rel="prev" href={`/feeds${healthQueryString(props.query, { page: page - 1 })}`}>
          ← Previous
        </a>
      )}{' '}
      <span class="muted">
        page {page} of {props.pages}
      </span>{' '}
      {page < props.pages && (
        <a rel="next" href={`/feeds${healthQueryString(props.query, { page: page + 1 })}`}>
          Next →
        </a>
      )}
    </nav>
  );
}

function HealthRow(props: { row: FeedHealthRow; now: Date; slots: number }) {
  const { feed, health } = props.row;
  const problem = !['ok', 'not_modified', 'new', 'paused'].includes(health) && feed.message;
  return (
    <tr data-feed={String(feed.id)} data-health={health}>
      <td>
        <a href={`/feeds/${feed.id}`}>{feed.title ?? feed.url}</a>
        {problem && <div class="muted small">{feed.message}</div>}
      </td>
      <td data-label="Status">
        <StatusBadge health={health} />
      </td>
      <td data-label="Last success">
        <Time iso={feed.lastSuccessAt} now={props.now} />
      </td>
      <td data-label="Next check">
        {feed.paused ? (
          'paused'
        ) : health === 'gone' || feed.status === 'gone' || feed.unfollowedAt !== undefined ? (
          'never'
        ) : (
          <Time iso={feed.nextCheckAt} now={props.now} />
        )}
      </td>
      <td data-label="Errors" class={feed.errorCount > 0 ? 'num bad' : 'num'}>
        {feed.errorCount}
      </td>
      <td data-label="Polls">
        <HeartbeatStrip heartbeats={props.row.heartbeats} slots={props.slots} />
      </td>
    </tr>
  );
}

/** A time relative to now, with the exact one in a tooltip. */
export function Time(props: { iso: string | undefined; now: Date }) {
  if (!props.iso) return <span class="muted">never</span>;
  return (
    <time datetime={props.iso} title={formatTimestamp(props.iso)}>
      {relativeTime(props.iso, props.now)}
    </time>
  );
}
