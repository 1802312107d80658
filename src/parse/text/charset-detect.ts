import { loadChardet } from '../lazy-imports.js';

// chardet checks the byte structure of these multi-byte encodings: a high confidence is earned. (The
// ISO-2022 ones are 7-bit, valid UTF-8, so no guess is ever asked for them.)
const MULTI_BYTE = new Set(['Big5', 'EUC-JP', 'EUC-KR', 'GB18030', 'Shift_JIS']);
// What the windows-1252 fallback reads anyway.
const LATIN = new Set(['ISO-8859-1', 'windows-1252']);
// Not guesses at all: such bytes have been read as UTF-8 before any guess is asked for.
const NOT_GUESSES = new Set(['ASCII', 'UTF-8']);
// chardet names the ISO code page where feeds are written in Windows' superset of it.
const SUPERSETS: Readonly<Record<string, string>> = {
  'ISO-8859-8': 'windows-1255',
  'ISO-8859-9': 'windows-1254',
};
// Bytes enough to tell; a 50 MB document is not read whole for a guess.
const SAMPLE_BYTES = 64 * 1024;

/**
 * The charset the bytes of a document look like (chardet's statistics), for a document that declares
 * none that fits: Big5, EUC-JP, KOI8-R ... Undefined when the guess is weak or Latin (the windows-1252
 * fallback reads those). Single-byte guesses must clearly beat the Latin ones: chardet ranks Latin
 * text's code pages first, and a Cyrillic or Hebrew one far ahead only for text in those scripts.
 */
export function detectCharset(bytes: Uint8Array): string | undefined {
  const matches = loadChardet().analyse(bytes.subarray(0, SAMPLE_BYTES));
  const best = matches[0];
  if (best === undefined || LATIN.has(best.name) || NOT_GUESSES.has(best.name)) return undefined;
  if (MULTI_BYTE.has(best.name)) return best.confidence >= 50 ? best.name : undefined;
  const latin = Math.max(0, ...matches.filter((m) => LATIN.has(m.name)).map((m) => m.confidence));
  if (best.confidence < 25 || best.confidence < latin * 1.5) return undefined;
  return SUPERSETS[best.name] ?? best.name;
}
