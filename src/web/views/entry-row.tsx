import { html } from 'hono/html';
import { entryDate, entryMediaOf } from '../../model/index.js';
import type { TimelineEntry } from '../../store/index.js';
import { entryHeading, formatTimestamp, relativeTime } from './format.js';
import { entryPageHref } from './hrefs.js';
import { attribute, PostForm } from './layout.js';
import { type EntryContext, originalHref } from './reader.js';
import { SaveForm } from './save-form.js';

const SNIPPET_CHARS = 160;

// The start of a long text that the line is looked for in first: a list page has fifty rows, and
// cleaning whole articles to keep 160 characters of each was a tenth of its time.
const PREFIX_CHARS = 4 * SNIPPET_CHARS;

/** One line of summary: the entry's summary or text, else its HTML content stripped of tags. */
export function snippetOf(entry: TimelineEntry): string {
  const text = entry.summary ?? entry.contentText;
  if (text !== undefined) return firstLine(text, (part) => part);
  if (entry.contentHtml !== undefined) return firstLine(entry.contentHtml, stripTags);
  return firstLine(entryMediaOf(entry.extra)?.description ?? '', (part) => part);
}

/**
 * The text's first SNIPPET_CHARS characters, whitespace runs as one space, `clean` applied: from its
 * start when that is long enough (whitespace and tags only shrink), else from the whole text.
 */
function firstLine(text: string, clean: (part: string, cut: boolean) => string): string {
  if (text.length > PREFIX_CHARS) {
    const line = oneLine(clean(text.slice(0, PREFIX_CHARS), true));
    if (line.length > SNIPPET_CHARS) return shortened(line);
  }
  return shortened(oneLine(clean(text, false)));
}

/** HTML as text: tags and character references as spaces; a tag or reference cut off at the end is dropped. */
function stripTags(html: string, cut: boolean): string {
  let part = html;
  if (cut) {
    const tag = part.lastIndexOf('<');
    if (tag > part.lastIndexOf('>')) part = part.slice(0, tag);
    const reference = part.lastIndexOf('&');
    if (reference > part.lastIndexOf(';')) part = part.slice(0, reference);
  }
  return part.replace(/<[^>]*>/g, ' ').replace(/&[a-z#0-9]+;/gi, ' ');
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function shortened(line: string): string {
  return line.length > SNIPPET_CHARS ? `${line.slice(0, SNIPPET_CHARS - 1)}…` : line;
}

/**
 * A row of the list of titles: unread dot, title (to the entry's page), source, time, a line of summary,
 * Save. No dot for a saved entry whose feed no channel follows (no read state to change). An html
 * template (its values escaped as JSX escapes them, the same HTML): a list page has fifty rows.
 */
export function EntryRow(props: { entry: TimelineEntry; ctx: EntryContext }) {
  const { entry, ctx } = props;
  const when = entryDate(entry);
  const readLabel = entry.isRead ? 'Mark unread' : 'Mark read';
  const dot =
    ctx.channelUid === ''
      ? ''
      : PostForm({
          action: `/c/${encodeURIComponent(ctx.channelUid)}/entries/${entry.id}/read`,
          csrf: ctx.csrf,
          returnTo: ctx.returnTo,
          dataAction: 'toggle-read',
          class: 'inline dot-form',
          children: html`<input type="hidden" name="read" value="${entry.isRead ? '0' : '1'}"/><button type="submit" class="dot" data-read-dot="true" title="${readLabel}"><span class="visually-hidden">${readLabel}</span></button>`,
        });
  const save = SaveForm({ entry, csrf: ctx.csrf, returnTo: ctx.returnTo, class: 'row-save' });
  const original = attribute('data-original', originalHref(ctx.channelUid, entry));
  return html`<article class="${entry.isRead ? 'entry row is-read' : 'entry row'}" data-entry="${String(entry.id)}"${original}>${dot}<a class="row-link" href="${entryPageHref(ctx.scope, entry.id)}" data-entry-page="true"><span class="row-title" dir="auto">${entryHeading(entry)}</span><span class="row-snippet" dir="auto">${snippetOf(entry)}</span></a><span class="row-source">${entry.feed.title ?? entry.feed.url}</span><time${attribute('datetime', when)} title="${formatTimestamp(when)}">${relativeTime(when, ctx.now)}</time>${save}</article>`;
}
