import type { ParseResult } from '../model/index.js';

/** A short human-readable report of one parse: format, feed, entries and every diagnostic. */
export function formatReport(document: string, result: ParseResult): string {
  const isOpml = result.diagnostics.some((d) => d.code === 'document.opml');
  const format = isOpml ? 'OPML, a subscription list (not a feed)' : result.version || 'unknown';
  const lines = [
    `${document}`,
    `  format:   ${format}${result.bozo ? ' (not well-formed)' : ''}`,
    `  encoding: ${result.encoding || '-'}`,
  ];
  if (result.feed.title) lines.push(`  title:    ${result.feed.title}`);
  if (result.feed.link) lines.push(`  link:     ${result.feed.link}`);
  lines.push(`  entries:  ${result.entries.length}`);
  for (const alternate of result.alternates ?? [])
    lines.push(`  feed linked from the page: ${alternate.href}`);
  if (result.diagnostics.length === 0) lines.push('  no problems found');
  for (const d of result.diagnostics) {
    const where = [
      d.line !== undefined ? `line ${d.line}${d.column !== undefined ? `:${d.column}` : ''}` : '',
      d.entry !== undefined ? `entry ${d.entry}` : '',
      d.field !== undefined ? `<${d.field}>` : '',
    ]
      .filter(Boolean)
      .join(', ');
    lines.push(`  ${d.severity.padEnd(7)} ${d.code}${where ? ` (${where})` : ''}: ${d.message}`);
  }
  return `${lines.join('\n')}\n`;
}
