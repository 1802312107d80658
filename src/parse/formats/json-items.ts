const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;

/**
 * The JSON text with the members of the top-level `items` array past the first `max` cut out, and how
 * many were cut. JSON.parse builds every object of a document: 20 MiB of tiny items peaked at 540 MB
 * (issue 12). One pass over the characters; text that is not JSON comes back unchanged.
 */
export function cutJsonItems(text: string, max: number): { text: string; cut: number } {
  let depth = 0;
  let keyAtDepth1 = '';
  let inItems = false;
  let count = 0;
  let cutFrom = -1;
  let expectElement = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (depth === 1) keyAtDepth1 = text.slice(i + 1, end);
      if (inItems && depth === 2 && expectElement) ({ count, cutFrom } = element(count, max, cutFrom, i));
      expectElement = false;
      i = end;
      continue;
    }
    if (c <= 0x20) continue;
    if (inItems && depth === 2 && expectElement) ({ count, cutFrom } = element(count, max, cutFrom, i));
    expectElement = false;
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      depth++;
      if (depth === 2 && c === 0x5b && keyAtDepth1 === 'items') {
        inItems = true;
        expectElement = true;
      }
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      if (inItems && depth === 2) {
        if (cutFrom < 0) return { text, cut: 0 };
        return { text: text.slice(0, cutFrom) + text.slice(i), cut: count - max };
      }
      depth--;
    } else if (c === COMMA && inItems && depth === 2) {
      expectElement = true;
      if (count === max && cutFrom < 0 && max > 0) cutFrom = i;
    }
  }
  return { text, cut: 0 };
}

// An element of the items array starts at `at`: counted, and the cut starts before it when it is one too many.
function element(
  count: number,
  max: number,
  cutFrom: number,
  at: number,
): { count: number; cutFrom: number } {
  const n = count + 1;
  return { count: n, cutFrom: n === max + 1 && max === 0 ? at : cutFrom };
}

// The index of the quote that closes the string opening at `start` (the end of the text when none does).
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  for (;;) {
    const quote = text.indexOf('"', i);
    if (quote < 0) return text.length;
    let slashes = 0;
    while (text.charCodeAt(quote - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return quote;
    i = quote + 1;
  }
}
