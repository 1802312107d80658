import type { StoredFeed } from '../../model/index.js';
import type { NextCheckExplained } from '../../poll/index.js';
import { DEFAULT_ADAPTIVE_MAX } from '../../poll/index.js';
import { UNFOLLOWED_KEEP_DAYS } from '../../store/index.js';
import { count, formatDuration, formatTimestamp } from './format.js';
import { Time } from './health.js';

/** "in 5 min (every 10 min, as configured)", or why there is no next check. */
export function NextCheckFact(props: { feed: StoredFeed; next: NextCheckExplained; now: Date }) {
  const { next } = props;
  if (next.reason === 'unfollowed')
    return <>Never: no channel follows it (it is forgotten {UNFOLLOWED_KEEP_DAYS} days after)</>;
  if (next.reason === 'paused') return <>Paused: not checked until resumed</>;
  if (next.reason === 'gone') return <>Never: the feed is gone (410)</>;
  const at = next.at?.toISOString();
  return (
    <>
      <Time iso={at} now={props.now} /> <span class="muted small">at {formatTimestamp(at)}</span> (
      {reasonWords(props.feed, next)})
    </>
  );
}

/** Why the next check is when it is, in words. */
export function reasonWords(feed: StoredFeed, next: NextCheckExplained): string {
  if (feed.lastCheckedAt === undefined) return 'its first check';
  const every = formatDuration(next.intervalSeconds);
  const base = formatDuration(next.baseIntervalSeconds);
  const times = Math.round((next.intervalSeconds / next.baseIntervalSeconds) * 10) / 10;
  const stretched = `every ${every}, ${times}x the ${base} interval`;
  switch (next.reason) {
    case 'hint': {
      const capped = (feed.hintIntervalSeconds ?? 0) > next.intervalSeconds;
      const asks = `the feed asks for at most one check every ${formatDuration(feed.hintIntervalSeconds ?? 0)} (ttl, sy:updatePeriod or max-age)`;
      const bound = next.adaptiveMax ?? DEFAULT_ADAPTIVE_MAX;
      return capped
        ? `${asks}: ${stretched}, the most TIDINGS_ADAPTIVE_MAX=${bound} allows`
        : `${asks}: ${stretched}`;
    }
    case 'cadence':
      return `it posts about every ${formatDuration(feed.cadenceSeconds ?? 0)}: ${stretched}`;
    case 'backoff':
      return `backing off after ${count(feed.errorCount, 'error', 'errors')} in a row: waits ${every}`;
    case 'retry-after':
      return `the server asked to wait: Retry-After, ${every}`;
    default:
      return feed.pollIntervalSeconds === undefined
        ? `every ${every}, as configured`
        : `every ${every}, as set for this feed`;
  }
}
