import type { SaxesParser } from 'saxes';

// saxes builds character data with one `+=` per piece: text with references (escaped HTML, thousands
// of `&lt;` in one element) becomes a rope of two V8 cons strings and a sliced name per reference, ten
// times the size of its characters (yakubin.atom, 850 KB: 9 of its 15.5 MB allocated per parse). This
// replaces saxes's loop for text inside the root element with one that decodes such text into a
// buffer of code units and makes one string of it per text node. Text without references or carriage
// returns is cut from the document as before. The loop reads characters with saxes's own getCode (its
// checks and line counting) and hands references it cannot read at once (cut by a piece boundary, odd
// names) to saxes's own entity state. package.json pins saxes to 6.0.0, whose internals these are;
// textBufferingParser checks them and falls back to saxes's own loop when they differ.

/** The members of saxes 6.0.0's SaxesParser that the loop uses. */
interface SaxesInternals {
  chunk: string;
  i: number;
  prevI: number;
  column: number;
  text: string;
  state: number;
  entityReturnState: number;
  forbiddenState: number;
  textHandler: ((text: string) => void) | undefined;
  stateTable: unknown[];
  getCode(): number;
  isChar(code: number): boolean;
  parseEntity(name: string): string;
  fail(message: string): unknown;
}

// saxes's constants (saxes.js)
const EOC = -1;
const NL_LIKE = -2;
const S_TEXT = 13;
const S_ENTITY = 14;
const S_OPEN_WAKA = 15;
const FORBIDDEN_START = 0;
const FORBIDDEN_BRACKET = 1;
const FORBIDDEN_BRACKET_BRACKET = 2;

const LESS = 0x3c;
const AMP = 0x26;
const CLOSE_BRACKET = 0x5d;
const GREATER = 0x3e;
const NL = 0x0a;
// Longer than any entity name in HTML's list (31): a longer "name" is left to saxes's own state.
const MAX_INLINE_NAME = 40;

// Code units per buffer load: a full buffer becomes a string of at most 32 KB, below V8's large-object size.
const CAPACITY = 16 * 1024;

/** Character data being decoded: code units, and the strings made of earlier full loads. */
class TextBuffer {
  private readonly units = new Uint16Array(CAPACITY);
  private readonly bytes = Buffer.from(this.units.buffer);
  private length = 0;
  private done = '';
  /** True while a text node is being decoded here. */
  active = false;
  /** The parser whose text node this is. */
  owner: unknown;

  claim(owner: unknown): void {
    if (this.owner === owner) return;
    this.owner = owner;
    this.reset();
  }

  append(source: string, from: number, to: number): void {
    this.active = true;
    let { length } = this;
    const { units } = this;
    for (let j = from; j < to; j++) {
      if (length === CAPACITY) {
        this.length = length;
        this.flush();
        length = 0;
      }
      units[length++] = source.charCodeAt(j);
    }
    this.length = length;
  }

  appendCode(code: number): void {
    if (this.length === CAPACITY) this.flush();
    this.units[this.length++] = code;
    this.active = true;
  }

  appendCodePoint(code: number): void {
    if (code <= 0xffff) this.appendCode(code);
    else {
      this.appendCode(0xd800 + ((code - 0x10000) >> 10));
      this.appendCode(0xdc00 + ((code - 0x10000) & 0x3ff));
    }
  }

  /** The text decoded so far, with `source[from, to)` after it; the buffer is empty after. */
  take(source: string, from: number, to: number): string {
    this.append(source, from, to);
    this.flush();
    const text = this.done;
    this.reset();
    this.owner = undefined; // keeps no parser (and its piece of document) alive
    return text;
  }

  private flush(): void {
    // a little-endian Uint16Array read as UTF-16LE; V8 makes a one-byte string when the text allows
    if (this.length > 0) this.done += this.bytes.toString('utf16le', 0, this.length * 2);
    this.length = 0;
  }

  private reset(): void {
    this.length = 0;
    this.done = '';
    this.active = false;
  }
}

const buffer = new TextBuffer();

// XML's five, read without slicing their names (the entity table holds them as plain values too)
function predefined(chunk: string, at: number, length: number): string | undefined {
  const c0 = chunk.charCodeAt(at);
  if (length === 2 && chunk.charCodeAt(at + 1) === 0x74 /* t */) {
    if (c0 === 0x6c /* l */) return '<';
    if (c0 === 0x67 /* g */) return '>';
  } else if (length === 3 && c0 === 0x61 && chunk.startsWith('mp', at + 1)) return '&';
  else if (length === 4 && c0 === 0x71 && chunk.startsWith('uot', at + 1)) return '"';
  else if (length === 4 && c0 === 0x61 && chunk.startsWith('pos', at + 1)) return "'";
  return undefined;
}

/**
 * The code point of a character reference written as saxes reads one (`#` and decimal digits, or `#x`
 * and hex digits), without slicing its name; undefined for anything else.
 */
