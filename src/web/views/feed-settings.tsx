import type { Channel, StoredFeed } from '../../model/index.js';
import { count } from './format.js';
import { PostForm } from './layout.js';

/**
 * One feed's settings: the user's own title and pause, and the fetch's URL (a moved feed), poll interval
 * and User-Agent, which are shown but not sent when others follow the feed too (`isShared`: only an
 * admin may change them then).
 */
export function FeedSettingsView(props: {
  feed: StoredFeed;
  channels: Channel[];
  defaultIntervalMinutes: number;
  csrf: string;
  error?: string | undefined;
  isShared?: boolean;
}) {
  const { feed } = props;
  const locked = props.isShared === true;
  const interval =
    feed.pollIntervalSeconds === undefined ? '' : String(Math.round(feed.pollIntervalSeconds / 60));
  return (
    <section class="panel" data-feed-settings={String(feed.id)}>
      <h1>{feed.title ?? feed.url}</h1>
      <p class="muted small">
        Followed in {props.channels.map((ch) => ch.name).join(', ') || 'no channel (it is not fetched)'} ·{' '}
        <a href={`/feeds/${feed.id}`}>health</a>
      </p>
      {props.error && (
        <p class="error" role="alert">
          {props.error}
        </p>
      )}
      {locked && (
        <p class="hint">
          Others follow this feed too: it is fetched once for everyone, so only an admin may change its URL,
          interval or User-Agent.
        </p>
      )}
      <PostForm action={`/subscriptions/${feed.id}/settings`} csrf={props.csrf} class="settings-form">
        <label>
          Title{' '}
          <input type="text" name="title" value={feed.customTitle ?? ''} placeholder={feed.title ?? ''} />
          <span class="muted small"> empty: the feed's own title</span>
        </label>
        <label>
          URL <input type="url" name="url" value={feed.url} required disabled={locked} />
          <span class="muted small"> change it when the feed has moved</span>
        </label>
        <label>
          Check every{' '}
          <input
            type="number"
            name="interval_minutes"
            min="1"
            max="10080"
            value={interval}
            disabled={locked}
          />{' '}
          minutes{' '}
          <span class="muted small">
            {' '}
            empty: the default ({count(props.defaultIntervalMinutes, 'minute', 'minutes')})
          </span>
        </label>
        <label>
          User-Agent{' '}
          <input
            type="text"
            name="user_agent"
            value={feed.userAgent ?? ''}
            placeholder="empty: tidings' own"
            disabled={locked}
          />
        </label>
        <label>
          <input type="checkbox" name="paused" value="1" checked={feed.paused} /> Paused (not fetched)
        </label>
        <button type="submit" class="primary">
          Save
        </button>
      </PostForm>
    </section>
  );
}
