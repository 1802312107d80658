import type { FeedHealth, Heartbeat } from '../../model/heartbeat.js';
import type { StoredFeed } from '../../model/stored.js';
import { formatTimestamp, relativeTime } from './format.js';
import { Sparkline } from './sparkline.js';
import { StatusBadge } from './status.js';

export interface FeedHealthRow {
  feed: StoredFeed;
  health: FeedHealth;
  heartbeats: Heartbeat[];
}

/** The dashboard: every feed with its status, times, error count and the strip of its last polls. */
export function HealthDashboard(props: { rows: FeedHealthRow[]; now: Date; slots: number }) {
  const counts = new Map<FeedHealth, number>();
  for (const row of props.rows) counts.set(row.health, (counts.get(row.health) ?? 0) + 1);
  return (
    <section class="panel wide">
      <h1>Feed health</h1>
      <p class="summary">
        {props.rows.length} feeds:{' '}
        {[...counts].map(([health, n]) => (
          <span class="summary-item">
            <StatusBadge health={health} /> {n}
          </span>
        ))}
      </p>
      <div class="table-wrap">
        <table class="health">
          <thead>
            <tr>
              <th scope="col">Feed</th>
              <th scope="col">Status</th>
              <th scope="col">Last success</th>
              <th scope="col">Next check</th>
              <th scope="col">Errors</th>
              <th scope="col">Last {props.slots} polls</th>
            </tr>
          </thead>
          <tbody>
            {props.rows.map((row) => (
              <HealthRow row={row} now={props.now} slots={props.slots} />
            ))}
          </tbody>
        </table>
      </div>
      {props.rows.length === 0 && <p class="empty">No feeds yet.</p>}
    </section>
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
      <td>
        <StatusBadge health={health} />
      </td>
      <td>
        <Time iso={feed.lastSuccessAt} now={props.now} />
      </td>
      <td>
        {feed.paused ? (
          'paused'
        ) : feed.status === 'gone' ? (
          'never'
        ) : (
          <Time iso={feed.nextCheckAt} now={props.now} />
        )}
      </td>
      <td class={feed.errorCount > 0 ? 'num bad' : 'num'}>{feed.errorCount}</td>
      <td>
        <Sparkline heartbeats={props.row.heartbeats} slots={props.slots} />
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
