import type { Diagnostic, HeartbeatStatus, ParseResult } from '../model/index.js';
import { plural } from '../model/index.js';

const NOT_WELL_FORMED = new Set([
  'xml.not-well-formed',
  'xml.undefined-entity',
  'json.invalid',
  'xml.entity-expansion',
]);

/**
 * The heartbeat status of a document that was fetched: an HTML page or an unknown format is a
 * parse_error naming what it is; bytes that do not match their charset are an encoding_error; a
 * document that is not well-formed is a parse_error (its recovered entries are stored all the same).
 */
export function statusOfParse(result: ParseResult): { status: HeartbeatStatus; message: string } {
  const html = htmlPage(result.diagnostics);
  if (html) return html;
  if (result.version === '') {
    const first = result.diagnostics.find((d) => d.severity === 'error');
    return { status: 'parse_error', message: first?.message ?? 'parse: the document is not a feed' };
  }
  return (
    damagedFeed(result.diagnostics) ?? {
      status: 'ok',
      message: `${plural(result.entries.length, 'entry', 'entries')} (${result.version})`,
    }
  );
}

type Broken = { status: 'parse_error' | 'encoding_error'; message: string };

/** An HTML page instead of a feed: parse_error with the diagnostic's words (the feeds it links to). */
function htmlPage(diagnostics: readonly Diagnostic[]): Broken | undefined {
  const html = diagnostics.find((d) => d.code === 'document.html');
  return html ? { status: 'parse_error', message: html.message } : undefined;
}

/**
 * A feed read with damage: bytes that do not match their charset (encoding_error), else a document that
 * is not well-formed (parse_error, with where).
 */
function damagedFeed(diagnostics: readonly Diagnostic[]): Broken | undefined {
  const encoding = diagnostics.find((d) => d.code === 'encoding.mismatch');
  if (encoding) return { status: 'encoding_error', message: encoding.message };
  const broken = diagnostics.find((d) => NOT_WELL_FORMED.has(d.code));
  return broken ? { status: 'parse_error', message: withWhere(broken) } : undefined;
}

function withWhere(d: Diagnostic): string {
  const where = d.line !== undefined ? ` (line ${d.line}${d.column ? `:${d.column}` : ''})` : '';
  return `${d.message}${where}`;
}

/**
 * The diagnostic a parse_error or encoding_error status was made from (statusOfParse's choice): an HTML
 * page, the charset mismatch, the first well-formedness error, else the first error. Undefined for the
 * other statuses, and for a parse_error without diagnostics (a parse that timed out).
 */
export function causeOfStatus(
  status: HeartbeatStatus,
  diagnostics: readonly Diagnostic[],
): Diagnostic | undefined {
  if (status === 'encoding_error') return diagnostics.find((d) => d.code === 'encoding.mismatch');
  if (status !== 'parse_error') return undefined;
  return (
    diagnostics.find((d) => d.code === 'document.html') ??
    diagnostics.find((d) => NOT_WELL_FORMED.has(d.code)) ??
    diagnostics.find((d) => d.severity === 'error')
  );
}

/**
 * The status of the document read last, from the diagnostics stored with it (statusOfParse's rules, as
 * far as diagnostics tell them): parse_error or encoding_error with its message, else undefined. A 304
 * means that document is still the feed's, whatever failed in between (a 500 replaced the status, not
 * the diagnostics), so a broken one stays broken and sends no "recovered" alert.
 */
export function brokenStoredDocument(diagnostics: readonly Diagnostic[]): Broken | undefined {
  const unknown = diagnostics.find((d) => d.severity === 'error' && d.code.startsWith('document.'));
  return (
    htmlPage(diagnostics) ??
    damagedFeed(diagnostics) ??
    (unknown ? { status: 'parse_error', message: withWhere(unknown) } : undefined)
  );
}
