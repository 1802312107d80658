// The sanitizer's output: the markup written so far and the stack of elements left open in it. Output
// is built with `+=` (V8 ropes; faster than joining an array) and never read back while it is built, so
// that it is flattened once, by whoever uses it. Runs of input that come out unchanged (plain text, most
// tags) are copied as one slice rather than token by token: fewer, larger pieces cost less to build and
// to keep (bench:parse, speed and peak memory).

import { HIDDEN_CONTENT_ELEMENTS, IMPLIED_CLOSES } from './sanitize-allowlist.js';
import type { TagContext } from './sanitize-tag.js';

export interface SanitizeState extends TagContext {
  out: string;
  /** White space ending the last text written, held back so that the end need not be stripped. */
  pendingSpace: string;
  /** An SVG or MathML start tag written without its `>` because it ended with `/>` (see writeMarkup). */
  selfClosePending: boolean;
  /** Open elements written, lower-cased (to match end tags) and as written (to close them). */
  openKeys: string[];
  openNames: string[];
  /** How deep raw-text content is being read again as markup. */
  rereadDepth: number;
  commentRecoveries: number;
  /** Attributes read past MAX_ATTRIBUTES in one tag, dropped unread. */
  droppedAttributes: number;
  /** The element being dropped with its content (see DROPPED_WITH_CONTENT_ELEMENTS), and how many of its name are open in it. */
  dropKey: string | undefined;
  dropNesting: number;
  /** A run of input that comes out as it is, not yet written: source[sourceStart, sourceEnd). */
  source: string;
  sourceStart: number;
  sourceEnd: number;
}

/** A fresh state for one sanitizeHtml call. */
export function createState(baseUrl: string | undefined): SanitizeState {
  return {
    baseUrl,
    hiddenDepth: 0,
    svgDepth: 0,
    mathDepth: 0,
    out: '',
    pendingSpace: '',
    selfClosePending: false,
    openKeys: [],
    openNames: [],
    rereadDepth: 0,
    commentRecoveries: 0,
    droppedAttributes: 0,
    dropKey: undefined,
    dropNesting: 0,
    source: '',
    sourceStart: 0,
    sourceEnd: 0,
  };
}

/** Copies input[start, end), text or markup that comes out unchanged, to the output. */
export function copySource(state: SanitizeState, input: string, start: number, end: number): void {
  if (state.sourceEnd === start && state.sourceEnd > state.sourceStart && state.source === input) {
    state.sourceEnd = end;
    return;
  }
  flushSource(state);
  if (state.selfClosePending) {
    // What follows decides how the pending tag ends (see flushPending): write it token by token.
    const piece = input.slice(start, end);
    if (piece.charCodeAt(0) === 0x3c) writeMarkup(state, piece);
    else writeText(state, piece);
    return;
  }
  state.source = input;
  state.sourceStart = start;
  state.sourceEnd = end;
}

// A run holds no pending `/>` (copySource writes around one), so it follows the rules of text: markup
// never starts or ends with white space.
function flushSource(state: SanitizeState): void {
  if (state.sourceEnd <= state.sourceStart) return;
  const run = state.source.slice(state.sourceStart, state.sourceEnd);
  state.sourceEnd = state.sourceStart;
  writeText(state, run);
}

/**
 * Writes text (already escaped). White space before anything else is dropped and white space at the
 * end is held back until something follows, which strips the output as Python's strip() would.
 */
export function writeText(state: SanitizeState, text: string): void {
  flushSource(state);
  let end = text.length;
  while (end > 0 && isPythonSpace(text.charCodeAt(end - 1))) end--;
  if (end === 0) {
    if (state.out !== '') state.pendingSpace += text;
    return;
  }
  let start = 0;
  if (state.out === '') {
    while (isPythonSpace(text.charCodeAt(start))) start++;
  } else {
    flushPending(state, false);
  }
  state.out += start === 0 && end === text.length ? text : text.slice(start, end);
  if (end < text.length) state.pendingSpace = text.slice(end);
}

/** Writes a tag or a comment. */
export function writeMarkup(state: SanitizeState, markup: string): void {
  flushSource(state);
  flushPending(state, markup.charCodeAt(1) === 0x2f);
  state.out += markup;
}

