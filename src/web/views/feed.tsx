import type { FeedHealth, Heartbeat, StoredFeed } from '../../model/index.js';
import type { NextCheckExplained } from '../../poll/index.js';
import { DiagnosticsList } from './diagnostics.js';
import { count, formatBytes, formatTimestamp, safeHref } from './format.js';
import { Time } from './health.js';
import { PostForm } from './layout.js';
import { NextCheckFact } from './next-check.js';
import { StatusBadge } from './status.js';

export interface FeedPageProps {
  feed: StoredFeed;
  health: FeedHealth;
  heartbeats: Heartbeat[];
  /** When it is checked next, and why. */
  nextCheck: NextCheckExplained;
  /** Its WebSub push state (issue 26): the state, and the state in words. */
  push: { state: string; words: string };
  /** Channels that follow it (for "read its entries"). */
  channels: { uid: string; name: string }[];
  csrf: string;
  now: Date;
}

/** One feed: its state, the diagnostics of its last document and its heartbeat history. */
export function FeedPage(props: FeedPageProps) {
  const { feed, csrf } = props;
  const returnTo = `/feeds/${feed.id}`;
  return (
    <section class="panel wide">
      <p class="crumbs">
        <a href="/feeds">Feed health</a> ›
      </p>
      <h1>{feed.title ?? feed.url}</h1>
      <p>
        <StatusBadge health={props.health} /> {feed.message}
      </p>
      <FeedFacts {...props} />
      <div class="row">
        <PostForm action={`/feeds/${feed.id}/refresh`} csrf={csrf} returnTo={returnTo} class="inline">
          <button type="submit" class="primary">
            Refresh now
          </button>
        </PostForm>
        {props.channels.length > 0 && (
          // the pause is the follower's own: an admin looking at a feed they do not follow has none
          <PostForm action={`/feeds/${feed.id}/pause`} csrf={csrf} returnTo={returnTo} class="inline">
            <input type="hidden" name="paused" value={feed.paused ? '0' : '1'} />
            <button type="submit">{feed.paused ? 'Resume polling' : 'Pause polling'}</button>
          </PostForm>
        )}
        {props.channels.map((ch) => (
          <a href={`/c/${encodeURIComponent(ch.uid)}?feed=${feed.id}`}>Entries in {ch.name}</a>
        ))}
      </div>
      <h2>Diagnostics of the last document</h2>
      <LastDocument feed={feed} />
      <h2>Heartbeats</h2>
      <HeartbeatTable heartbeats={props.heartbeats} now={props.now} />
    </section>
  );
}

function FeedFacts(props: FeedPageProps) {
  const { feed, now } = props;
  const site = safeHref(feed.siteUrl);
  return (
    <dl class="facts">
      <dt>Feed URL</dt>
      <dd>
        <code>{feed.url}</code>
        {feed.originalUrl !== feed.url && (
          <span class="muted small"> (subscribed as {feed.originalUrl})</span>
        )}
      </dd>
      {site && (
        <>
          <dt>Site</dt>
          <dd>
            <a href={site} rel="noopener noreferrer">
              {feed.siteUrl}
            </a>
          </dd>
        </>
      )}
      <dt>Last checked</dt>
      <dd>
        <Time iso={feed.lastCheckedAt} now={now} />
        {feed.httpStatus !== undefined && ` (HTTP ${feed.httpStatus})`}
      </dd>
      <dt>Last success</dt>
      <dd>
        <Time iso={feed.lastSuccessAt} now={now} />
      </dd>
      <dt>Last new entry</dt>
      <dd>
        <Time iso={feed.lastNewEntryAt} now={now} />
      </dd>
      <dt>Next check</dt>
      <dd data-next-check={props.nextCheck.reason}>
        <NextCheckFact feed={feed} next={props.nextCheck} now={now} />
      </dd>
      <dt>Errors in a row</dt>
      <dd>{feed.errorCount}</dd>
      <dt>Push (WebSub)</dt>
      <dd data-push={props.push.state}>{props.push.words}</dd>
    </dl>
  );
}

/**
 * The diagnostics of the last document read. A fetch that failed read none: saying "no problems found"
 * then would be false; the diagnostics kept are those of the document read before it.
 */
function LastDocument(props: { feed: StoredFeed }) {
  const { feed } = props;
  if (feed.status === undefined) return <p class="muted">Not polled yet.</p>;
  const failed = feed.status === 'fetch_error' || feed.status === 'gone';
  if (!failed) return <DiagnosticsList diagnostics={feed.diagnostics} />;
  const why = feed.status === 'gone' ? 'the feed is gone' : 'the fetch failed';
  return (
    <>
      <p class="muted" data-no-document>
        No document was read ({why}).
      </p>
      {feed.diagnostics.length > 0 && (
        <>
          <p>The document read before it had these:</p>
          <DiagnosticsList diagnostics={feed.diagnostics} />
        </>
      )}
    </>
  );
}

function HeartbeatTable(props: { heartbeats: Heartbeat[]; now: Date }) {
  if (props.heartbeats.length === 0) return <p class="muted">Not polled yet.</p>;
  return (
    <div class="table-wrap">
      <table class="heartbeats">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Status</th>
            <th scope="col">HTTP</th>
            <th scope="col">New</th>
            <th scope="col">Updated</th>
            <th scope="col">Size</th>
            <th scope="col">Time</th>
            <th scope="col">What happened</th>
          </tr>
        </thead>
        <tbody>
          {props.heartbeats.map((beat) => (
            <HeartbeatRow beat={beat} now={props.now} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** One poll: when, status, HTTP status, counts, size, time, message and its diagnostics. */
function HeartbeatRow(props: { beat: Heartbeat; now: Date }) {
  const { beat } = props;
  return (
    <tr data-heartbeat={beat.status}>
      <td title={formatTimestamp(beat.at)}>
        <Time iso={beat.at} now={props.now} />
      </td>
      <td>
        <StatusBadge health={beat.status} />
      </td>
      <td class="num">{beat.httpStatus ?? ''}</td>
      <td class="num">{beat.newCount}</td>
      <td class="num">{beat.updatedCount}</td>
      <td class="num">{formatBytes(beat.bytes)}</td>
      <td class="num">{beat.durationMs} ms</td>
      <td>
        {beat.message}
        {beat.diagnostics.length > 0 && (
          <details>
            <summary>{count(beat.diagnostics.length, 'diagnostic', 'diagnostics')}</summary>
            <DiagnosticsList diagnostics={beat.diagnostics} />
          </details>
        )}
      </td>
    </tr>
  );
}
