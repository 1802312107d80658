import { entryDate } from '../../model/entry-date.js';
import { entryMediaOf } from '../../model/media.js';
import type { TimelineEntry } from '../../store/reader.js';
import { entryHeading, formatTimestamp, relativeTime } from './format.js';
import { entryPageHref } from './hrefs.js';
import { PostForm } from './layout.js';
import type { EntryContext } from './reader.js';
import { SaveForm } from './save-form.js';

const SNIPPET_CHARS = 160;

/** One line of summary: the entry's summary or text, else its HTML content stripped of tags. */
export function snippetOf(entry: TimelineEntry): string {
  const text =
    entry.summary ??
    entry.contentText ??
    entry.contentHtml?.replace(/<[^>]*>/g, ' ').replace(/&[a-z#0-9]+;/gi, ' ') ??
    entryMediaOf(entry.extra)?.description ??
    '';
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > SNIPPET_CHARS ? `${line.slice(0, SNIPPET_CHARS - 1)}…` : line;
}

/**
 * A row of the list of titles: unread dot, title (to the entry's page), source, time, a line of summary,
 * Save. No dot for a saved entry whose feed no channel follows (no read state to change).
 */
export function EntryRow(props: { entry: TimelineEntry; ctx: EntryContext }) {
  const { entry, ctx } = props;
  const when = entryDate(entry);
  return (
    <article class={entry.isRead ? 'entry row is-read' : 'entry row'} data-entry={String(entry.id)}>
      {ctx.channelUid !== '' && (
        <PostForm
          action={`/c/${encodeURIComponent(ctx.channelUid)}/entries/${entry.id}/read`}
          csrf={ctx.csrf}
          returnTo={ctx.returnTo}
          dataAction="toggle-read"
          class="inline dot-form"
        >
          <input type="hidden" name="read" value={entry.isRead ? '0' : '1'} />
          <button type="submit" class="dot" data-read-dot title={entry.isRead ? 'Mark unread' : 'Mark read'}>
            <span class="visually-hidden">{entry.isRead ? 'Mark unread' : 'Mark read'}</span>
          </button>
        </PostForm>
      )}
      <a class="row-link" href={entryPageHref(ctx.scope, entry.id)} data-entry-page>
        <span class="row-title">{entryHeading(entry)}</span>
        <span class="row-snippet">{snippetOf(entry)}</span>
      </a>
      <span class="row-source">{entry.feed.title ?? entry.feed.url}</span>
      <time datetime={when} title={formatTimestamp(when)}>
        {relativeTime(when, ctx.now)}
      </time>
      <SaveForm entry={entry} csrf={ctx.csrf} returnTo={ctx.returnTo} class="row-save" />
    </article>
  );
}
