const NAME_RE = /^(?:#[0-9]+|#x[0-9a-fA-F]+|[A-Za-z_:][\w.:-]*);/;
// An `&` or the start of a section whose `&`s are not references
const SCAN_RE = /&|<!\[CDATA\[|<!--|<\?/g;
/** Sections whose `&` and `<` are not markup: CDATA, comments, processing instructions, by their start. */
export const SECTION_END: Readonly<Record<string, string>> = {
  '<![CDATA[': ']]>',
  '<!--': '-->',
  '<?': '?>',
};

/**
 * The first `&` before `end` that starts no entity or character reference, outside CDATA sections,
 * comments and processing instructions; -1 when there is none. saxes reads a bare `&` as the start of
 * an entity name up to the next `;`, often the end of the document, so its error points far from
 * the real mistake (fixture: robustness/broken-item.xml). This finds the real place.
 * One pass forward: searching back for a section start at each `&` took 35 s on an 870 KB feed (issue 12).
 */
export function findBareAmpersand(text: string, end: number): number {
  return findBareAmpersands(text, 1, end)[0] ?? -1;
}

/**
 * Every `&` before `end` that starts no reference, outside CDATA sections, comments and processing
 * instructions, up to `max` of them, in order: the problems of a document past its first, each reported
 * where it is.
 */
export function findBareAmpersands(text: string, max: number, end = text.length): number[] {
  const found: number[] = [];
  const scan = new RegExp(SCAN_RE);
  for (let m = scan.exec(text); m !== null && m.index < end && found.length < max; m = scan.exec(text)) {
    const at = m[0];
    if (at === '&') {
      if (!NAME_RE.test(text.slice(m.index + 1, m.index + 66))) found.push(m.index);
      continue;
    }
    const close = text.indexOf(SECTION_END[at] as string, m.index + at.length);
    if (close < 0) break;
    scan.lastIndex = close + (SECTION_END[at] as string).length;
  }
  return found;
}
