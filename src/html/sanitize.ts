// The HTML sanitizer: one streaming pass over a tokenizer (sanitize-scan.ts, no DOM), writing an
// allowlisted copy of the markup with relative URLs resolved. Its output reproduces the Universal Feed
// Parser's (wellformed/sanitize/*.xml, wellformed/base/*.xml) except where that output would be unsafe
// or unbalanced: a `<` in text is always escaped (also an unclosed tag or `<!DOCTYPE` at the very end),
// elements left open at the end are closed, end tags that close nothing are dropped, every URL-valued
// attribute (not only href) must have a safe scheme, and comments that contain `</` are dropped.
// Stricter still, for pages without tidings' CSP (issue 12): no forms or form controls, no SVG
// animation or foreignObject, nothing outside the SVG or MathML vocabulary inside them (an HTML tag that
// leaves SVG in a browser closes it here too), no noscript or template, textarea and xmp content only
// as text, and no attribute at all whose value is a javascript:, vbscript: or data: URL.
// htmlparser2's Parser is not used: its element stack costs O(depth) per tag (a megabyte of nested
// <div> took seconds); this one is bounded.

import { keepShape } from './keep-shape.js';
import {
  BREAKOUT_ELEMENTS,
  DROPPED_WITH_CONTENT_ELEMENTS,
  HIDDEN_CONTENT_ELEMENTS,
  INTEGRATION_POINTS,
  RAW_TEXT_ELEMENTS,
  TEXT_ONLY_ELEMENTS,
  VOID_ELEMENTS,
} from './sanitize-allowlist.js';
import {
  closeElement,
  closeImplied,
  copySource,
  createState,
  endsDrop,
  finishOutput,
  leaveForeignContent,
  type SanitizeState,
  startDrop,
  stripPython,
  writeMarkup,
  writeText,
} from './sanitize-output.js';
import { scanHtml } from './sanitize-scan.js';
import { Quote, type ScanSink } from './sanitize-scan-sink.js';
import { DROP_WITH_CONTENT, type SanitizedTag, StartTag, sanitizeStartTag } from './sanitize-tag.js';
import { escapeText } from './sanitize-text.js';

export interface SanitizeOptions {
  baseUrl?: string;
  /** Told what the sanitizer cut for a limit, so that the caller can say so in a diagnostic. */
  report?: SanitizeReport;
}

/** What one or more sanitizeHtml calls dropped because of a limit (counts add up across calls). */
export interface SanitizeReport {
  /** Attributes past the first MAX_ATTRIBUTES of a tag. */
  droppedAttributes: number;
}

/**
 * Attributes one tag keeps; the rest are skipped unread. One tag with 40,000 attributes took seconds
 * once (issue 12); no real markup comes near this.
 */
export const MAX_ATTRIBUTES = 1024;

/** Open elements kept at most; deeper start tags are dropped (their text is kept). */
const MAX_DEPTH = 256;
/** How deep the content of raw-text elements (iframe, title, ...) is read again as markup. */
const MAX_REREAD_DEPTH = 4;
/** Unclosed comments recovered by the `--...>` rule at most; after that the rest is dropped. */
const MAX_COMMENT_RECOVERIES = 16;

/** Returns the HTML with everything not on the allowlist removed and relative URLs resolved against baseUrl. */
export function sanitizeHtml(html: string, options: SanitizeOptions = {}): string {
  const hasCarriageReturn = html.includes('\r');
  if (!html.includes('<') && !html.includes('&')) {
    const stripped = stripPython(html);
    return hasCarriageReturn ? stripped.replace(/\r\n/g, '\n') : stripped;
  }
  const state = createState(options.baseUrl === '' ? undefined : options.baseUrl);
  try {
    readMarkup(state, prepare(html));
  } catch {
    // The tokenizer throws on no input known; should it, what was written so far stands.
  }
  if (options.report !== undefined) options.report.droppedAttributes += state.droppedAttributes;
  return finishOutput(state, hasCarriageReturn);
}

