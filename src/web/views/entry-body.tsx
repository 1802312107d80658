import { raw } from 'hono/html';
import type { TimelineEntry } from '../../store/reader.js';
import { lazyImages, safeHref } from './format.js';

// Feed HTML was sanitized by the parser when it was stored: it is the one place raw() is used.
/** An entry's content (sanitized HTML, else its text) and its enclosures. */
export function EntryBody(props: { entry: TimelineEntry }) {
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
