// How the sanitizer writes text and attribute values. The Universal Feed Parser writes references as
// it found them, with a few normalizations the corpus pins down: `&#X61;` becomes `&#x61;`
// (sgml/charref_uppercase_x.xml); `&#150;` and the other windows-1252 code points that HTML 4 misused
// become the character meant (`&#x2013;`); an unknown name such as `&A` in "Q&A" is escaped to `&amp;A`
// (atom10/qna.xml); `&#38;`, `&#x26;` and `&amp;` stay as written (amp/*.xml). Unlike the Universal Feed
// Parser, a `<` in text is always escaped: where a dropped element sat between a `<` and a letter, its
// raw `<` would otherwise open a new tag.

import { decodeHTMLAttribute, decodeHTMLStrict, replaceCodePoint } from 'entities/decode';
import { AMP, DOUBLE_QUOTE, GT, HASH, LT, SEMICOLON } from './char-codes.js';

/**
 * The code point windows-1252 gives a byte of 0x80-0x9F (what `&#150;` meant), or undefined: HTML's
 * table for numeric references in that range (entities' replaceCodePoint), which is windows-1252's.
 */
function cp1252(value: number): number | undefined {
  if (value < 0x80 || value > 0x9f) return undefined;
  const meant = replaceCodePoint(value);
  return meant === value ? undefined : meant;
}

const knownNames = new Map<string, boolean>();

