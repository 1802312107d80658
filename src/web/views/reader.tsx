import { raw } from 'hono/html';
import { entryDate } from '../../model/entry-date.js';
import type { TimelineEntry, TimelinePage } from '../../store/reader.js';
import { entryHeading, formatTimestamp, lazyImages, relativeTime, safeHref } from './format.js';
import { PostForm } from './layout.js';

/** A channel in the sidebar. */
export interface ChannelItem {
  uid: string;
  name: string;
  unread: number;
}

/** The channel list with unread counts, and a search box across everything. */
export function Sidebar(props: { channels: ChannelItem[]; current?: string | undefined }) {
  return (
    <nav class="channels" aria-label="Channels">
      <form method="get" action="/search" class="search">
        <input type="search" name="q" placeholder="Search all entries" aria-label="Search all entries" />
      </form>
      <ul class="channels-list">
        {props.channels.map((ch) => (
          <li>
            <a
              href={channelHref(ch.uid)}
              aria-current={ch.uid === props.current ? 'page' : undefined}
              data-channel={ch.uid}
            >
              <span class="name">{ch.name}</span>
              {ch.unread > 0 && (
                <span class="count" data-unread>
                  {ch.unread}
                </span>
              )}
            </a>
          </li>
        ))}
      </ul>
      <p class="sidebar-links">
        <a href="/subscriptions">Follow a feed</a> · <a href="/channels">Channels</a>
      </p>
    </nav>
  );
}

/** /c/UID with query parameters (empty ones left out). */
export function channelHref(uid: string, query: Record<string, string | undefined> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
  const search = params.toString();
  return `/c/${encodeURIComponent(uid)}${search ? `?${search}` : ''}`;
}

/** What an entry's actions need: where they post and where they come back to. */
export interface EntryContext {
  channelUid: string;
  csrf: string;
  returnTo: string;
  now: Date;
}

/** One entry of a timeline: heading, source, author, time, content, actions. */
export function EntryView(props: { entry: TimelineEntry; ctx: EntryContext; upToHere?: boolean }) {
  const { entry, ctx } = props;
  const original = safeHref(entry.url);
  const open = original ? `/c/${encodeURIComponent(ctx.channelUid)}/open/${entry.id}` : undefined;
  return (
    <article class={entry.isRead ? 'entry is-read' : 'entry'} data-entry={String(entry.id)}>
      <header>
        <h2 class="entry-title">
          {open ? (
            <a href={open} data-open target="_blank" rel="noopener noreferrer">
              {entryHeading(entry)}
            </a>
          ) : (
            entryHeading(entry)
          )}
        </h2>
        <EntryMeta entry={entry} ctx={ctx} />
      </header>
      <EntryBody entry={entry} />
      <EntryActions entry={entry} ctx={ctx} upToHere={props.upToHere !== false} />
    </article>
  );
}

/** Read/unread, read up to here, remove, and the link to the original. */
function EntryActions(props: { entry: TimelineEntry; ctx: EntryContext; upToHere: boolean }) {
  const { entry, ctx } = props;
  const base = `/c/${encodeURIComponent(ctx.channelUid)}/entries/${entry.id}`;
  const original = safeHref(entry.url);
  return (
    <footer class="entry-actions">
      <PostForm
        action={`${base}/read`}
        csrf={ctx.csrf}
        returnTo={ctx.returnTo}
        dataAction="toggle-read"
        class="inline"
      >
        <input type="hidden" name="read" value={entry.isRead ? '0' : '1'} />
        <button type="submit" data-read-label>
          {entry.isRead ? 'Mark unread' : 'Mark read'}
        </button>
      </PostForm>
      {props.upToHere && (
        <PostForm action={`${base}/read-up-to`} csrf={ctx.csrf} returnTo={ctx.returnTo} class="inline">
          <button type="submit" title="Mark this entry and every older one of the channel read">
            Mark read up to here
          </button>
        </PostForm>
      )}
      <PostForm
        action={`${base}/remove`}
        csrf={ctx.csrf}
        returnTo={ctx.returnTo}
        dataAction="remove"
        class="inline"
      >
        <button type="submit">Remove</button>
      </PostForm>
      {original && (
        <a href={original} rel="noopener noreferrer" target="_blank" class="original">
          Original
        </a>
      )}
    </footer>
  );
}

function EntryMeta(props: { entry: TimelineEntry; ctx: EntryContext }) {
  const { entry, ctx } = props;
  const author = entry.authors.find((a) => a.name)?.name;
  const when = entryDate(entry);
  return (
    <p class="entry-meta">
      <a href={channelHref(ctx.channelUid, { feed: String(entry.feed.id) })} class="source">
        {entry.feed.title ?? entry.feed.url}
      </a>
      {author && <span class="author">{author}</span>}
      <time datetime={when} title={formatTimestamp(when)}>
        {relativeTime(when, ctx.now)}
      </time>
      {entry.isRead ? <span class="badge">read</span> : <span class="badge unread">unread</span>}
    </p>
  );
}

// Feed HTML was sanitized by the parser when it was stored: it is the one place raw() is used.
function EntryBody(props: { entry: TimelineEntry }) {
  const { entry } = props;
  const enclosures = entry.enclosures.filter((e) => safeHref(e.href));
  return (
    <div class="entry-body">
      {entry.contentHtml ? (
        <div class="entry-content">{raw(lazyImages(entry.contentHtml))}</div>
      ) : (
        <p class="entry-content text">{entry.contentText ?? entry.summary ?? ''}</p>
      )}
      {enclosures.length > 0 && (
        <ul class="enclosures">
          {enclosures.map((e) => (
            <li>
              <a href={safeHref(e.href)} rel="noopener noreferrer">
                {e.type ?? 'attachment'}: {e.href.split('/').pop()}
              </a>
            </li>
          ))}
        </ul>
      )}
    </div>
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
