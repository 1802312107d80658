// The sanitizer's tokenizer. It splits HTML where htmlparser2's Tokenizer does in HTML mode with entities
// left alone (text, start and end tags, attributes, comments, raw text of script, title ...), which the
// sanitizer was built and tested on, but it finds `<`, `>` and quotes with indexOf and reads a start
// tag's attributes in one go: the Tokenizer steps through a state machine one character at a time, and
// took a quarter of the parse time (bench:parse). sanitize-scan.test.ts compares the two on generated
// markup. One difference is deliberate: an end tag or a `<br/` cut off by the end of the input is left
// unread, like a cut-off start tag (the Tokenizer reported it as text from index -1).

import {
  BANG,
  DOUBLE_QUOTE,
  EQUALS,
  GT,
  isEndOfName,
  isWhitespace,
  QUESTION,
  SINGLE_QUOTE,
  SLASH,
} from './char-codes.js';
import { keepShape } from './keep-shape.js';
import { readBang, readBogusComment, readRawText } from './sanitize-scan-markup.js';
import { Quote, type ScanSink } from './sanitize-scan-sink.js';

function isAsciiAlpha(code: number): boolean {
  return (code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a;
}

/** Elements whose content is raw text up to their end tag; title and textarea are RCDATA. */
const RAW_TEXT_NAMES = [
  'iframe',
  'noembed',
  'noframes',
  'plaintext',
  'script',
  'style',
  'title',
  'textarea',
  'xmp',
];

/** Scans one string of HTML, reporting its tokens to the sink in document order. */
export function scanHtml(input: string, sink: ScanSink): void {
  new Scanner(input, sink).run();
}

class Scanner {
  /** Where to look for the next `<`; -1 once the input has ended inside markup. */
  private pos = 0;
  /** Where the text not yet reported starts. */
  private textStart = 0;
  private readonly length: number;

  constructor(
    private readonly input: string,
    private readonly sink: ScanSink,
  ) {
    this.length = input.length;
  }

  run(): void {
    const { input, sink } = this;
    while (this.pos >= 0) {
      const lt = input.indexOf('<', this.pos);
      if (lt === -1) {
        if (this.textStart < this.length) sink.ontext(this.textStart, this.length);
        break;
      }
      if (lt > this.textStart) sink.ontext(this.textStart, lt);
      this.readMarkup(lt);
    }
    sink.onend();
  }

  /** Goes on with text at `at`; -1 when the input ended inside markup. */
  private resume(at: number): void {
    this.pos = at;
    this.textStart = at;
  }

  private readMarkup(lt: number): void {
    const { input, sink } = this;
    const at = lt + 1;
    const code = input.charCodeAt(at);
    if (code === BANG) this.resume(readBang(input, at + 1, sink));
    else if (code === QUESTION) this.resume(readBogusComment(input, at, at + 1, sink));
    else if (isAsciiAlpha(code)) this.readStartTag(at);
    else if (code === SLASH) this.readEndTag(lt, at + 1);
    else if (at < this.length) {
      // `<` before anything else is text, and the text goes on from it
      this.textStart = lt;
      this.pos = at;
    } else {
      sink.ontext(lt, this.length); // a `<` at the very end is text
      this.resume(-1);
    }
  }

  private readEndTag(lt: number, at: number): void {
    const { input } = this;
    const code = input.charCodeAt(at);
    if (at >= this.length) {
      this.sink.ontext(lt, this.length); // `</` at the very end is text
      this.resume(-1);
    } else if (code === GT) {
      this.resume(at + 1); // `</>` is nothing
    } else if (!isAsciiAlpha(code)) {
      this.resume(readBogusComment(input, at, at + 1, this.sink));
    } else {
      let end = at + 1;
      while (end < this.length && !isEndOfName(input.charCodeAt(end))) end++;
      this.closeTag(at, end);
    }
  }

  /** An end tag whose name is input[start, end): reported once its `>` is found. */
  private closeTag(start: number, end: number): void {
    const gt = this.input.charCodeAt(end) === GT ? end : this.input.indexOf('>', end);
    if (end >= this.length || gt === -1) {
      this.resume(-1);
    } else {
      this.sink.onclosetag(start, end, gt);
      this.resume(gt + 1);
    }
  }

  private readStartTag(start: number): void {
    const { input, sink } = this;
    const isForeign = sink.isInForeignContext();
    let end = start + 1;
    while (end < this.length && !isEndOfName(input.charCodeAt(end))) end++;
    const rawText = isForeign ? undefined : RAW_TEXT_NAMES[this.rawTextIndex(start, end)];
    if (end >= this.length) {
      // Cut off inside the name: the Tokenizer reports the name of a would-be raw-text element as text.
      if (rawText !== undefined) sink.ontext(start, this.length);
      this.resume(-1);
      return;
    }
    sink.onopentagname(start, end);
    const gt = this.readAttributes(end);
    if (gt === -1 || rawText === undefined) {
      this.resume(gt === -1 ? -1 : gt + 1);
    } else if (rawText === 'plaintext') {
      if (gt + 1 < this.length) sink.ontext(gt + 1, this.length);
      this.resume(-1);
    } else {
      const nameEnd = readRawText(input, gt + 1, rawText, sink);
      if (nameEnd === -1) this.resume(-1);
      else this.closeTag(nameEnd - rawText.length, nameEnd);
    }
  }

  /**
   * The raw-text element the name input[start, end) is, or starts to be when the input ends in it
   * (`<scr`), as an index into RAW_TEXT_NAMES; -1 for none. ASCII case-insensitive.
   */
  private rawTextIndex(start: number, end: number): number {
    const length = end - start;
    for (let n = 0; n < RAW_TEXT_NAMES.length; n++) {
      const name = RAW_TEXT_NAMES[n] as string;
      if (length > name.length || (end < this.length && length !== name.length)) continue;
      let i = 0;
      while (i < length && (this.input.charCodeAt(start + i) | 0x20) === name.charCodeAt(i)) i++;
      if (i === length) return n;
    }
    return -1;
  }

  /** Reads attributes from `at` up to the tag's `>`; returns its index, or -1 at the end of the input. */
  private readAttributes(at: number): number {
    const { input } = this;
    let index = at;
    for (;;) {
      while (index < this.length && isWhitespace(input.charCodeAt(index))) index++;
      if (index >= this.length) return -1;
      const code = input.charCodeAt(index);
      if (code === GT) {
        this.sink.onopentagend(index, false);
        return index;
      }
      if (code === SLASH) {
        let next = index + 1;
        while (next < this.length && isWhitespace(input.charCodeAt(next))) next++;
        if (next >= this.length) return -1;
        if (input.charCodeAt(next) === GT) {
          this.sink.onopentagend(next, true);
          return next;
        }
        index = next;
        continue;
      }
      index = this.readAttribute(index);
      if (index === -1) return -1;
    }
  }

  /** One attribute starting at `start` (its first character is never `=`'s delimiter); returns where the tag goes on. */
  private readAttribute(start: number): number {
    const { input, sink } = this;
    let nameEnd = start + 1;
    for (; nameEnd < this.length; nameEnd++) {
      const code = input.charCodeAt(nameEnd);
      if (code === EQUALS || isEndOfName(code)) break;
    }
    let index = nameEnd;
    while (index < this.length && isWhitespace(input.charCodeAt(index))) index++;
    if (index >= this.length) return -1;
    if (input.charCodeAt(index) !== EQUALS) {
      sink.onattribute(start, nameEnd, nameEnd, nameEnd, Quote.None);
      return index;
    }
    index++;
    while (index < this.length && isWhitespace(input.charCodeAt(index))) index++;
    if (index >= this.length) return -1;
    const quote = input.charCodeAt(index);
    if (quote === DOUBLE_QUOTE || quote === SINGLE_QUOTE) {
      const close = input.indexOf(quote === DOUBLE_QUOTE ? '"' : "'", index + 1);
      if (close === -1) return -1;
      sink.onattribute(
        start,
        nameEnd,
        index + 1,
        close,
        quote === DOUBLE_QUOTE ? Quote.Double : Quote.Single,
      );
      return close + 1;
    }
    let valueEnd = index;
    while (
      valueEnd < this.length &&
      !isWhitespace(input.charCodeAt(valueEnd)) &&
      input.charCodeAt(valueEnd) !== GT
    )
      valueEnd++;
    if (valueEnd >= this.length) return -1;
    sink.onattribute(start, nameEnd, index, valueEnd, Quote.Unquoted);
    return valueEnd;
  }
}

const ignore = (): void => {};
keepShape(
  new Scanner('', {
    isInForeignContext: () => false,
    ontext: ignore,
    onopentagname: ignore,
    onattribute: ignore,
    onopentagend: ignore,
    onclosetag: ignore,
    oncomment: ignore,
    ondeclaration: ignore,
    onend: ignore,
  }),
);
