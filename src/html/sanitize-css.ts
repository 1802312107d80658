// Sanitizing of style attributes, reproducing the Universal Feed Parser's rules (wellformed/sanitize/style_*.xml,
// entry_content_style.xml): url(...) is removed; a style with any character outside a small grammar is
// dropped whole; then each `property: value` is kept only when the property is allowed, or when it is a
// background/border/margin/padding property whose every word is a known keyword or a plain length or
// colour. Kept declarations are written `prop: value;` joined by spaces. Every step is a linear scan
// (large_atom_feed_that_needs_css_sanitisation.xml exists because a regex here once backtracked forever).

import { SVG_CSS_PROPERTIES } from './sanitize-foreign.js';

const ACCEPTABLE_PROPERTIES: ReadonlySet<string> = new Set(
  `azimuth background-color border-bottom-color border-collapse border-color border-left-color
  border-right-color border-top-color clear color cursor direction display elevation float font
  font-family font-size font-style font-variant font-weight height letter-spacing line-height overflow
  pause pause-after pause-before pitch pitch-range richness speak speak-header speak-numeral
  speak-punctuation speech-rate stress text-align text-decoration text-indent unicode-bidi vertical-align
  voice-family volume white-space width`.split(/\s+/),
);

const ACCEPTABLE_KEYWORDS: ReadonlySet<string> = new Set(
  `!important aqua auto black block blue bold both bottom brown center collapse dashed dotted fuchsia
  gray green italic left lime maroon medium navy none normal nowrap olive pointer purple red right
  silver solid teal top transparent underline white yellow`.split(/\s+/),
);

const SHORTHAND_PREFIXES: ReadonlySet<string> = new Set(['background', 'border', 'margin', 'padding']);

// A hex colour, an rgb() fragment, or a number of at most two digits on each side of the point with an
// optional unit: `99999em` is refused (style_margin_99999em.xml). Bounded quantifiers only.
const VALID_VALUE =
  /^(?:#[0-9a-f]+|rgb\(\d+%?,\d*%?,?\d*%?\)?|\d{0,2}\.?\d{0,2}(?:cm|em|ex|in|mm|pc|pt|px|%|,|\))?)$/;
/** Longest word tested against VALID_VALUE, which could backtrack on long runs of digits. */
const MAX_WORD_LENGTH = 64;

/** Longest style attribute examined; a longer one is dropped (no real style needs 8 KiB). */
const MAX_STYLE_LENGTH = 8192;

// Feeds repeat a few style attributes on many elements (the perf corpus: 2,568 kept, 82 distinct), so
// results are remembered. The key is a fresh string made by JSON.stringify: the style itself may be a
// slice of a whole document, which a key would keep alive. Bounded: cleared when full.
const MEMO_MAX_ENTRIES = 1024;
const MEMO_MAX_STYLE_LENGTH = 256;
const memo = new Map<string, string>();

/** Returns the style with only allowed declarations, as `prop: value;` joined by spaces, or '' for none. */
export function sanitizeStyle(style: string, inSvg: boolean): string {
  if (style.length > MEMO_MAX_STYLE_LENGTH) return sanitizeStyleNow(style, inSvg);
  const key = inSvg ? `svg:${JSON.stringify(style)}` : JSON.stringify(style);
  const known = memo.get(key);
  if (known !== undefined) return known;
  const result = sanitizeStyleNow(style, inSvg);
  if (memo.size >= MEMO_MAX_ENTRIES) memo.clear();
  memo.set(key, result);
  return result;
}

function sanitizeStyleNow(style: string, inSvg: boolean): string {
  if (style.length > MAX_STYLE_LENGTH) return '';
  const css = removeUrls(style);
  if (!passesGauntlet(css) || !isDeclarationList(css)) return '';
  const kept: string[] = [];
  forEachDeclaration(css, (property, value) => {
    if (value === '') return;
    const lower = property.toLowerCase();
    const prefix = lower.split('-')[0] ?? '';
    if (
      ACCEPTABLE_PROPERTIES.has(lower) ||
      (SHORTHAND_PREFIXES.has(prefix) && hasOnlySafeWords(value)) ||
      (inSvg && SVG_CSS_PROPERTIES.has(lower))
    ) {
      kept.push(`${property}: ${value};`);
    }
  });
  return kept.join(' ');
}

function hasOnlySafeWords(value: string): boolean {
  for (const word of value.split(/\s+/)) {
    if (word === '' || ACCEPTABLE_KEYWORDS.has(word)) continue;
    if (word.length > MAX_WORD_LENGTH || !VALID_VALUE.test(word)) return false;
  }
  return true;
}

function isSpace(code: number): boolean {
  return (
    code === 0x20 ||
    (code >= 0x09 && code <= 0x0d) ||
    code === 0xa0 ||
    (code > 0x7f && /\s/.test(String.fromCharCode(code)))
  );
}

function isAsciiAlnum(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a);
}

