// Character codes the HTML scanner and the sanitizer compare with charCodeAt, and the classes of them
// HTML's tokenizer knows.
export const TAB = 0x09;
export const NEWLINE = 0x0a;
export const FORM_FEED = 0x0c;
export const CARRIAGE_RETURN = 0x0d;
export const SPACE = 0x20;
export const BANG = 0x21;
export const DOUBLE_QUOTE = 0x22;
export const HASH = 0x23;
export const AMP = 0x26;
export const SINGLE_QUOTE = 0x27;
export const DASH = 0x2d;
export const SLASH = 0x2f;
export const SEMICOLON = 0x3b;
export const LT = 0x3c;
export const EQUALS = 0x3d;
export const GT = 0x3e;
export const QUESTION = 0x3f;

/** HTML's white space: space, tab, line feed, form feed, carriage return. */
export function isWhitespace(code: number): boolean {
  return code === SPACE || code === NEWLINE || code === TAB || code === FORM_FEED || code === CARRIAGE_RETURN;
}

/** What ends a tag or attribute name: white space, `/` or `>`. */
export function isEndOfName(code: number): boolean {
  return code === SLASH || code === GT || isWhitespace(code);
}
