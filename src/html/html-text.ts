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
  if (text.includes('<!--')) text = withoutComments(text);
  if (text.includes('<')) text = text.replace(BLOCK_TAG_RE, '\n').replace(TAG_RE, '');
  if (text.includes('&')) text = decodeHTML(text);
  return collapse(text);
}

/**
 * The text without its comments. The sanitizer keeps comments, whose data may hold `>` (`<!-- a > b -->`):
 * a comment ends at its first `-->`, as a browser reads it, not at its first `>`. A loop over indexOf
 * rather than a lazy regular expression, which is quadratic on many unclosed `<!--`.
 */
function withoutComments(html: string): string {
  const pieces: string[] = [];
  let last = 0;
  for (let open = html.indexOf('<!--'); open !== -1; open = html.indexOf('<!--', last)) {
    // `<!-->` and `<!--->` are whole (empty) comments too
    const close = html.indexOf('-->', open + 2);
    if (close === -1) break;
    pieces.push(html.slice(last, open));
    last = close + 3;
  }
  pieces.push(html.slice(last));
  return pieces.join('');
}

function collapse(text: string): string {
  // spaces collapse within lines, lines keep their breaks, and at most one blank line separates blocks
  return text.replace(SPACES_RE, ' ').replace(LINE_EDGES_RE, '\n').replace(BLANK_LINES_RE, '\n\n').trim();
}
