import type { TimelinePage } from '../../store/reader.js';
import { PostForm } from './layout.js';
import { channelHref, type EntryContext, EntryView, Pager } from './reader.js';

export interface TimelineProps {
  channel: { uid: string; name: string };
  /** Per-source view: one feed's entries. */
  source?: { id: number; title: string } | undefined;
  unreadOnly: boolean;
  page: TimelinePage;
  /** True when this is not the first page (a cursor was given). */
  paged: boolean;
  ctx: EntryContext;
}

/** A channel's timeline, newest first, with its tools and pager. */
export function TimelineView(props: TimelineProps) {
  const { channel, source, page, ctx } = props;
  const feed = source ? String(source.id) : undefined;
  const unread = props.unreadOnly ? '1' : undefined;
  return (
    <section class="timeline" data-timeline>
      <header class="timeline-head">
        <h1>
          {channel.name}
          {source && <span class="source-name"> · {source.title}</span>}
        </h1>
        <TimelineTools {...props} />
      </header>
      {page.entries.length === 0 && (
        <p class="empty">
          {props.unreadOnly ? 'No unread entries here. Well done.' : 'No entries here yet.'}
        </p>
      )}
      <div class="entries">
        {page.entries.map((entry) => (
          // "up to here" would also mark other feeds' entries read: not offered in a per-source view
          <EntryView entry={entry} ctx={ctx} upToHere={!source} />
        ))}
      </div>
      {page.entries.length > 0 && (
        <PostForm
          action={`/c/${encodeURIComponent(channel.uid)}/read-page`}
          csrf={ctx.csrf}
          returnTo={ctx.returnTo}
          class="page-read"
        >
          {page.entries.map((e) => (
            <input type="hidden" name="ids" value={String(e.id)} />
          ))}
          <button type="submit">Mark this page read</button>
        </PostForm>
      )}
      <Pager
        page={page}
        paged={props.paged}
        href={(cursor) => channelHref(channel.uid, { feed, unread, ...cursor })}
      />
    </section>
  );
}

/** All / unread only, all sources, search in the channel, refresh, mark all read. */
function TimelineTools(props: TimelineProps) {
  const { channel, source, ctx } = props;
  const feed = source ? String(source.id) : undefined;
  const top = props.page.entries[0];
  const base = `/c/${encodeURIComponent(channel.uid)}`;
  return (
    <div class="tools">
      <span class="toggle">
        <a href={channelHref(channel.uid, { feed })} aria-current={props.unreadOnly ? undefined : 'page'}>
          All
        </a>
        <a
          href={channelHref(channel.uid, { feed, unread: '1' })}
          aria-current={props.unreadOnly ? 'page' : undefined}
        >
          Unread only
        </a>
      </span>
      {source && (
        <a href={channelHref(channel.uid, { unread: props.unreadOnly ? '1' : undefined })}>All sources</a>
      )}
      <form method="get" action="/search" class="search inline">
        <input type="hidden" name="channel" value={channel.uid} />
        <input
          type="search"
          name="q"
          placeholder={`Search ${channel.name}`}
          aria-label={`Search ${channel.name}`}
        />
      </form>
      <PostForm
        action={`${base}/refresh`}
        csrf={ctx.csrf}
        returnTo={ctx.returnTo}
        class="inline"
        dataAction="refresh"
      >
        {feed && <input type="hidden" name="feed" value={feed} />}
        <button type="submit" title="Fetch this channel's feeds now (r)">
          Refresh
        </button>
      </PostForm>
      {top && !source && (
        <PostForm
          action={`${base}/entries/${top.id}/read-up-to`}
          csrf={ctx.csrf}
          returnTo={ctx.returnTo}
          class="inline"
        >
          <button type="submit" title="Mark every entry of this channel read, up to the newest shown">
            Mark all as read
          </button>
        </PostForm>
      )}
    </div>
  );
}