// Most attribute values need no escaping: one native regex test finds out, six times faster than
// stepping through the characters (the perf corpus's 40,000 attribute values).
const ATTRIBUTE_SPECIALS_RE = /[&<>"]/;

/** True when `name` is an HTML named character reference (HTML5 table, plus `apos`). */
function isKnownEntity(name: string): boolean {
  let known = knownNames.get(name);
  if (known === undefined) {
    const reference = `&${name};`;
    known = decodeHTMLStrict(reference) !== reference;
    // Short names only: a long one can be a slice that keeps the whole HTML it came from alive.
    if (knownNames.size < 10_000 && name.length <= 12) knownNames.set(name, known);
  }
  return known;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

function isHexDigit(code: number): boolean {
  return isDigit(code) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x66);
}

function isAsciiLetter(code: number): boolean {
  return (code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a;
}

// Entity names as the SGML parser reads them: a letter, then letters, digits, `-` and `.`.
function isNameChar(code: number): boolean {
  return isAsciiLetter(code) || isDigit(code) || code === 0x2d || code === 0x2e;
}

/** Writes text[start, end) as HTML text: references normalized, `<` escaped, everything else as is. */
export function escapeText(text: string, start: number, end: number): string {
  let out = '';
  let copied = start;
  // Jumps from one `&` or `<` to the next with indexOf (native) rather than testing every character:
  // a third faster on the perf corpus's text.
  let amp = indexBefore(text, '&', start, end);
  let lt = indexBefore(text, '<', start, end);
  while (amp < end || lt < end) {
    if (lt < amp) {
      out += `${text.slice(copied, lt)}&lt;`;
      copied = lt + 1;
      lt = indexBefore(text, '<', copied, end);
    } else {
      const [replacement, next] = textReference(text, amp, end);
      out += text.slice(copied, amp) + replacement;
      copied = next;
      amp = indexBefore(text, '&', next, end);
      if (lt < next) lt = indexBefore(text, '<', next, end);
    }
  }
  return copied === start ? text.slice(start, end) : out + text.slice(copied, end);
}

/** The index of `search` in text[from, end), or `end`. */
function indexBefore(text: string, search: string, from: number, end: number): number {
  const index = text.indexOf(search, from);
  return index === -1 || index > end ? end : index;
}

/** The normalized form of the reference (or bare `&`) at `at`, and where the text after it starts. */
function textReference(text: string, at: number, end: number): [string, number] {
  const next = text.charCodeAt(at + 1);
  if (next === HASH) return numericReference(text, at, end, true);
  if (!isAsciiLetter(next) || at + 1 >= end) return ['&amp;', at + 1];
  let i = at + 2;
  while (i < end && isNameChar(text.charCodeAt(i))) i++;
  const name = text.slice(at + 1, i);
  const hasSemicolon = text.charCodeAt(i) === SEMICOLON && i < end;
  const after = hasSemicolon ? i + 1 : i;
  if (isKnownEntity(name)) return [`&${name};`, after];
  return [hasSemicolon ? `&amp;${name};` : `&amp;${name}`, after];
}

/** `&#NNN;` and `&#xHHH;` (the `;` added when missing); `&#` without digits is a bare `&`. */
function numericReference(text: string, at: number, end: number, remap: boolean): [string, number] {
  const isHex = (text.charCodeAt(at + 2) | 0x20) === 0x78;
  const digitsStart = isHex ? at + 3 : at + 2;
  let i = digitsStart;
  while (i < end && (isHex ? isHexDigit(text.charCodeAt(i)) : isDigit(text.charCodeAt(i)))) i++;
  if (i === digitsStart || i - digitsStart > 12) return ['&amp;', at + 1];
  const digits = text.slice(digitsStart, i);
  const after = i < end && text.charCodeAt(i) === SEMICOLON ? i + 1 : i;
  const value = Number.parseInt(digits, isHex ? 16 : 10);
  // The Universal Feed Parser turns `&#39;` and `&#34;` into the characters before parsing.
  if (!isHex && digits === '39') return ["'", after];
  if (!isHex && digits === '34') return [remap ? '"' : '&quot;', after];
  const meant = remap ? cp1252(value) : undefined;
  if (meant !== undefined) return [`&#x${meant.toString(16)};`, after];
  return [isHex ? `&#x${digits.toLowerCase()};` : `&#${digits};`, after];
}

/**
 * Writes an attribute value (as found between its quotes) for a double-quoted attribute: references
 * kept as written, a `&` that starts no complete reference escaped, and `<`, `>`, `"` escaped
 * (atom10/tag_in_attr.xml, atom10/missing_quote_in_attr.xml, amp/attr*.xml).
 */
export function escapeAttributeValue(value: string): string {
  if (!ATTRIBUTE_SPECIALS_RE.test(value)) return value;
  let out = '';
  let copied = 0;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    let replacement: string | undefined;
    let next = i + 1;
    if (code === LT) replacement = '&lt;';
    else if (code === GT) replacement = '&gt;';
    else if (code === DOUBLE_QUOTE) replacement = '&quot;';
    else if (code === AMP) [replacement, next] = attributeReference(value, i);
    if (replacement === undefined) continue;
    out += value.slice(copied, i) + replacement;
    copied = next;
    i = next - 1;
  }
  return copied === 0 ? value : out + value.slice(copied);
}

function attributeReference(value: string, at: number): [string, number] {
  const next = value.charCodeAt(at + 1);
  if (next === HASH) return numericReference(value, at, value.length, false);
  if (!isAsciiLetter(next)) return ['&amp;', at + 1];
  let i = at + 2;
  while (i < value.length && isNameChar(value.charCodeAt(i))) i++;
  const name = value.slice(at + 1, i);
  // `&name;` is kept whatever the name (it is text to a browser when unknown); `&name` is escaped.
  if (value.charCodeAt(i) === SEMICOLON && /^\w+$/.test(name)) return [`&${name};`, i + 1];
  return ['&amp;', at + 1];
}

/** Escapes a plain (already decoded) attribute value: `&`, `<`, `>` and `"`. */
export function escapeDecodedAttributeValue(value: string): string {
  if (!ATTRIBUTE_SPECIALS_RE.test(value)) return value;
  let out = '';
  let copied = 0;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code !== AMP && code !== LT && code !== GT && code !== DOUBLE_QUOTE) continue;
    const entity = code === AMP ? '&amp;' : code === LT ? '&lt;' : code === GT ? '&gt;' : '&quot;';
    out += value.slice(copied, i) + entity;
    copied = i + 1;
  }
  return copied === 0 ? value : out + value.slice(copied);
}

/** Decodes the character references of an attribute value as a browser would. */
export function decodeAttributeValue(value: string): string {
  return value.includes('&') ? decodeHTMLAttribute(value) : value;
}
