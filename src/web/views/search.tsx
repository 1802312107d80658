import { entryDate } from '../../model/entry-date.js';
import type { TimelineEntry, TimelinePage } from '../../store/reader.js';
import { entryHeading, formatTimestamp, relativeTime, safeHref } from './format.js';
import { type EntryContext, EntryView } from './reader.js';

export interface SearchProps {
  query: string;
  /** The channel searched, or undefined for all channels. */
  channel?: { uid: string; name: string } | undefined;
  page: TimelinePage | undefined;
  /** The next page of results, when there is one. */
  moreHref?: string | undefined;
  ctx: EntryContext;
}

/** Search results: full entries with their actions inside a channel, a compact list across all. */
export function SearchView(props: SearchProps) {
  const { channel, page } = props;
  const where = channel ? channel.name : 'all channels';
  return (
    <section class="timeline search-results">
      <header class="timeline-head">
        <h1>Search {where}</h1>
        <form method="get" action="/search" class="search">
          {channel && <input type="hidden" name="channel" value={channel.uid} />}
          <input type="search" name="q" value={props.query} aria-label={`Search ${where}`} autofocus />
          <button type="submit">Search</button>
        </form>
      </header>
      {page && page.entries.length === 0 && <p class="empty">Nothing matches “{props.query}”.</p>}
      <div class="entries">
        {page?.entries.map((entry) =>
          channel ? (
            <EntryView entry={entry} ctx={props.ctx} />
          ) : (
            <SearchHit entry={entry} now={props.ctx.now} />
          ),
        )}
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

function SearchHit(props: { entry: TimelineEntry; now: Date }) {
  const { entry } = props;
  const href = safeHref(entry.url);
  const when = entryDate(entry);
  return (
    <article class="entry hit" data-entry={String(entry.id)}>
      <h2 class="entry-title">
        {href ? (
          <a href={href} target="_blank" rel="noopener noreferrer" data-open>
            {entryHeading(entry)}
          </a>
        ) : (
          entryHeading(entry)
        )}
      </h2>
      <p class="entry-meta">
        <a href={`/feeds/${entry.feed.id}`} class="source">
          {entry.feed.title ?? entry.feed.url}
        </a>
        <time datetime={when} title={formatTimestamp(when)}>
          {relativeTime(when, props.now)}
        </time>
      </p>
      {(entry.summary ?? entry.contentText) && (
        <p class="snippet">{(entry.summary ?? entry.contentText ?? '').slice(0, 300)}</p>
      )}
    </article>
  );
}
