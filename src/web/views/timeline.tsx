import type { TimelineEntry, TimelinePage } from '../../store/index.js';
import { Chunk } from '../chunks.js';
import type { ReadingMode } from '../reading-mode.js';
import { EntryRow } from './entry-row.js';
import { count } from './format.js';
import { channelHref, viewHref } from './hrefs.js';
import { PostForm } from './layout.js';
import { type EntryContext, EntryView, Pager } from './reader.js';

export interface TimelineProps {
  /** The channel shown; undefined for All unread. */
  channel?: { uid: string; name: string } | undefined;
  /** Per-source view: one feed's entries. */
  source?: { id: number; title: string } | undefined;
  unreadOnly: boolean;
  page: TimelinePage;
  /** True when this is not the first page (a cursor was given). */
  paged: boolean;
  ctx: EntryContext;
  /** The context of each entry when they act in different channels (All unread). */
  ctxOf?: ((entry: TimelineEntry) => EntryContext) | undefined;
  mode: ReadingMode;
  /** A mark-all-read just done: its undo token and how many entries it changed. */
  undo?: { token: string; count: number } | undefined;
}

/** A channel's timeline (or All unread), newest first, as a river or a list, with its tools and pager. */
export function TimelineView(props: TimelineProps) {
  const { channel, source, page, ctx } = props;
  const scope = ctx.scope;
  const ctxOf = props.ctxOf ?? (() => ctx);
  return (
    <section class={`timeline mode-${props.mode}`} data-timeline data-mode={props.mode}>
      {props.undo && <UndoNotice undo={props.undo} ctx={ctx} />}
      <header class="timeline-head">
        <h1>
          {channel ? channel.name : 'All unread'}
          {source && <span class="source-name"> · {source.title}</span>}
        </h1>
        <TimelineTools {...props} />
      </header>
      {page.entries.length === 0 && (
        <p class="empty">
          {props.unreadOnly ? 'No unread entries here. Well done.' : 'No entries here yet.'}
        </p>
      )}
      <div class={props.mode === 'list' ? 'entries rows' : 'entries'}>
        {page.entries.map((entry) =>
          props.mode === 'list' ? (
            <Chunk>
              <EntryRow entry={entry} ctx={ctxOf(entry)} />
            </Chunk>
          ) : (
            // "up to here" would also mark other feeds' entries read: not offered in a per-source view
            <Chunk>
              <EntryView entry={entry} ctx={ctxOf(entry)} upToHere={!source && channel !== undefined} />
            </Chunk>
          ),
        )}
      </div>
      {channel && page.entries.length > 0 && (
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
      <Pager page={page} paged={props.paged} href={(cursor) => viewHref(scope, cursor)} />
    </section>
  );
}

/** "N entries marked read - Undo": marks exactly those entries unread again. */
function UndoNotice(props: { undo: { token: string; count: number }; ctx: EntryContext }) {
  return (
    <div class="flash undo" role="status" data-undo>
      <span>{count(props.undo.count, 'entry', 'entries')} marked read.</span>
      <PostForm
        action={`/undo/${encodeURIComponent(props.undo.token)}`}
        csrf={props.ctx.csrf}
        returnTo={props.ctx.returnTo}
        class="inline"
      >
        <button type="submit">Undo</button>
      </PostForm>
    </div>
  );
}

/** All / unread only, all sources, list or river, search in the channel, refresh, mark all read. */
function TimelineTools(props: TimelineProps) {
  const { channel, source, ctx } = props;
  const feed = source ? String(source.id) : undefined;
  const base = channel ? `/c/${encodeURIComponent(channel.uid)}` : '/all';
  return (
    <div class="tools">
      {channel && (
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
      )}
      <ModeSwitch mode={props.mode} ctx={ctx} />
      {channel && source && (
        <a href={channelHref(channel.uid, { unread: props.unreadOnly ? '1' : undefined })}>All sources</a>
      )}
      {channel && (
        <form method="get" action="/search" class="search inline">
          <input type="hidden" name="channel" value={channel.uid} />
          <input
            type="search"
            name="q"
            placeholder={`Search ${channel.name}`}
            aria-label={`Search ${channel.name}`}
          />
        </form>
      )}
      {channel && (
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
      )}
      {props.page.entries.length > 0 && (
        <PostForm
          action={`${base}/read-all`}
          csrf={ctx.csrf}
          returnTo={ctx.returnTo}
          class="inline"
          dataAction="mark-all"
        >
          {feed && <input type="hidden" name="feed" value={feed} />}
          <button type="submit" title="Mark every unread entry here read; you can undo it (shift+A)">
            {source ? 'Mark feed as read' : 'Mark all as read'}
          </button>
        </PostForm>
      )}
    </div>
  );
}

/** River (every entry in full) or list (titles): a form, remembered in a cookie. */
export function ModeSwitch(props: { mode: ReadingMode; ctx: EntryContext }) {
  const other = props.mode === 'list' ? 'river' : 'list';
  return (
    <PostForm action="/mode" csrf={props.ctx.csrf} returnTo={props.ctx.returnTo} class="inline mode-switch">
      <input type="hidden" name="mode" value={other} />
      <button type="submit" data-mode-switch title={`Show entries as a ${other}`}>
        {other === 'list' ? 'List view' : 'River view'}
      </button>
    </PostForm>
  );
}
