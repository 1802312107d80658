import {
  DocumentText,
  isElement,
  LineIndex,
  parseStrict,
  parseTolerant,
  type XmlElement,
} from '../parse/index.js';

/** A feed listed in an OPML file, with the channel (outline folder) it sits in. */
export interface OpmlFeed {
  xmlUrl: string;
  title?: string;
  htmlUrl?: string;
  /** The enclosing outline folders, outermost first, joined by " / "; undefined at the top level. */
  channel?: string;
  /** The line of its outline in the file (1-based). */
  line: number;
}

/** How nested folders are named as one channel: "Parent / Child". */
export const FOLDER_SEPARATOR = ' / ';

export interface OpmlDocument {
  title?: string;
  feeds: OpmlFeed[];
  /** Problems met: not well-formed, outlines without xmlUrl. */
  warnings: string[];
}

const LIMITS = { maxDepth: 64 };

/**
 * Reads an OPML subscription list (OPML 1.0/2.0): every outline with an xmlUrl is a feed; an outline
 * without one is a folder, which becomes a channel; nested folders become "Parent / Child".
 */
export function readOpml(text: string): OpmlDocument {
  const warnings: string[] = [];
  const strict = parseStrict(text, undefined, LIMITS);
  let root = strict.doc.root;
  if (strict.error) {
    warnings.push(`opml: not well-formed XML (${strict.error.message}); read tolerantly`);
    root = parseTolerant(text, undefined, LIMITS).root;
  }
  const doc: OpmlDocument = { feeds: [], warnings };
  if (root?.local.toLowerCase() !== 'opml') {
    warnings.push('opml: the document is not OPML (no <opml> root element)');
    return doc;
  }
  const head = childNamed(root, 'head');
  const title = head ? textOfChild(head, 'title') : undefined;
  if (title) doc.title = title;
  const body = childNamed(root, 'body');
  const lines = new LineIndex(DocumentText.of(text));
  if (body) readOutlines(body, undefined, doc, (offset) => lines.locate(offset).line);
  return doc;
}

function readOutlines(
  parent: XmlElement,
  channel: string | undefined,
  doc: OpmlDocument,
  line: (offset: number) => number,
): void {
  for (const child of parent.children) {
    if (!isElement(child) || child.local.toLowerCase() !== 'outline') continue;
    const attrs = lowerKeys(child.attrs);
    const xmlUrl = attrs['xmlurl']?.trim();
    const name = (attrs['title'] ?? attrs['text'])?.trim();
    if (xmlUrl) {
      const feed: OpmlFeed = { xmlUrl, line: line(child.offset) };
      if (name) feed.title = name;
      if (attrs['htmlurl']?.trim()) feed.htmlUrl = attrs['htmlurl'].trim();
      if (channel) feed.channel = channel;
      doc.feeds.push(feed);
    } else if (child.children.some(isElement)) {
      const path = channel && name ? `${channel}${FOLDER_SEPARATOR}${name}` : (name ?? channel);
      readOutlines(child, path, doc, line);
    } else if (name) {
      doc.warnings.push(`opml: line ${line(child.offset)}: the outline "${name}" has no xmlUrl; skipped`);
    }
  }
}

function childNamed(el: XmlElement, local: string): XmlElement | undefined {
  return el.children.find((c): c is XmlElement => isElement(c) && c.local.toLowerCase() === local);
}

function textOfChild(el: XmlElement, local: string): string | undefined {
  const child = childNamed(el, local);
  if (!child) return undefined;
  const text = child.children
    .map((c) => (isElement(c) ? '' : c.text))
    .join('')
    .trim();
  return text || undefined;
}

function lowerKeys(attrs: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key in attrs) out[key.toLowerCase()] = attrs[key] as string;
  return out;
}
