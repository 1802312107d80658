// HTML as tidings reads and writes it: the sanitizer (sanitize.ts and the sanitize-* files behind it),
// HTML to text, cutting sanitized HTML to a size, the feeds an HTML page links to, and URL resolution
// with the schemes a reader may link to. parse/ uses all of it; the front ends use htmlToText and
// sanitizeHtml. Imports nothing of tidings but model.

export { type Alternate, findAlternates, HTML_SNIFF_CHARS, looksLikeHtmlPage } from './alternates.js';
export { cutHtml, cutPlainText, fitsInBytes, utf8Bytes } from './cut-text.js';
export { htmlToText } from './html-text.js';
// parse/'s per-document objects keep their fast code the same way as the sanitizer's (keep-shape.ts)
export { keepShape } from './keep-shape.js';
export { MAX_ATTRIBUTES, type SanitizeOptions, type SanitizeReport, sanitizeHtml } from './sanitize.js';
export { hasSafeScheme, isSafeUrl, resolveUrl } from './urls.js';