// The Universal Feed Parser turns `<![CDATA[` and any `<!` that starts neither a doctype nor a comment
// into text before parsing (sanitize/item_content_encoded_cdata.xml; sgmllib has no bogus comments).
function prepare(html: string): string {
  if (!html.includes('<!')) return html;
  const text = html.includes('<![CDATA[') ? html.replace(/<!\[CDATA\[/g, '&lt;![CDATA[') : html;
  return text.replace(/<!(?!doctype|--|\[)/gi, '&lt;!');
}

/** Tokenizes one string into the shared state. */
function readMarkup(state: SanitizeState, input: string): void {
  scanHtml(input, new MarkupPass(state, input));
}

/** Scanner callbacks for one string; indices are into `input`. */
class MarkupPass implements ScanSink {
  private tagName = '';
  /** The start tag being read. */
  private readonly tag: StartTag;
  /** Set while the tokenizer reads the content of a raw-text element. */
  private rawText: string | undefined;
  /** Whether the start tag being read will switch the tokenizer to raw text. */
  private opensRawText = false;
  /** Everything before this index has been reported by an event. */
  private consumed = 0;
  /** Where the next `&` and `<` are in the input (at or after the last text event's start). */
  private nextAmp = -1;
  private nextLt = -1;

  constructor(
    private readonly state: SanitizeState,
    private readonly input: string,
  ) {
    this.tag = new StartTag(input);
  }

  // Inside SVG and MathML, <title> and <style> are ordinary elements, not raw text.
  isInForeignContext(): boolean {
    return this.state.svgDepth > 0 || this.state.mathDepth > 0;
  }

  ontext(start: number, end: number): void {
    this.consumed = end;
    if (this.state.dropKey !== undefined) return;
    if (this.rawText !== undefined) this.onRawText(start, end);
    else if (this.state.hiddenDepth === 0) this.copyText(start, end);
  }

  // Most text has no `&` or `<`: find the next of each with indexOf, remembered across text events so
  // that the search stays linear over the whole input.
  private copyText(start: number, end: number): void {
    const input = this.input;
    if (this.nextAmp < start) this.nextAmp = indexOrLength(input, '&', start);
    if (this.nextLt < start) this.nextLt = indexOrLength(input, '<', start);
    if (this.nextAmp >= end && this.nextLt >= end) copySource(this.state, input, start, end);
    else writeText(this.state, escapeText(input, start, end));
  }

  onopentagname(start: number, end: number): void {
    this.tag.start = start - 1;
    this.tagName = this.nameAt(start, end, this.tagName);
    this.tag.length = 0;
    this.opensRawText = RAW_TEXT_ELEMENTS.has(this.tagName) && !this.isInForeignContext();
  }

  /**
   * The lower-cased name written at input[start, end). Usually it is the name expected (an end tag
   * closes the element on top, `<td>` follows `<td>`), which is then reused rather than sliced again.
   */
  private nameAt(start: number, end: number, expected: string | undefined): string {
    if (expected !== undefined && end - start === expected.length && this.input.startsWith(expected, start))
      return expected;
    return this.input.slice(start, end).toLowerCase();
  }

  onattribute(nameStart: number, nameEnd: number, valueStart: number, valueEnd: number, quote: Quote): void {
    if (this.tag.length >= MAX_ATTRIBUTES) {
      this.state.droppedAttributes++;
      return;
    }
    const { input } = this;
    const written = input.slice(nameStart, nameEnd);
    const name = written.toLowerCase();
    // The SGML parser gives a valueless attribute its own name as value: <input checked> keeps checked="checked".
    const value = quote === Quote.None ? written : input.slice(valueStart, valueEnd);
    const isPlain =
      quote === Quote.Double &&
      name === written &&
      input.charCodeAt(nameStart - 1) === 0x20 &&
      valueStart === nameEnd + 2;
    this.tag.add(name, value, isPlain ? nameStart - 1 : -1, valueEnd + 1);
  }

  onopentagend(end: number, selfClosing: boolean): void {
    this.consumed = end + 1;
    this.tag.end = end + 1;
    this.openElement(selfClosing);
  }

  onclosetag(start: number, end: number, gt: number): void {
    this.consumed = gt + 1;
    const name = this.nameAt(start, end, this.state.openKeys[this.state.openKeys.length - 1]);
    if (name === this.rawText) this.rawText = undefined;
    if (this.state.dropKey !== undefined && !endsDrop(this.state, name)) return;
    closeElement(this.state, name, this.input, start - 2, gt + 1);
  }

  oncomment(start: number, end: number, endOffset: number): void {
    this.consumed = Math.min(end + 1, this.input.length);
    if (this.state.dropKey !== undefined) return;
    const input = this.input;
    if (start >= 4 && input.startsWith('<!--', start - 4)) {
      if (input.charCodeAt(end) === 0x3e) this.writeComment(start, Math.max(start, end - endOffset));
      else this.recoverUnclosedComment(start);
    } else if (start >= 2 && input.startsWith('</', start - 2)) {
      // `</ b>`: the SGML parser reads an end tag where HTML sees a bogus comment.
      closeElement(this.state, input.slice(start, end).trim().toLowerCase());
    }
    // Anything else is a processing instruction or a marked section: dropped, as before.
  }

  ondeclaration(end: number): void {
    this.consumed = end + 1;
  }

  // An unclosed start tag, end tag or doctype at the very end is left unread by the tokenizer; the
  // Universal Feed Parser keeps it as text (sanitize/xml_declaration_unexpected_character.xml). Before
  // the tokenizer of sanitize-scan.ts, a cut-off end tag (`</b `) came out twice.
  onend(): void {
    const state = this.state;
    if (this.consumed < this.input.length && state.hiddenDepth === 0 && state.dropKey === undefined) {
      writeText(this.state, escapeText(this.input, this.consumed, this.input.length));
    }
  }

  private openElement(selfClosing: boolean): void {
    const state = this.state;
    const name = this.tagName;
    if (this.opensRawText) this.rawText = name;
    const isVoid = VOID_ELEMENTS.has(name);
    let foreign = this.isInForeignContext();
    // In SVG and MathML `/>` ends the element; in HTML a browser ignores the `/`.
    const hasContent = !isVoid && !(selfClosing && foreign);
    if (state.dropKey !== undefined) {
      if (name === state.dropKey && hasContent) state.dropNesting++;
      return;
    }
    if (!isVoid && !HIDDEN_CONTENT_ELEMENTS.has(name) && state.openKeys.length >= MAX_DEPTH) {
      if (hasContent && (foreign || DROPPED_WITH_CONTENT_ELEMENTS.has(name))) startDrop(state, name);
      return;
    }
    if (foreign && BREAKOUT_ELEMENTS.has(name)) {
      leaveForeignContent(state);
      foreign = false;
    } else if (foreign && INTEGRATION_POINTS.has(state.openKeys[state.openKeys.length - 1] ?? '')) {
      // `<svg><title><a>` is an HTML a to a browser, an SVG one to a sanitizer reading SVG: keep the text only.
      if (hasContent && (HIDDEN_CONTENT_ELEMENTS.has(name) || DROPPED_WITH_CONTENT_ELEMENTS.has(name)))
        startDrop(state, name);
      return;
    }
    // The Universal Feed Parser reads `<span/>` as `<span></span>`, but only without attributes:
    // `<span class="a"/>` stays open.
    const endsInForeign = selfClosing && foreign && !isVoid;
    const endsInHtml = selfClosing && !foreign && !isVoid && this.tag.length === 0;
    const depths = state.svgDepth + state.mathDepth;
    const tag = sanitizeStartTag(state, name, this.tag);
    if (tag === DROP_WITH_CONTENT) {
      if (hasContent) startDrop(state, name);
      return;
    }
    if (tag !== undefined) {
      // Only a tag written closes elements implicitly: `<p>a<form>b` keeps b in the paragraph.
      if (!foreign) closeImplied(state, name);
      this.writeStartTag(tag, endsInForeign);
      state.selfClosePending = endsInForeign;
      if (isVoid || endsInForeign || endsInHtml) {
        // Not left open: an <svg/> or <math/> that opened SVG or MathML closes it again.
        if (state.svgDepth + state.mathDepth > depths) {
          if (name === 'svg') state.svgDepth--;
          else state.mathDepth--;
        }
      } else {
        state.openKeys.push(name);
        state.openNames.push(tag.name);
      }
      if (endsInHtml) writeMarkup(state, `</${tag.name}>`);
    }
    if (endsInHtml && HIDDEN_CONTENT_ELEMENTS.has(name)) state.hiddenDepth--;
  }

  private writeStartTag({ markup }: SanitizedTag, endsInForeign: boolean): void {
    const { input, start, end } = this.tag;
    if (markup === undefined || (end - start === markup.length && input.startsWith(markup, start)))
      copySource(this.state, input, start, end);
    else writeMarkup(this.state, endsInForeign ? markup.slice(0, -1) : markup);
  }

  private onRawText(start: number, end: number): void {
    const state = this.state;
    if (state.hiddenDepth !== 0) return;
    // Shown content of a raw-text element is markup to the SGML parser: read it again as such. Not
    // that of textarea, xmp and plaintext, which a browser shows as text: as text it stays.
    if (state.rereadDepth >= MAX_REREAD_DEPTH || TEXT_ONLY_ELEMENTS.has(this.rawText ?? '')) {
      writeText(state, escapeText(this.input, start, end));
      return;
    }
    state.rereadDepth++;
    readMarkup(state, this.input.slice(start, end));
    state.rereadDepth--;
    // A drop left open in the content ends with it: `<iframe><noscript></iframe>` hides nothing after.
    state.dropKey = undefined;
  }

  private writeComment(start: number, end: number): void {
    // Comments are kept (sanitize/entry_content_crazy.xml): `-->` ends them, so they hide no markup in
    // ordinary HTML. But in textarea, noscript, or a title that a browser takes out of SVG, the content
    // is raw text that `</` can end, after which the rest of the comment would be live markup.
    const data = this.input.slice(start, end);
    if (!data.includes('</')) writeMarkup(this.state, `<!--${data}-->`);
  }

  // An unclosed comment is dropped, but `<!-- -- x >` counts as closed by its `--...>` like the
  // Universal Feed Parser reads it (sanitize/xml_malicious_comment.xml, xml_unclosed_comment.xml).
  private recoverUnclosedComment(start: number): void {
    const state = this.state;
    // The first `--` followed (anywhere later) by a `>`: the leftmost match of /--[^>]*>/, found in
    // linear time (the regex itself is quadratic on `<!--<!--<!--...`).
    const dashes = this.input.indexOf('--', start);
    const gt = dashes === -1 ? -1 : this.input.indexOf('>', dashes + 2);
    if (gt === -1 || state.commentRecoveries >= MAX_COMMENT_RECOVERIES) return;
    state.commentRecoveries++;
    readMarkup(state, this.input.slice(gt + 1));
  }
}

function indexOrLength(text: string, search: string, from: number): number {
  const index = text.indexOf(search, from);
  return index === -1 ? text.length : index;
}

keepShape(new MarkupPass(createState(undefined), ''));
