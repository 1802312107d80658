// windows-1252 is the most common legacy feed encoding, and the WHATWG Encoding Standard also reads
// iso-8859-1 and us-ascii labels with it. Node 20's TextDecoder gets it wrong: it decodes bytes
// 0x80-0x9F as C1 control characters, as plain latin1 would (nodejs/node #56542). We decode latin1
// (byte value = code point, always correct outside 0x80-0x9F) and then repair that one range.

/**
 * The code points of bytes 0x80-0x9F in windows-1252 (WHATWG index-windows-1252). The five bytes
 * that windows-1252 leaves undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D) keep their own code point, as
 * WHATWG says.
 */
const C1_RANGE_AS_WINDOWS_1252 =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

const C1_CONTROL = /[\u0080-\u009f]/g;

/** Returns the character windows-1252 assigns to a code unit in 0x80-0x9F (others unchanged). */
export function repairC1(char: string): string {
  return C1_RANGE_AS_WINDOWS_1252[char.charCodeAt(0) - 0x80] ?? char;
}

/** Decodes windows-1252 bytes to text, mapping 0x80-0x9F as WHATWG does (e.g. 0x80 to U+20AC). */
export function decodeWindows1252(bytes: Uint8Array): string {
  const latin1 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  return latin1.replace(C1_CONTROL, repairC1);
}
