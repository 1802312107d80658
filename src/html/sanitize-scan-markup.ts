// The sanitizer's tokenizer, continued: markup whose content is not tags (comments, doctypes, CDATA
// sections, and the raw text of script, style, title ...), split where htmlparser2's Tokenizer splits it
// in HTML mode (sanitize-scan.test.ts compares them). Each reader reports to the sink and returns where
// text starts again, or -1 when the input ended inside the markup.

import { DASH, GT, isEndOfName, LT } from './char-codes.js';
import type { ScanSink } from './sanitize-scan-sink.js';

/** `<?...>`, `</ ...>`, `<!x...>`: a comment from `start` up to the next `>`, searched from `from`. */
export function readBogusComment(input: string, start: number, from: number, sink: ScanSink): number {
  const gt = input.indexOf('>', from);
  sink.oncomment(start, gt === -1 ? input.length : gt, 0);
  return gt === -1 ? -1 : gt + 1;
}

/** After `<!` (at `at`): a comment, a doctype, a CDATA section, or a bogus comment. */
export function readBang(input: string, at: number, sink: ScanSink): number {
  if (at >= input.length) return readBogusComment(input, at, at, sink);
  const code = input.charCodeAt(at);
  if (code === 0x5b /* [ */) return readCdata(input, at, sink);
  if ((code | 0x20) === 0x64 /* d */) return readDoctype(input, at, sink);
  if (code === GT) {
    sink.oncomment(at, at, 0);
    return at + 1;
  }
  if (code === DASH && input.charCodeAt(at + 1) === DASH) return readComment(input, at + 2, sink);
  if (code === DASH && input.charCodeAt(at + 1) === GT) {
    sink.oncomment(at, at + 1, 0);
    return at + 2;
  }
  return readBogusComment(input, at, at + 1, sink);
}

// Past the end charCodeAt gives NaN, which matches nothing: a cut-off `<![CDATA` is a bogus comment.
function readCdata(input: string, at: number, sink: ScanSink): number {
  const opening = 'CDATA[';
  let index = at + 1;
  while (index < at + 1 + opening.length && input.charCodeAt(index) === opening.charCodeAt(index - at - 1))
    index++;
  if (index < at + 1 + opening.length) return readBogusComment(input, at, index, sink);
  const close = input.indexOf(']]>', index);
  // an unclosed CDATA section is a comment to the end
  if (close === -1) return readBogusComment(input, at, input.length, sink);
  sink.ondeclaration(close + 2);
  return close + 3;
}

function readDoctype(input: string, at: number, sink: ScanSink): number {
  const name = 'doctype';
  let index = at + 1;
  while (index < at + name.length && (input.charCodeAt(index) | 0x20) === name.charCodeAt(index - at))
    index++;
  if (index < at + name.length) return readBogusComment(input, at, index, sink);
  const gt = input.indexOf('>', index);
  if (gt === -1) return -1; // an unclosed doctype is dropped with the rest
  sink.ondeclaration(gt);
  return gt + 1;
}

/**
 * `<!--` up to `-->` or `--!>`; `<!-->` and `<!--->` are empty comments. At the end of the input the
 * comment is reported with the dashes seen so far as endOffset.
 */
function readComment(input: string, start: number, sink: ScanSink): number {
  const ending = '--!>';
  let matched = 0;
  let index = start;
  while (index < input.length) {
    const code = input.charCodeAt(index);
    if (code === GT && (matched === 2 || (matched <= 1 && index === start + matched))) {
      sink.oncomment(start, index, matched);
      return index + 1;
    }
    if (matched === 3 && code !== GT) matched = code === DASH ? 1 : 0;
    else if (code === ending.charCodeAt(matched)) {
      if (++matched === 4) {
        sink.oncomment(start, index, 3);
        return index + 1;
      }
    } else if (matched === 0) {
      const dash = input.indexOf('-', index + 1);
      if (dash === -1) break;
      matched = 1;
      index = dash;
    } else if (code !== ending.charCodeAt(matched - 1)) matched = 0;
    index++;
  }
  sink.oncomment(start, input.length, Math.min(matched, 3));
  return -1;
}

/**
 * The content of a raw-text element, from `start` up to `</name` followed by `/`, `>` or white space:
 * reports it as text and returns where the end tag's name ends, or -1 at the end of the input. As in the
 * Tokenizer, characters are compared with `| 0x20`, so \x1c and \x0f stand in for `<` and `/`.
 */
export function readRawText(input: string, start: number, name: string, sink: ScanSink): number {
  const ending = `</${name}`;
  const isRcdata = name === 'title' || name === 'textarea';
  let matched = 0;
  for (let index = start; index < input.length; index++) {
    const code = input.charCodeAt(index);
    if (matched === ending.length) {
      if (isEndOfName(code)) {
        const textEnd = index - ending.length;
        if (start < textEnd) sink.ontext(start, textEnd);
        return index;
      }
      matched = 0;
    }
    if ((code | 0x20) === ending.charCodeAt(matched)) matched++;
    else if (matched !== 0) matched = code === LT ? 1 : 0;
    else if (!isRcdata) {
      const lt = input.indexOf('<', index + 1);
      if (lt === -1) break;
      matched = 1;
      index = lt;
    }
  }
  if (start < input.length) sink.ontext(start, input.length);
  return -1;
}