// `<circle/>` in SVG is written `<circle>` by the Universal Feed Parser (namespace/rss2.0svg.xml), which
// is right before the parent's end tag only: a browser would nest the next sibling inside the circle.
// So the `>` waits: `>` before an end tag, ` />` before anything else.
function flushPending(state: SanitizeState, isEndTag: boolean): void {
  if (state.selfClosePending) {
    state.out += isEndTag ? '>' : ' />';
    state.selfClosePending = false;
  }
  if (state.pendingSpace !== '') {
    state.out += state.pendingSpace;
    state.pendingSpace = '';
  }
}

/** Closes the innermost open element; its end tag is copied from input[start, end) when written the same. */
export function closeTop(state: SanitizeState, input?: string, start = 0, end = 0): void {
  const key = state.openKeys.pop();
  const name = state.openNames.pop() as string;
  if (key === 'svg') state.svgDepth--;
  else if (key === 'math') state.mathDepth--;
  if (input !== undefined && isEndTagOf(name, input, start, end)) copySource(state, input, start, end);
  else writeMarkup(state, `</${name}>`);
}

/** True when input[start, end) is exactly `</name>`. */
function isEndTagOf(name: string, input: string, start: number, end: number): boolean {
  return (
    end - start === name.length + 3 &&
    input.startsWith('</', start) &&
    input.startsWith(name, start + 2) &&
    input.charCodeAt(end - 1) === 0x3e
  );
}

/** Starts dropping an element with everything up to its end tag. */
export function startDrop(state: SanitizeState, name: string): void {
  state.dropKey = name;
  state.dropNesting = 1;
}

/**
 * While an element is dropped with its content: whether the end tag `name` ends the drop and is then
 * handled as usual. Its own end tag ends it once the elements of its name opened inside it are closed
 * (and is dropped too); the end tag of an element open around it ends it as well (`<svg><set></svg>`).
 */
export function endsDrop(state: SanitizeState, name: string): boolean {
  if (name === state.dropKey) {
    state.dropNesting--;
    if (state.dropNesting === 0) state.dropKey = undefined;
    return false;
  }
  if (state.openKeys.lastIndexOf(name) === -1) return false;
  state.dropKey = undefined;
  return true;
}

/** Closes the SVG and MathML elements open, and what is open inside them (a breakout tag follows). */
export function leaveForeignContent(state: SanitizeState): void {
  while (state.svgDepth + state.mathDepth > 0 && state.openKeys.length > 0) closeTop(state);
  state.svgDepth = 0;
  state.mathDepth = 0;
}

/** Pops the elements a browser closes implicitly when `name` opens (a `<p>` before `<p>`), writing nothing. */
export function closeImplied(state: SanitizeState, name: string): void {
  const closes = IMPLIED_CLOSES.get(name);
  if (closes === undefined) return;
  while (state.openKeys.length > 0 && closes.has(state.openKeys[state.openKeys.length - 1] ?? '')) {
    state.openKeys.pop();
    state.openNames.pop();
  }
}

/**
 * Handles an end tag, written input[start, end): counts hidden elements, and closes the element (and
 * any left open inside it).
 */
export function closeElement(state: SanitizeState, name: string, input?: string, start = 0, end = 0): void {
  // Like the Universal Feed Parser's counter, this one goes below zero on a stray </script>: text is
  // then hidden until a <script> brings it back to zero, and that script's text is shown
  // (sanitize/entry_content_crazy.xml pins this down).
  if (HIDDEN_CONTENT_ELEMENTS.has(name)) state.hiddenDepth--;
  const index = state.openKeys.lastIndexOf(name);
  if (index === -1) return;
  while (state.openKeys.length > index + 1) closeTop(state);
  closeTop(state, input, start, end);
}

/** Closes what is still open and returns the output, stripped and with \r\n folded (as the Universal Feed Parser does). */
export function finishOutput(state: SanitizeState, hasCarriageReturn: boolean): string {
  flushSource(state);
  while (state.openKeys.length > 0) closeTop(state);
  if (state.selfClosePending) state.out += '>';
  return hasCarriageReturn ? state.out.replace(/\r\n/g, '\n') : state.out;
}

/** Python's str.strip() (it strips more than JavaScript's trim(): \x1c-\x1f and \x85 too, not \ufeff). */
export function stripPython(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isPythonSpace(text.charCodeAt(start))) start++;
  while (end > start && isPythonSpace(text.charCodeAt(end - 1))) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

function isPythonSpace(code: number): boolean {
  if (code === 0x20 || (code >= 0x09 && code <= 0x0d) || (code >= 0x1c && code <= 0x1f)) return true;
  if (code < 0x85) return false;
  return (
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}
