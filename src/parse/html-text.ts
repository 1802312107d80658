import { decodeHTML } from 'entities/decode';

// Elements after which text continues on a new line, so that words of two paragraphs do not run together.
const BLOCK_TAG_RE =
  /<\/?(?:address|article|aside|blockquote|br|dd|div|dl|dt|figcaption|figure|footer|h[1-6]|header|hr|li|ol|p|pre|section|table|tr|ul)\b[^>]*>/gi;
const TAG_RE = /<[^>]*>/g;
// Only runs that change: a lone space (one per word) is left alone rather than replaced by itself,
// which made this the costliest step of turning a document into entries (bench:poll profile).
const SPACES_RE = / [ \t\r\f\v\u00a0]+|[\t\r\f\v\u00a0][ \t\r\f\v\u00a0]*/g;
const LINE_EDGES_RE = / \n ?|\n /g;
const BLANK_LINES_RE = /\n{3,}/g;

/**
 * The text of HTML that `sanitizeHtml` wrote, as a reader sees it: tags removed, entities decoded,
 * block elements on their own lines, runs of white space collapsed. Used for summaries, search and jf2
 * `content.text`. Sanitized HTML has no script or style content and escapes every `<` and `>` in text
 * and attribute values, so every `<` starts a tag and the next `>` ends it: two regular expressions do
 * what a full HTML parser did at a fifth of the cost (bench:poll spent 2 s of a 1,000-feed round here).
 */
export function htmlToText(html: string): string {
  let text = html;
  if (text.includes('<')) text = text.replace(BLOCK_TAG_RE, '\n').replace(TAG_RE, '');
  if (text.includes('&')) text = decodeHTML(text);
  return collapse(text);
}

function collapse(text: string): string {
  // spaces collapse within lines, lines keep their breaks, and at most one blank line separates blocks
  return text.replace(SPACES_RE, ' ').replace(LINE_EDGES_RE, '\n').replace(BLANK_LINES_RE, '\n\n').trim();
}