// Python's \w is Unicode-aware: letters, digits and underscore of any script.
function isWordChar(code: number): boolean {
  if (code < 0x80) return isAsciiAlnum(code) || code === 0x5f;
  return /[\p{L}\p{N}_]/u.test(String.fromCharCode(code));
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/** Replaces each `url(...)` (with the spaces after it) by one space. */
function removeUrls(css: string): string {
  if (!css.includes('url')) return css;
  let out = '';
  let copied = 0;
  let from = 0;
  let blockedUntil = -1; // a run without `)` already known not to close: skip `url` starts inside it
  for (let at = css.indexOf('url', from); at !== -1; at = css.indexOf('url', from)) {
    from = at + 1;
    if (at < blockedUntil) continue;
    let i = skipSpaces(css, at + 3);
    if (css.charCodeAt(i) !== 0x28) continue; // (
    i = skipSpaces(css, i + 1);
    const runStart = i;
    while (i < css.length && css.charCodeAt(i) !== 0x29 && !isSpace(css.charCodeAt(i))) i++;
    if (i === runStart) continue;
    const runEnd = i;
    i = skipSpaces(css, i);
    if (css.charCodeAt(i) !== 0x29) {
      blockedUntil = runEnd;
      continue;
    }
    const end = skipSpaces(css, i + 1);
    out += `${css.slice(copied, at)} `;
    copied = end;
    from = end;
  }
  return out + css.slice(copied);
}

function skipSpaces(text: string, from: number): number {
  let i = from;
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}

/**
 * The character gauntlet: `^([:,;#%.\sa-zA-Z0-9!]|\w-\w|'[\s\w]+'|"[\s\w]+"|\([\d,\s]+\))*$`. It is
 * deterministic when read left to right, since `-` only ever appears in the middle of `\w-\w`.
 */
function passesGauntlet(css: string): boolean {
  let i = 0;
  while (i < css.length) {
    const code = css.charCodeAt(i);
    if (css.charCodeAt(i + 1) === 0x2d && isWordChar(code)) {
      if (i + 2 >= css.length || !isWordChar(css.charCodeAt(i + 2))) return false;
      i += 3;
    } else if (isAsciiAlnum(code) || isSpace(code) || ':,;#%.!'.includes(css.charAt(i))) {
      i++;
    } else if (code === 0x22 || code === 0x27) {
      i = skipQuoted(css, i, code);
      if (i < 0) return false;
    } else if (code === 0x28) {
      let j = i + 1;
      while (
        j < css.length &&
        (isDigit(css.charCodeAt(j)) || css.charCodeAt(j) === 0x2c || isSpace(css.charCodeAt(j)))
      )
        j++;
      if (j === i + 1 || css.charCodeAt(j) !== 0x29) return false;
      i = j + 1;
    } else {
      return false;
    }
  }
  return true;
}

/** Skips `'[\s\w]+'` (or with double quotes) starting at the opening quote; -1 when it does not match. */
function skipQuoted(css: string, start: number, quote: number): number {
  let j = start + 1;
  while (j < css.length && (isWordChar(css.charCodeAt(j)) || isSpace(css.charCodeAt(j)))) j++;
  return j > start + 1 && css.charCodeAt(j) === quote ? j + 1 : -1;
}

/** Matches `\s*[-\w]+\s*:\s*[^:;]*;?` at `start`; returns its end, or -1. */
function matchDeclaration(css: string, start: number): number {
  const nameStart = skipSpaces(css, start);
  const nameEnd = skipName(css, nameStart);
  if (nameEnd === nameStart) return -1;
  let i = skipSpaces(css, nameEnd);
  if (css.charCodeAt(i) !== 0x3a) return -1;
  i = skipValue(css, i + 1);
  return css.charCodeAt(i) === 0x3b ? i + 1 : i;
}

function skipName(css: string, from: number): number {
  let i = from;
  while (i < css.length && (css.charCodeAt(i) === 0x2d || isWordChar(css.charCodeAt(i)))) i++;
  return i;
}

function skipValue(css: string, from: number): number {
  let i = from;
  while (i < css.length && css.charCodeAt(i) !== 0x3a && css.charCodeAt(i) !== 0x3b) i++;
  return i;
}

/** True when removing every declaration leaves only white space. */
function isDeclarationList(css: string): boolean {
  let i = 0;
  while (i < css.length) {
    const end = matchDeclaration(css, i);
    if (end > i) i = end;
    else if (isSpace(css.charCodeAt(i))) i++;
    else return false;
  }
  return true;
}

/** Calls back with each `([-\w]+)\s*:\s*([^:;]*)` found, left to right. */
function forEachDeclaration(css: string, callback: (property: string, value: string) => void): void {
  let i = 0;
  while (i < css.length) {
    const nameEnd = skipName(css, i);
    if (nameEnd === i) {
      i++;
      continue;
    }
    const colon = skipSpaces(css, nameEnd);
    if (css.charCodeAt(colon) !== 0x3a) {
      i = nameEnd; // no match can start inside this name either
      continue;
    }
    const valueStart = skipSpaces(css, colon + 1);
    const valueEnd = skipValue(css, valueStart);
    callback(css.slice(i, nameEnd), css.slice(valueStart, valueEnd));
    i = valueEnd;
  }
}
