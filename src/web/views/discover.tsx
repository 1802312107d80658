import type { Channel, StoredFeed } from '../../model/index.js';
import { formatDate, safeHref } from './format.js';
import { PostForm } from './layout.js';
import { FollowBox } from './subscriptions.js';

/** A feed autodiscovery found, with its latest entries (parsed, not stored). */
export interface Candidate {
  url: string;
  title?: string | undefined;
  format?: string | undefined;
  entries: { title?: string | undefined; link?: string | undefined; published?: string | undefined }[];
  /** Why it could not be previewed. */
  error?: string | undefined;
  /** The channels that follow it already. */
  followedIn?: string[];
}

export interface DiscoverProps {
  url: string;
  /** The page or feed itself could not be read. */
  error?: string | undefined;
  /** The URL was a web page (its feeds are listed) rather than a feed. */
  isPage: boolean;
  candidates: Candidate[];
  channels: { uid: string; name: string }[];
  csrf: string;
}

/** What autodiscovery found at a URL: each feed with a preview and a follow form. */
export function DiscoverView(props: DiscoverProps) {
  return (
    <section class="panel">
      <h1>Follow a feed</h1>
      <FollowBox csrf={props.csrf} url={props.url} />
      {props.error && (
        <p class="error" role="alert">
          {props.error}
        </p>
      )}
      {props.isPage && <p>{props.url} is a web page. It links to these feeds:</p>}
      {props.candidates.map((candidate) => (
        <CandidateView candidate={candidate} channels={props.channels} csrf={props.csrf} />
      ))}
    </section>
  );
}

function CandidateView(props: {
  candidate: Candidate;
  channels: { uid: string; name: string }[];
  csrf: string;
}) {
  const { candidate } = props;
  // the usual channels first; a brand-new reader gets a new "Home" rather than Notifications
  const usual = props.channels.filter((ch) => ch.uid !== 'notifications');
  const special = props.channels.filter((ch) => ch.uid === 'notifications');
  return (
    <article class="candidate" data-candidate={candidate.url}>
      <h2>{candidate.title ?? candidate.url}</h2>
      <p class="muted small">
        {candidate.url}
        {candidate.format && ` · ${candidate.format}`}
      </p>
      {candidate.followedIn && (
        <p class="notice">
          You already follow it in {candidate.followedIn.join(', ')}. Following it in another channel asks
          first.
        </p>
      )}
      {candidate.error ? (
        <p class="error">{candidate.error}</p>
      ) : (
        <ol class="preview" aria-label="Latest entries">
          {candidate.entries.map((entry) => (
            <li>
              {safeHref(entry.link) ? (
                <a href={safeHref(entry.link)} target="_blank" rel="noopener noreferrer">
                  {entry.title ?? entry.link}
                </a>
              ) : (
                (entry.title ?? 'Untitled')
              )}
              {entry.published && <span class="muted small"> · {formatDate(entry.published)}</span>}
            </li>
          ))}
          {candidate.entries.length === 0 && <li class="muted">No entries yet.</li>}
        </ol>
      )}
      <PostForm action="/subscriptions/follow" csrf={props.csrf} class="row">
        <input type="hidden" name="url" value={candidate.url} />
        <label>
          Channel{' '}
          <select name="channel">
            {usual.map((ch) => (
              <option value={ch.uid}>{ch.name}</option>
            ))}
            <option value="">{usual.length === 0 ? 'New channel: Home' : 'New channel…'}</option>
            {special.map((ch) => (
              <option value={ch.uid}>{ch.name}</option>
            ))}
          </select>
        </label>
        <input
          type="text"
          name="new_channel"
          placeholder="or a new channel name"
          aria-label="New channel name"
        />
        <button type="submit" class="primary">
          Follow
        </button>
      </PostForm>
    </article>
  );
}

/** Follow found the feed followed in other channels: move it here, or follow it here too. */
export function FollowedElsewhereView(props: {
  feed: StoredFeed;
  channels: Channel[];
  /** The channel asked for (uid or new name, and its name); the default channel when undefined. */
  target: { ref: string; name: string } | undefined;
  csrf: string;
}) {
  const { feed, target, csrf } = props;
  const names = props.channels.map((ch) => ch.name).join(', ');
  return (
    <section class="panel" data-elsewhere={String(feed.id)}>
      <h1>Already followed</h1>
      <p>
        You already follow {feed.title ?? feed.url} in {names}. Nothing changed.
      </p>
      {target && (
        <div class="row">
          <PostForm action={`/subscriptions/${feed.id}/move`} csrf={csrf} class="inline">
            <input type="hidden" name="to" value={target.ref} />
            <button type="submit" class="primary">
              Move it to {target.name}
            </button>
          </PostForm>
          <PostForm action="/subscriptions/follow" csrf={csrf} class="inline">
            <input type="hidden" name="url" value={feed.url} />
            <input type="hidden" name="channel" value={target.ref} />
            <input type="hidden" name="also" value="1" />
            <button type="submit">Follow it in {target.name} too</button>
          </PostForm>
        </div>
      )}
      <p>
        <a href="/subscriptions">Back to the subscriptions</a>
      </p>
    </section>
  );
}
