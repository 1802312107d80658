import { DIAGNOSTIC_CODES, type Diagnostic, type DiagnosticCode } from '../model/index.js';
import type { DocumentText } from './text/index.js';

/** Turns string indices into 1-based line and column, building the line table only when first asked. */
export class LineIndex {
  private starts: number[] | undefined;
  private text: string | undefined;

  constructor(private readonly source: DocumentText) {}

  /** Line and column (1-based) of a string index. */
  locate(offset: number): { line: number; column: number } {
    if (!this.starts) this.starts = lineStarts(this.source);
    const { starts } = this;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] as number) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - (starts[lo] as number) + 1 };
  }

  /** The text of a 1-based line, without its line break. */
  lineText(line: number): string | undefined {
    if (!this.starts) this.starts = lineStarts(this.source);
    const start = this.starts[line - 1];
    if (start === undefined) return undefined;
    // decoded once for all the excerpts of a document, at the end of its parse
    this.text ??= this.source.full();
    const { text } = this;
    const end = this.starts[line] ?? text.length;
    return text.slice(start, end).replace(/(?:\r\n|\r|\n)$/, '');
  }
}

/**
 * Where each line starts (string indexes), read piece by piece: the whole text need not be one string.
 * A line ends at LF, CR LF or a lone CR (XML 1.0 2.11; old Mac files end every line with CR alone).
 */
function lineStarts(source: DocumentText): number[] {
  const starts = [0];
  let pieceStart = 0;
  // a CR that ended the last piece: a line break of its own unless this piece starts with its LF
  let lastCr = -1;
  source.pieces(0, (piece) => {
    if (lastCr >= 0 && piece.charCodeAt(0) !== 10) starts.push(lastCr + 1);
    lastCr = -1;
    const breaks = /\r\n|\r|\n/g;
    for (let m = breaks.exec(piece); m !== null; m = breaks.exec(piece)) {
      if (m[0] === '\r' && m.index === piece.length - 1) lastCr = pieceStart + m.index;
      else starts.push(pieceStart + m.index + m[0].length);
    }
    pieceStart += piece.length;
  });
  if (lastCr >= 0) starts.push(lastCr + 1);
  return starts;
}

const MAX_EXCERPT = 200;

/** Where a diagnostic points: a string index, an entry index and a field name, each optional. */
export interface DiagnosticPlace {
  offset?: number;
  line?: number;
  column?: number;
  entry?: number;
  field?: string;
}

/** Collects diagnostics for one document, with the catalogue's severity for each code. */
export class DiagnosticList {
  readonly items: Diagnostic[] = [];

  constructor(private readonly lines: LineIndex | undefined) {}

  add(code: DiagnosticCode, message: string, place: DiagnosticPlace = {}): Diagnostic {
    const diagnostic: Diagnostic = { severity: DIAGNOSTIC_CODES[code].severity, code, message };
    let { line, column } = place;
    if (line === undefined && place.offset !== undefined && this.lines) {
      ({ line, column } = this.lines.locate(place.offset));
    }
    if (line !== undefined) diagnostic.line = line;
    if (column !== undefined) diagnostic.column = column;
    if (place.entry !== undefined) diagnostic.entry = place.entry;
    if (place.field !== undefined) diagnostic.field = place.field;
    this.items.push(diagnostic);
    return diagnostic;
  }

  /** Adds a diagnostic made elsewhere (e.g. by the decoder), keeping its severity. */
  push(diagnostic: Diagnostic): void {
    this.items.push(diagnostic);
  }

  /**
   * Gives each diagnostic that has a line the raw text of that line (poller and web UI; the parse
   * contract has no such key, so `tidings parse` does not ask for it).
   */
  addExcerpts(): void {
    if (!this.lines) return;
    for (const d of this.items) {
      if (d.line === undefined || d.excerpt !== undefined) continue;
      const text = this.lines.lineText(d.line);
      if (text === undefined) continue;
      if (text.length <= MAX_EXCERPT) {
        d.excerpt = text;
        continue;
      }
      const column = d.column ?? 1;
      const start = Math.max(0, Math.min(column - 1 - MAX_EXCERPT / 2, text.length - MAX_EXCERPT));
      d.excerpt = text.slice(start, start + MAX_EXCERPT);
      if (d.column !== undefined) d.excerptColumn = d.column - start;
    }
  }

  get hasErrors(): boolean {
    return this.items.some((d) => d.severity === 'error');
  }
}
