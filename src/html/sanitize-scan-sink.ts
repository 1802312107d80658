// What the sanitizer's tokenizer (sanitize-scan.ts, sanitize-scan-markup.ts) reports, and to whom: the
// sink the sanitizer implements. Both halves of the tokenizer report to it.

/** How an attribute value was written. */
export const Quote = { None: 0, Unquoted: 1, Single: 2, Double: 3 } as const;
export type Quote = (typeof Quote)[keyof typeof Quote];

/** What the scanner reports; indices are into the scanned string, `end` excluded. */
export interface ScanSink {
  /** Asked before each start tag: inside SVG or MathML, `<title>` and `<style>` are not raw text. */
  isInForeignContext(): boolean;
  ontext(start: number, end: number): void;
  onopentagname(start: number, end: number): void;
  /** An attribute; a valueless one has quote None and the value range empty. */
  onattribute(nameStart: number, nameEnd: number, valueStart: number, valueEnd: number, quote: Quote): void;
  /** The `>` of a start tag at `end`; selfClosing when it was `/>`. */
  onopentagend(end: number, selfClosing: boolean): void;
  /** An end tag's name; `gt` is the index of the `>` that closes it. */
  onclosetag(start: number, end: number, gt: number): void;
  /** A comment's data, `<!--data-->`; endOffset is how many characters before `end` belong to `-->`. */
  oncomment(start: number, end: number, endOffset: number): void;
  /** Markup the sanitizer drops whole (doctype, CDATA section) ending at `end`. */
  ondeclaration(end: number): void;
  /** Called last; what no event covered (a cut-off tag) is left for the sink. */
  onend(): void;
}
