const NAME_RE = /^(?:#[0-9]+|#x[0-9a-fA-F]+|[A-Za-z_:][\w.:-]*);/;

/**
 * The first `&` before `end` that starts no entity or character reference, outside CDATA sections,
 * comments and processing instructions; -1 when there is none. saxes reads a bare `&` as the start of
 * an entity name up to the next `;`, often the end of the document, so its error points far from
 * the real mistake (fixture: robustness/broken-item.xml). This finds the real place.
 */
export function findBareAmpersand(text: string, end: number): number {
  let i = text.indexOf('&');
  while (i >= 0 && i < end) {
    const skipTo = closingOfSkippedSection(text, i);
    if (skipTo > i) {
      i = text.indexOf('&', skipTo);
      continue;
    }
    if (!NAME_RE.test(text.slice(i + 1, i + 66))) return i;
    i = text.indexOf('&', i + 1);
  }
  return -1;
}

// When `at` lies inside a CDATA section, comment or PI, the index just past its end; else `at`.
function closingOfSkippedSection(text: string, at: number): number {
  for (const [open, close] of [
    ['<![CDATA[', ']]>'],
    ['<!--', '-->'],
    ['<?', '?>'],
  ] as const) {
    const start = text.lastIndexOf(open, at);
    if (start < 0) continue;
    const stop = text.indexOf(close, start + open.length);
    if (stop < 0 || stop + close.length > at) return stop < 0 ? text.length : stop + close.length;
  }
  return at;
}
