import type { FeedHealth, StoredFeed } from '../../model/index.js';
import { formatTimestamp, relativeTime } from './format.js';
import { PostForm } from './layout.js';
import { StatusBadge } from './status.js';

export interface SubscriptionGroup {
  channel: { uid: string; name: string };
  feeds: { feed: StoredFeed; health: FeedHealth }[];
}

export interface SubscriptionsProps {
  groups: SubscriptionGroup[];
  channels: { uid: string; name: string }[];
  csrf: string;
  now: Date;
  /** The filter typed in the box (`?q=`); '' shows every feed. */
  query: string;
  /** Subscriptions in all, before the filter. */
  total: number;
}

/** The follow box (autodiscovery), a filter box, and every subscription by channel, with its actions. */
export function SubscriptionsView(props: SubscriptionsProps) {
  const shown = props.groups.reduce((n, group) => n + group.feeds.length, 0);
  return (
    <section class="panel">
      <h1>Subscriptions</h1>
      <FollowBox csrf={props.csrf} />
      {props.total > 0 && <FilterBox query={props.query} shown={shown} total={props.total} />}
      {props.total === 0 && <p class="empty">You follow no feeds yet.</p>}
      {props.total > 0 && shown === 0 && <p class="empty">No feed matches "{props.query}".</p>}
      {props.groups.map((group) => (
        <section class="sub-group">
          <h2>{group.channel.name}</h2>
          <ul class="sub-list">
            {group.feeds.map(({ feed, health }) => (
              <SubscriptionRow feed={feed} health={health} channel={group.channel} {...props} />
            ))}
          </ul>
        </section>
      ))}
    </section>
  );
}

/** Paste a site or feed URL: the next page shows what autodiscovery found. */
export function FollowBox(props: { csrf: string; url?: string }) {
  return (
    <PostForm action="/subscriptions/discover" csrf={props.csrf} class="row follow-box">
      <input
        type="text"
        inputmode="url"
        name="url"
        value={props.url}
        required
        placeholder="https://example.com/ or its feed URL"
        aria-label="Site or feed URL"
      />
      <button type="submit" class="primary">
        Find feeds
      </button>
    </PostForm>
  );
}

/** A GET form, so that it works without JavaScript and the filtered list has an address. */
function FilterBox(props: { query: string; shown: number; total: number }) {
  return (
    <form method="get" action="/subscriptions" class="row filter-box">
      <input
        type="search"
        name="q"
        value={props.query}
        placeholder="Filter by title or URL"
        aria-label="Filter subscriptions"
      />
      <button type="submit">Filter</button>
      {props.query && (
        <span class="muted small">
          {props.shown} of {props.total} · <a href="/subscriptions">show all</a>
        </span>
      )}
    </form>
  );
}

function SubscriptionRow(
  props: {
    feed: StoredFeed;
    health: FeedHealth;
    channel: { uid: string; name: string };
  } & SubscriptionsProps,
) {
  const { feed, channel, csrf } = props;
  const base = `/subscriptions/${feed.id}`;
  return (
    <li class="sub-row" data-feed={String(feed.id)}>
      <div class="sub-main">
        <a href={`/feeds/${feed.id}`} class="sub-title">
          {feed.title ?? feed.url}
        </a>{' '}
        <StatusBadge health={props.health} />
        <div class="muted small">
          {feed.url} · checked{' '}
          <time datetime={feed.lastCheckedAt} title={formatTimestamp(feed.lastCheckedAt)}>
            {relativeTime(feed.lastCheckedAt, props.now)}
          </time>
        </div>
      </div>
      <div class="sub-actions row">
        <a href={`/c/${encodeURIComponent(channel.uid)}?feed=${feed.id}`}>Entries</a>
        <a href={base}>Settings</a>
        <PostForm action={`/feeds/${feed.id}/refresh`} csrf={csrf} returnTo="/subscriptions" class="inline">
          <button type="submit">Refresh now</button>
        </PostForm>
        <PostForm action={`${base}/move`} csrf={csrf} class="inline">
          <input type="hidden" name="from" value={channel.uid} />
          <select name="to" aria-label="Move to channel">
            {props.channels
              .filter((ch) => ch.uid !== channel.uid)
              .map((ch) => (
                <option value={ch.uid}>{ch.name}</option>
              ))}
          </select>
          <button type="submit">Move</button>
        </PostForm>
        <PostForm action={`${base}/unfollow`} csrf={csrf} class="inline" dataAction="confirm">
          <input type="hidden" name="channel" value={channel.uid} />
          <button type="submit" class="danger" data-confirm={`Unfollow ${feed.title ?? feed.url}?`}>
            Unfollow
          </button>
        </PostForm>
      </div>
    </li>
  );
}
