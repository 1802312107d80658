/**
 * Rows of cells as a plain-text table under its header: each column as wide as its widest cell, two
 * spaces between columns, no trailing spaces (token list, user list).
 */
export function textTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((row) => (row[i] ?? '').length)));
  const lines = all.map((row) =>
    row
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd(),
  );
  return `${lines.join('\n')}\n`;
}
