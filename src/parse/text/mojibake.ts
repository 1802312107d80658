import { repairC1 } from './windows-1252.js';

// A run of characters in U+0080-U+00FF that spells a UTF-8 sequence: text that was UTF-8 encoded
// twice (fixture: encoding/double-encoded-html.xml writes "…" as &#226;&#128;&#166;).
const DOUBLE_ENCODED = /[\u00c2-\u00f4][\u0080-\u00bf]{1,3}/g;
const SUSPECT = /[\u0080-\u009f]/;
const C1_CONTROL = /[\u0080-\u009f]/g;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Repairs the two commonest mis-encodings of text in feeds: UTF-8 read as latin-1 (when the bytes
 * form valid UTF-8) and windows-1252 punctuation left as C1 control characters (U+0092 for ’).
 * C1 controls never belong in feed text, so only text that has them is touched.
 */
export function repairText(value: string): string {
  if (!SUSPECT.test(value)) return value;
  const fixed = value.replace(DOUBLE_ENCODED, (run) => {
    const bytes = Uint8Array.from(run, (ch) => ch.charCodeAt(0));
    try {
      return utf8.decode(bytes);
    } catch {
      return run;
    }
  });
  return fixed.replace(C1_CONTROL, repairC1);
}
