import { entryDate } from '../../model/index.js';
import type { TimelineEntry, TimelinePage } from '../../store/index.js';
import { EntryBody } from './entry-body.js';
import { entryHeading, formatTimestamp, relativeTime, safeHref } from './format.js';
import { channelHref, entryPageHref, type ViewScope } from './hrefs.js';
import { PostForm } from './layout.js';
import { SaveForm } from './save-form.js';

export { channelHref } from './hrefs.js';

/** What an entry's actions need: where they post and where they come back to. */
export interface EntryContext {
  /** The channel the entry's actions act in. */
  channelUid: string;
  /** The view the entry is shown in: its entry page keeps the view's filters for previous/next. */
  scope: ViewScope;
  csrf: string;
  returnTo: string;
  now: Date;
}

/**
 * `/c/UID/open/ID`: marks the entry read in the channel and sends the browser to the original. A saved
 * entry whose feed no channel follows (channel '') links the original itself.
 */
export function originalHref(channelUid: string, entry: TimelineEntry): string | undefined {
  const url = safeHref(entry.url);
  if (!url || channelUid === '') return url;
  return `/c/${encodeURIComponent(channelUid)}/open/${entry.id}`;
}

/** One entry of a river: heading (to its own page), source, author, time, content, actions. */
export function EntryView(props: { entry: TimelineEntry; ctx: EntryContext; upToHere?: boolean }) {
  const { entry, ctx } = props;
  return (
    <article
      class={entry.isRead ? 'entry is-read' : 'entry'}
      data-entry={String(entry.id)}
      data-original={originalHref(ctx.channelUid, entry)}
    >
      <header>
        <h2 class="entry-title" dir="auto">
          <a href={entryPageHref(ctx.scope, entry.id)} data-entry-page>
            {entryHeading(entry)}
          </a>
        </h2>
        <EntryMeta entry={entry} ctx={ctx} />
      </header>
      <EntryBody entry={entry} />
      <EntryActions entry={entry} ctx={ctx} upToHere={props.upToHere !== false} />
    </article>
  );
}

/**
 * Read/unread, save, read up to here, remove, and the link to the original. Without a channel (a saved
 * entry whose feed no channel follows) there is no read state or timeline to act in: save only.
 */
export function EntryActions(props: {
  entry: TimelineEntry;
  ctx: EntryContext;
  upToHere: boolean;
  /** Where "Mark unread" comes back to without JavaScript (the entry page would mark it read again). */
  readReturnTo?: string | undefined;
}) {
  const { entry, ctx } = props;
  const base = `/c/${encodeURIComponent(ctx.channelUid)}/entries/${entry.id}`;
  const original = originalHref(ctx.channelUid, entry);
  const inChannel = ctx.channelUid !== '';
  return (
    <footer class="entry-actions">
      {inChannel && (
        <PostForm
          action={`${base}/read`}
          csrf={ctx.csrf}
          returnTo={props.readReturnTo ?? ctx.returnTo}
          dataAction="toggle-read"
          class="inline"
        >
          <input type="hidden" name="read" value={entry.isRead ? '0' : '1'} />
          <button type="submit" data-read-label>
            {entry.isRead ? 'Mark unread' : 'Mark read'}
          </button>
        </PostForm>
      )}
      <SaveForm entry={entry} csrf={ctx.csrf} returnTo={ctx.returnTo} />
      {inChannel && props.upToHere && (
        <PostForm action={`${base}/read-up-to`} csrf={ctx.csrf} returnTo={ctx.returnTo} class="inline">
          <button type="submit" title="Mark this entry and every older one of the channel read">
            Mark read up to here
          </button>
        </PostForm>
      )}
      {inChannel && (
        <PostForm
          action={`${base}/remove`}
          csrf={ctx.csrf}
          returnTo={ctx.returnTo}
          dataAction="remove"
          class="inline"
        >
          <button type="submit">Remove</button>
        </PostForm>
      )}
      {original && (
        <a href={original} rel="noopener noreferrer" target="_blank" class="original" data-open>
          Original
        </a>
      )}
    </footer>
  );
}

/** Source (its per-feed view), author, date (published, else updated, else first seen), read state. */
export function EntryMeta(props: { entry: TimelineEntry; ctx: EntryContext }) {
  const { entry, ctx } = props;
  const author = entry.authors.find((a) => a.name)?.name;
  const when = entryDate(entry);
  return (
    <p class="entry-meta">
      {ctx.channelUid === '' ? (
        <span class="source">{entry.feed.title ?? entry.feed.url}</span>
      ) : (
        <a href={channelHref(ctx.channelUid, { feed: String(entry.feed.id) })} class="source">
          {entry.feed.title ?? entry.feed.url}
        </a>
      )}
      {author && <span class="author">{author}</span>}
      <time datetime={when} title={formatTimestamp(when)}>
        {relativeTime(when, ctx.now)}
      </time>
      {/* no channel follows the feed of this saved entry: it has no read state */}
      {ctx.channelUid === '' ? null : entry.isRead ? (
        <span class="badge">read</span>
      ) : (
        <span class="badge unread">unread</span>
      )}
    </p>
  );
}

/** Newer/older links with the timeline's own cursors (the same ones the Microsub timeline returns). */
export function Pager(props: {
  page: TimelinePage;
  paged: boolean;
  href: (q: Record<string, string>) => string;
}) {
  const { page } = props;
  if (!page.after && !(props.paged && page.before)) return null;
  return (
    <nav class="pager" aria-label="Pages">
      {props.paged && page.before && (
        <a href={props.href({ before: page.before })} rel="prev" data-pager="newer">
          ← Newer
        </a>
      )}
      {props.paged && <a href={props.href({})}>Newest</a>}
      {page.after && (
        <a href={props.href({ after: page.after })} rel="next" data-pager="older">
          Older →
        </a>
      )}
    </nav>
  );
}
