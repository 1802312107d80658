// From bytes to text: the document's encoding (byte-order mark, HTTP charset, XML declaration, a guess
// from the bytes), windows-1252 as WHATWG decodes it, the decoded document in pieces, and the repair of
// text that was encoded twice.

export { DocumentText } from './document-text.js';
export { type DecodedDocument, type DecodedSource, decodeDocument, decodeSource } from './encoding.js';
export { repairText } from './mojibake.js';
