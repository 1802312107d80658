import { raw } from 'hono/html';
import {
  entryMediaOf,
  formatDuration,
  type MediaItem,
  mediaKindOf,
  pictureKey,
  pictureWidthOf,
  plausibleBytes,
} from '../../model/index.js';
import type { TimelineEntry } from '../../store/index.js';
import { contentForPage, imageSources } from './content-html.js';
import { formatBytes, safeHref } from './format.js';

/** An enclosure or a Media RSS object to show: a player, a picture or a link. */
interface Attachment {
  href: string;
  type?: string | undefined;
  kind: 'image' | 'audio' | 'video' | undefined;
  duration?: string | undefined;
  size?: string | undefined;
}

function sizeOf(bytes: string | number | undefined): string | undefined {
  const n = plausibleBytes(bytes);
  return n === undefined ? undefined : formatBytes(n);
}

/**
 * Enclosures, then Media RSS content of the same entry, each once; only http(s) URLs. A picture is shown
 * once whatever its sizes (pictureKey): not at all when the content or the thumbnail already shows it,
 * else at the largest size its URLs name (the Guardian's media:content at 140 and 460 px).
 */
function attachmentsOf(
  entry: TimelineEntry,
  items: readonly MediaItem[],
  shownPictures: Set<string>,
): Attachment[] {
  const seen = new Set<string>();
  const out: Attachment[] = [];
  const pictures = new Map<string, Attachment>();
  const add = (attachment: Attachment) => {
    if (attachment.kind !== 'image') return out.push(attachment);
    const key = pictureKey(attachment.href);
    if (shownPictures.has(key)) return;
    const known = pictures.get(key);
    if (!known) {
      pictures.set(key, attachment);
      out.push(attachment);
    } else if (pictureWidthOf(attachment.href) > pictureWidthOf(known.href)) {
      known.href = attachment.href;
      known.type = attachment.type;
      known.size = attachment.size;
    }
  };
  const itunesDuration = typeof entry.extra['duration'] === 'string' ? entry.extra['duration'] : undefined;
  for (const e of entry.enclosures) {
    const href = safeHref(e.href);
    if (!href || seen.has(href)) continue;
    seen.add(href);
    add({
      href,
      type: e.type,
      kind: mediaKindOf(e),
      duration: formatDuration(itunesDuration),
      size: sizeOf(e.length),
    });
  }
  for (const item of items) {
    const href = safeHref(item.url);
    const kind = mediaKindOf(item);
    // media:content that no browser plays (YouTube's Flash player page) is left to the thumbnail
    if (!href || seen.has(href) || kind === undefined) continue;
    seen.add(href);
    add({
      href,
      type: item.type,
      kind,
      duration: formatDuration(item.durationSeconds),
      size: sizeOf(item.bytes),
    });
  }
  return out;
}

// Feed HTML was sanitized by the parser when it was stored: it is the one place raw() is used.
/**
 * An entry's content (sanitized HTML, else its text, else its Media RSS description), its Media RSS
 * thumbnail when its content shows no picture, and its enclosures: audio and video as players (nothing is
 * loaded before play), pictures lazily, anything else as a link.
 */
export function EntryBody(props: { entry: TimelineEntry }) {
  const { entry } = props;
  const media = entryMediaOf(entry.extra);
  const text = entry.contentText ?? entry.summary ?? media?.description ?? '';
  const contentPictures = imageSources(entry.contentHtml ?? '');
  const attachments = attachmentsOf(entry, media?.items ?? [], new Set(contentPictures.map(pictureKey)));
  // the thumbnail stands for an entry whose content shows no picture (YouTube, BBC News), unless a
  // picture below shows it larger
  const thumbnail = contentPictures.length === 0 && media?.thumbnail ? safeHref(media.thumbnail) : undefined;
  const thumbnailKey = thumbnail && pictureKey(thumbnail);
  const showThumbnail =
    thumbnail && !attachments.some((a) => a.kind === 'image' && pictureKey(a.href) === thumbnailKey);
  return (
    <div class="entry-body">
      {showThumbnail && (
        <p class="media-thumbnail">
          <img loading="lazy" src={thumbnail} alt="" />
        </p>
      )}
      {entry.contentHtml ? (
        <div class="entry-content" dir="auto">
          {raw(contentForPage(entry.contentHtml))}
        </div>
      ) : (
        <p class="entry-content text" dir="auto">
          {text}
        </p>
      )}
      {attachments.length > 0 && (
        <ul class="enclosures">
          {attachments.map((a) => (
            <li>
              <AttachmentView attachment={a} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function fileName(href: string): string {
  const last = new URL(href).pathname.split('/').pop() || href;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

function AttachmentView(props: { attachment: Attachment }) {
  const a = props.attachment;
  const facts = [a.type, a.duration, a.size].filter(Boolean).join(' · ');
  const name = fileName(a.href);
  const link = (
    <a href={a.href} rel="noopener noreferrer">
      {name}
    </a>
  );
  if (a.kind === 'image') return <img loading="lazy" src={a.href} alt="" />;
  if (a.kind === 'audio' || a.kind === 'video')
    return (
      <figure class="media-player" data-media={a.kind}>
        {a.kind === 'audio' ? (
          // biome-ignore lint/a11y/useMediaCaption: feeds carry no caption tracks to offer
          <audio controls preload="none" src={a.href} />
        ) : (
          // biome-ignore lint/a11y/useMediaCaption: feeds carry no caption tracks to offer
          <video controls preload="none" src={a.href} />
        )}
        <figcaption class="media-facts">
          {link}
          {facts && ` · ${facts}`}
        </figcaption>
      </figure>
    );
  return (
    <span>
      {link}
      {facts && <span class="media-facts"> · {facts}</span>}
    </span>
  );
}
