import { entryDate, entryMediaOf } from '../../model/index.js';
import type { TimelineEntry, TimelinePage } from '../../store/index.js';
import { entryHeading, formatTimestamp, relativeTime } from './format.js';
import { highlight, snippetAround } from './highlight.js';
import { entryPageHref } from './hrefs.js';
import { EntryActions, type EntryContext, originalHref } from './reader.js';

export interface SearchProps {
  query: string;
  /** The words and phrases to highlight. */
  terms: readonly string[];
  /** The channel searched, or undefined for all channels. */
  channel?: { uid: string; name: string } | undefined;
  page: TimelinePage | undefined;
  /** The next page of results, when there is one. */
  moreHref?: string | undefined;
  /** Each entry's context: the channel searched, or the first channel that follows its feed. */
  ctxOf: (entry: TimelineEntry) => EntryContext;
}

/** Search results with the matches highlighted, each with its actions. */
export function SearchView(props: SearchProps) {
  const { channel, page } = props;
  const where = channel ? channel.name : 'all channels';
  return (
    <section class="timeline search-results" data-timeline>
      <header class="timeline-head">
        <h1>Search {where}</h1>
        <form method="get" action="/search" class="search">
          {channel && <input type="hidden" name="channel" value={channel.uid} />}
          {/* focused only to type a first query: with results, the keys must reach the page (issue 22) */}
          <input
            type="search"
            name="q"
            value={props.query}
            aria-label={`Search ${where}`}
            autofocus={props.query === ''}
          />
          <button type="submit">Search</button>
        </form>
        <p class="hint">
          Every word and "quoted phrase" must appear; <code>-word</code> leaves out entries with that word.
          Chinese, Japanese and Korean text is found anywhere inside a word. OR and other operators are read
          as plain words.
        </p>
      </header>
      {page && page.entries.length === 0 && <p class="empty">Nothing matches “{props.query}”.</p>}
      <div class="entries">
        {page?.entries.map((entry) => (
          <SearchHit entry={entry} terms={props.terms} ctx={props.ctxOf(entry)} />
        ))}
      </div>
      {props.moreHref && (
        <nav class="pager">
          <a href={props.moreHref} rel="next">
            More results →
          </a>
        </nav>
      )}
    </section>
  );
}

function textOf(entry: TimelineEntry): string {
  return (
    entry.contentText ??
    entry.contentHtml?.replace(/<[^>]*>/g, ' ').replace(/&[a-z#0-9]+;/gi, ' ') ??
    entry.summary ??
    entryMediaOf(entry.extra)?.description ??
    ''
  );
}

function SearchHit(props: { entry: TimelineEntry; terms: readonly string[]; ctx: EntryContext }) {
  const { entry, terms, ctx } = props;
  // in a channel: its entry page there; across channels: the entry page of All unread
  const href = entryPageHref(ctx.scope, entry.id);
  const when = entryDate(entry);
  const snippet = snippetAround(textOf(entry), terms);
  return (
    <article
      class={entry.isRead ? 'entry hit is-read' : 'entry hit'}
      data-entry={String(entry.id)}
      data-original={originalHref(ctx.channelUid, entry)}
    >
      <h2 class="entry-title" dir="auto">
        <a href={href} data-entry-page>
          {highlight(entryHeading(entry), terms)}
        </a>
      </h2>
      <p class="entry-meta">
        <a href={`/feeds/${entry.feed.id}`} class="source">
          {entry.feed.title ?? entry.feed.url}
        </a>
        <time datetime={when} title={formatTimestamp(when)}>
          {relativeTime(when, ctx.now)}
        </time>
      </p>
      {snippet && (
        <p class="snippet" dir="auto">
          {highlight(snippet, terms)}
        </p>
      )}
      <EntryActions entry={entry} ctx={ctx} upToHere={false} />
    </article>
  );
}
