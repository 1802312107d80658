import { type ParseResult, plural } from '../model/index.js';
import type { DiagnosticList } from './diagnostics.js';

// C0 control characters other than tab, line feed and carriage return (not XML 1.0 characters, and
// PostgreSQL refuses NUL in text), C1 controls (U+0080-U+009F: the bytes windows-1252 leaves undefined,
// such as 0x9D, and text decoded with the wrong charset; XML 1.1 calls them discouraged), and UTF-16
// surrogates without their other half (JSON's "\ud800"): with the u flag a surrogate range matches only
// lone surrogates, never a pair.
const UNWANTED_RE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u0080-\u009F]|[\uD800-\uDFFF]/u;
// A quicker first test (no u flag: surrogate pairs match too): most strings have neither
const SUSPECT_RE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u0080-\u009F\uD800-\uDFFF]/;
const CONTROL_RE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u0080-\u009F]/g;
const LONE_SURROGATE_RE = /[\uD800-\uDFFF]/gu;

/** A string without C0 and C1 control characters (removed) and lone surrogates (each replaced by U+FFFD). */
export function cleanString(text: string): string {
  if (!SUSPECT_RE.test(text) || !UNWANTED_RE.test(text)) return text;
  return text.replace(CONTROL_RE, '').replace(LONE_SURROGATE_RE, '\uFFFD');
}

/**
 * Cleans every string of a parse result in place (feed, entries, namespaces, diagnostics), and reports
 * once per field of the feed and of the entries which held control characters or lone surrogates.
 */
export function cleanResult(result: ParseResult, diagnostics: DiagnosticList): void {
  const feedFields = new Set<string>();
  cleanFields(result.feed as Record<string, unknown>, feedFields);
  for (const field of feedFields) report(diagnostics, `feed ${field}`, { field });
  const entryFields = new Map<string, { entry: number; count: number }>();
  result.entries.forEach((entry, index) => {
    const fields = new Set<string>();
    cleanFields(entry as Record<string, unknown>, fields);
    for (const field of fields) {
      const seen = entryFields.get(field);
      if (seen) seen.count++;
      else entryFields.set(field, { entry: index, count: 1 });
    }
  });
  for (const [field, { entry, count }] of entryFields) {
    const where =
      count === 1 ? `entry ${entry}` : `${plural(count, 'entry', 'entries')}, the first entry ${entry}`;
    report(diagnostics, `${field} of ${where}`, { field, entry });
  }
  cleanMember(result as unknown as Record<string, unknown>, 'namespaces');
  cleanMember(result as unknown as Record<string, unknown>, 'alternates');
  if (result.bozoReason !== undefined) result.bozoReason = cleanString(result.bozoReason);
  // a remembered string could be a slice that keeps its whole document alive
  recentClean.fill('');
  for (const d of result.diagnostics) {
    d.message = cleanString(d.message);
    if (d.field !== undefined) d.field = cleanString(d.field);
    if (d.excerpt !== undefined) d.excerpt = cleanString(d.excerpt);
  }
}

function report(diagnostics: DiagnosticList, what: string, place: { field: string; entry?: number }): void {
  diagnostics.add(
    'text.control-character',
    `parse: removed control characters or replaced lone surrogates with U+FFFD in the ${what}`,
    place,
  );
}

// Cleans the members of a feed or entry, noting the names of the top-level fields that changed.
function cleanFields(record: Record<string, unknown>, changed: Set<string>): void {
  // titleDetail is the title's kind of field: one report for both
  for (const key of Object.keys(record))
    if (cleanMember(record, key)) changed.add(key.replace(/Detail$/, ''));
}

// The last long strings found clean (or made so): an entry's first content, its summary and its
// summaryDetail are one string, met a few fields apart, and a long one is worth checking once
const recentClean: string[] = ['', '', '', ''];
let recentAt = 0;
const LONG_STRING = 256;

function isRecentlyClean(value: string): boolean {
  if (value.length < LONG_STRING) return false;
  for (const known of recentClean) if (known === value) return true;
  return false;
}

function rememberClean(value: string): void {
  if (value.length < LONG_STRING) return;
  recentClean[recentAt] = value;
  recentAt = (recentAt + 1) % recentClean.length;
}

type Container = Record<string, unknown> | unknown[];

/** Cleans `container[key]` in place, strings, arrays and objects within it too; true when it changed. */
function cleanMember(container: Container, key: string | number): boolean {
  const value: unknown = (container as Record<string | number, unknown>)[key];
  if (typeof value === 'string') {
    if (isRecentlyClean(value)) return false;
    const cleaned = cleanString(value);
    rememberClean(cleaned);
    if (cleaned === value) return false;
    (container as Record<string | number, unknown>)[key] = cleaned;
    return true;
  }
  if (typeof value !== 'object' || value === null) return false;
  let changed = false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) changed = cleanMember(value, i) || changed;
    return changed;
  }
  const record = value as Record<string, unknown>;
  for (const name of Object.keys(record)) {
    changed = cleanMember(record, name) || changed;
    const cleanName = cleanString(name);
    if (cleanName === name) continue;
    // a name with a control character (an extension element's): moved to the cleaned name
    const member = record[name];
    delete record[name];
    Object.defineProperty(record, cleanName, {
      value: member,
      writable: true,
      enumerable: true,
      configurable: true,
    });
    changed = true;
  }
  return changed;
}
