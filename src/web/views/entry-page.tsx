import type { TimelineEntry } from '../../store/index.js';
import { EntryBody } from './entry-body.js';
import { entryHeading } from './format.js';
import { EntryActions, type EntryContext, EntryMeta, originalHref } from './reader.js';

export interface EntryPageProps {
  entry: TimelineEntry;
  ctx: EntryContext;
  /** The view it was opened from, and its title. */
  back: { href: string; title: string };
  /** The newer and the older entry of that view, when there are. */
  previousHref?: string | undefined;
  nextHref?: string | undefined;
}

/** One entry on its own page, with previous/next in the view it was opened from. */
export function EntryPage(props: EntryPageProps) {
  const { entry, ctx } = props;
  return (
    <section class="entry-page" data-timeline data-entry-page-view>
      <EntryNav {...props} />
      <article
        class={entry.isRead ? 'entry is-read' : 'entry'}
        data-entry={String(entry.id)}
        data-original={originalHref(ctx.channelUid, entry)}
      >
        <header>
          <h1 class="entry-title entry-page-title" dir="auto">
            {entryHeading(entry)}
          </h1>
          <EntryMeta entry={entry} ctx={ctx} />
        </header>
        <EntryBody entry={entry} />
        <EntryActions entry={entry} ctx={ctx} upToHere={false} readReturnTo={props.back.href} />
      </article>
      <EntryNav {...props} />
    </section>
  );
}

function EntryNav(props: EntryPageProps) {
  return (
    <nav class="pager entry-nav" aria-label="Entries">
      {props.previousHref ? (
        <a href={props.previousHref} rel="prev" data-pager="newer">
          ← Previous
        </a>
      ) : (
        <span class="muted">← Previous</span>
      )}
      <a href={props.back.href} data-back>
        {props.back.title}
      </a>
      {props.nextHref ? (
        <a href={props.nextHref} rel="next" data-pager="older">
          Next →
        </a>
      ) : (
        <span class="muted">Next →</span>
      )}
    </nav>
  );
}
