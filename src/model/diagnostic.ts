/** How bad a problem is: an error lost or changed data, a warning is worth knowing. */
export type Severity = 'error' | 'warning';

/** One problem found in a document or a fetch, located as precisely as it is known. */
export interface Diagnostic {
  severity: Severity;
  /** Dotted, lower-case code from the catalogue in diagnostic-codes.ts, e.g. `date.unparseable`. */
  code: string;
  message: string;
  /** 1-based line and column in the decoded document. */
  line?: number;
  column?: number;
  /** 0-based index of the entry the problem belongs to. */
  entry?: number;
  /** The element or key as written in the document, e.g. `pubDate`. */
  field?: string;
  /**
   * The raw line of the document the diagnostic points at, or the 200 characters of it around the
   * column when the line is longer (minified feeds are one line). Not part of `tidings parse`'s JSON.
   */
  excerpt?: string;
  /** The column within `excerpt` (1-based), when the excerpt is a cut of a longer line. */
  excerptColumn?: number;
}