function characterReference(chunk: string, from: number, to: number): number | undefined {
  if (chunk.charCodeAt(from) !== 0x23 /* # */ || to - from < 2 || to - from > 9) return undefined;
  const hex = chunk.charCodeAt(from + 1) === 0x78; /* x */
  let at = hex ? from + 2 : from + 1;
  if (at === to) return undefined;
  let code = 0;
  for (; at < to; at++) {
    const c = chunk.charCodeAt(at);
    let digit: number;
    if (c >= 0x30 && c <= 0x39) digit = c - 0x30;
    else if (hex && (c | 0x20) >= 0x61 /* a */ && (c | 0x20) <= 0x66 /* f */) digit = (c | 0x20) - 0x57;
    else return undefined;
    code = code * (hex ? 16 : 10) + digit;
  }
  return code;
}

/** True when a reference name is plain enough to read here (no white space, markup, or surrogates). */
function isPlainName(chunk: string, from: number, to: number): boolean {
  for (let j = from; j < to; j++) {
    const c = chunk.charCodeAt(j);
    if (c <= 0x20 || c === AMP || c === LESS || (c >= 0xd800 && c <= 0xdfff)) return false;
  }
  return true;
}

/** saxes's handleTextInRoot, decoding text with references into the buffer (see the top of the file). */
function handleTextInRoot(this: SaxesInternals): void {
  const { chunk, textHandler: handler } = this;
  let { i: start, forbiddenState } = this;
  buffer.claim(this);
  scan: while (true) {
    switch (this.getCode()) {
      case LESS: {
        this.state = S_OPEN_WAKA;
        if (handler !== undefined) {
          if (buffer.active) {
            // references may decode to nothing (an empty DTD entity): no text, no event, as in saxes
            const text = this.text + buffer.take(chunk, start, this.prevI);
            if (text.length !== 0) handler(text);
            this.text = '';
          } else {
            const { text } = this;
            const slice = chunk.slice(start, this.prevI);
            if (text.length !== 0) {
              handler(text + slice);
              this.text = '';
            } else if (slice.length !== 0) handler(slice);
          }
        }
        forbiddenState = FORBIDDEN_START;
        break scan;
      }
      case AMP: {
        forbiddenState = FORBIDDEN_START;
        const from = this.i;
        const semicolon = chunk.indexOf(';', from);
        const length = semicolon - from;
        if (semicolon < 0 || length > MAX_INLINE_NAME || !isPlainName(chunk, from, semicolon)) {
          // saxes's own entity state reads it; what was decoded here goes first
          if (buffer.active) this.text += buffer.take(chunk, start, this.prevI);
          else this.text += chunk.slice(start, this.prevI);
          this.state = S_ENTITY;
          this.entityReturnState = S_TEXT;
          break scan;
        }
        buffer.append(chunk, start, this.prevI);
        this.column += length + 1;
        this.i = semicolon + 1;
        this.prevI = semicolon;
        const code = characterReference(chunk, from, semicolon);
        if (code !== undefined && this.isChar(code)) buffer.appendCodePoint(code);
        else {
          let parsed: string;
          if (length === 0) {
            this.fail('empty entity name.');
            parsed = '&;';
          } else parsed = predefined(chunk, from, length) ?? this.parseEntity(chunk.slice(from, semicolon));
          buffer.append(parsed, 0, parsed.length);
        }
        start = this.i;
        break;
      }
      case CLOSE_BRACKET:
        if (forbiddenState === FORBIDDEN_START) forbiddenState = FORBIDDEN_BRACKET;
        else if (forbiddenState === FORBIDDEN_BRACKET) forbiddenState = FORBIDDEN_BRACKET_BRACKET;
        break;
      case GREATER:
        if (forbiddenState === FORBIDDEN_BRACKET_BRACKET)
          this.fail('the string "]]>" is disallowed in char data.');
        forbiddenState = FORBIDDEN_START;
        break;
      case NL_LIKE:
        buffer.append(chunk, start, this.prevI);
        buffer.appendCode(NL);
        start = this.i;
        forbiddenState = FORBIDDEN_START;
        break;
      case EOC:
        if (buffer.active) buffer.append(chunk, start, chunk.length);
        else this.text += chunk.slice(start);
        break scan;
      default:
        forbiddenState = FORBIDDEN_START;
    }
  }
  this.forbiddenState = forbiddenState;
}

type ParserClass = typeof SaxesParser;
const subclasses = new WeakMap<ParserClass, ParserClass>();

/**
 * A SaxesParser subclass whose text loop decodes references into one buffer; saxes's own class when
 * its internals are not the ones this was written for.
 */
export function textBufferingParser(Base: ParserClass): ParserClass {
  let Sub = subclasses.get(Base);
  if (Sub) return Sub;
  const proto = Base.prototype as unknown as Record<string, unknown>;
  const probe = new Base() as unknown as SaxesInternals;
  const fits =
    probe.stateTable[S_TEXT] === proto['sText'] &&
    probe.stateTable[S_ENTITY] === proto['sEntity'] &&
    probe.stateTable[S_OPEN_WAKA] === proto['sOpenWaka'] &&
    typeof proto['handleTextInRoot'] === 'function' &&
    typeof proto['parseEntity'] === 'function' &&
    typeof probe.isChar === 'function' &&
    typeof probe.column === 'number' &&
    probe.forbiddenState === FORBIDDEN_START;
  Sub = Base;
  if (fits) {
    Sub = class TextBufferingParser extends Base {};
    Object.defineProperty(Sub.prototype, 'handleTextInRoot', { value: handleTextInRoot, writable: true });
  }
  subclasses.set(Base, Sub);
  return Sub;
}
