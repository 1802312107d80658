import { isAscii } from 'node:buffer';
import { TextDecoder } from 'node:util';

// Bytes of UTF-8 decoded per piece. A piece is at most this many UTF-16 code units, 64 KB even when
// two bytes each: under V8's large-object size (128 KB), so a piece lives and dies in the young
// generation like any small string.
const PIECE_BYTES = 32 * 1024;

const NON_ASCII = /[^\x00-\x7f]/;

// The start of a document that is decoded once to look for its first character
const HEAD_CHARS = 8192;

/**
 * A decoded document that need not exist as one string. A well-formed UTF-8 feed is read in pieces
 * (the strict XML pass streams them through saxes), so the parser never holds the whole document as
 * one string: a megabyte-long string is a large object that V8 promotes to the old generation the
 * first time a scavenge finds it alive, where it stays until the next full collection (bench:parse:
 * the perf corpus's large documents were most of the parser's peak memory). Readers that need the
 * whole text (JSON, HTML, the tolerant pass after an error) ask for it, and it is decoded then.
 */
export class DocumentText {
  private readonly whole: string | undefined;
  /** The first code units of the UTF-8 text and how many bytes they came from (all: the whole text). */
  private start: { text: string; bytes: number } | undefined;

  private constructor(
    text: string | undefined,
    /** Valid UTF-8 without a byte-order mark, when the text was not decoded yet. */
    private readonly utf8: Uint8Array | undefined,
    private readonly pieceBytes: number,
  ) {
    this.whole = text;
  }

  /** A text that is already a string. */
  static of(text: string): DocumentText {
    return new DocumentText(text, undefined, PIECE_BYTES);
  }

  /** The text of bytes known to be valid UTF-8 (no byte-order mark), decoded when read. */
  static fromUtf8(bytes: Uint8Array, pieceBytes = PIECE_BYTES): DocumentText {
    return new DocumentText(undefined, bytes, Math.max(4, pieceBytes));
  }

  /**
   * The whole text. A long UTF-8 text is decoded anew at each call and not kept: a JSON Feed's text
   * then dies as soon as JSON.parse is done with it, instead of living as long as the parse.
   */
  full(): string {
    if (this.whole !== undefined) return this.whole;
    const bytes = this.utf8 as Uint8Array;
    if (this.start?.bytes === bytes.length) return this.start.text;
    return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  }

  /** At least the first `chars` UTF-16 code units of the text (all of it when it is shorter). */
  head(chars: number): string {
    if (this.whole !== undefined) return this.whole.length <= chars ? this.whole : this.whole.slice(0, chars);
    const bytes = this.utf8 as Uint8Array;
    const { start } = this;
    if (start !== undefined && (start.text.length >= chars || start.bytes === bytes.length))
      return start.text;
    // UTF-8 spends at most three bytes on one UTF-16 code unit; a sequence cut at the end waits (stream)
    const cut = Math.min(chars * 3 + 3, bytes.length);
    const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
    const text = decoder.decode(bytes.subarray(0, cut), { stream: cut < bytes.length });
    this.start = { text, bytes: cut };
    return text;
  }

  /** The index of the first character that is not white space, or -1 when there is none. */
  firstNonSpace(): number {
    const head = this.head(HEAD_CHARS);
    const at = head.search(/\S/);
    if (at >= 0 || head.length < HEAD_CHARS) return at;
    return this.full().search(/\S/); // a document that starts with pages of white space
  }

  /** Hands the text to `write` in order, piece by piece, from code unit `from` on. */
  pieces(from: number, write: (piece: string) => void): void {
    const bytes = this.utf8 as Uint8Array;
    const whole = this.whole ?? (this.start?.bytes === bytes.length ? this.start.text : undefined);
    if (whole !== undefined) {
      if (from < whole.length) write(from > 0 ? whole.slice(from) : whole);
      return;
    }
    const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
    let skip = from;
    for (let at = 0; at < bytes.length; at += this.pieceBytes) {
      let piece = decoder.decode(bytes.subarray(at, at + this.pieceBytes), { stream: true });
      if (skip > 0) {
        const skipped = Math.min(skip, piece.length);
        piece = piece.slice(skipped);
        skip -= skipped;
      }
      if (piece.length > 0) write(piece);
    }
    const rest = decoder.decode();
    if (rest.length > skip) write(rest.slice(skip));
  }

  /** True when the text has a character outside ASCII. */
  hasNonAscii(): boolean {
    return this.utf8 !== undefined ? !isAscii(this.utf8) : NON_ASCII.test(this.whole as string);
  }
}
