import type { TimelineEntry, TimelinePage } from '../../store/index.js';
import { Chunk } from '../chunks.js';
import type { ReadingMode } from '../reading-mode.js';
import { EntryRow } from './entry-row.js';
import { viewHref } from './hrefs.js';
import { type EntryContext, EntryView, Pager } from './reader.js';
import { ModeSwitch } from './timeline.js';

export interface SavedViewProps {
  page: TimelinePage;
  /** True when this is not the first page (a cursor was given). */
  paged: boolean;
  ctx: EntryContext;
  /** Each entry's context: the channel it acts in ('' when no channel follows its feed any more). */
  ctxOf: (entry: TimelineEntry) => EntryContext;
  mode: ReadingMode;
}

/** The Saved view: starred entries, the most recently saved first, as a river or a list, with its pager. */
export function SavedView(props: SavedViewProps) {
  const { page, ctx } = props;
  return (
    <section class={`timeline mode-${props.mode}`} data-timeline data-mode={props.mode} data-saved-view>
      <header class="timeline-head">
        <h1>Saved</h1>
        <div class="tools">
          <ModeSwitch mode={props.mode} ctx={ctx} />
        </div>
      </header>
      {page.entries.length === 0 && (
        <p class="empty">
          Nothing saved{props.paged ? ' here' : ' yet'}. Press s or Save on an entry to keep it here.
        </p>
      )}
      <div class={props.mode === 'list' ? 'entries rows' : 'entries'}>
        {page.entries.map((entry) =>
          props.mode === 'list' ? (
            <Chunk>
              <EntryRow entry={entry} ctx={props.ctxOf(entry)} />
            </Chunk>
          ) : (
            <Chunk>
              <EntryView entry={entry} ctx={props.ctxOf(entry)} upToHere={false} />
            </Chunk>
          ),
        )}
      </div>
      <Pager page={page} paged={props.paged} href={(cursor) => viewHref(ctx.scope, cursor)} />
    </section>
  );
}
