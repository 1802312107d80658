import { isAscii, isUtf8 } from 'node:buffer';
import { TextDecoder } from 'node:util';
import { DIAGNOSTIC_CODES, type Diagnostic, type DiagnosticCode } from '../../model/index.js';
import { detectCharset } from './charset-detect.js';
import { DocumentText } from './document-text.js';
import { decodeWindows1252 } from './windows-1252.js';

export { decodeWindows1252 } from './windows-1252.js';

export interface DecodedDocument extends Decoding {
  /** Decoded text, byte-order mark removed. */
  text: string;
}

/** A decoded document whose text may be read in pieces (document-text.ts). */
export interface DecodedSource extends Decoding {
  /** Decoded text, byte-order mark removed. */
  source: DocumentText;
}

/** What decoding a document found. */
interface Decoding {
  /** The encoding actually applied, as a lower-case label: 'utf-8', 'windows-1252', 'utf-16le', 'gb18030' ... */
  encoding: string;
  /** True when the encoding situation makes the document not well-formed (Universal Feed Parser rules). */
  bozo: boolean;
  bozoReason?: string;
  /** One per problem; severities from the catalogue. */
  diagnostics: Diagnostic[];
}

/** Where a candidate encoding came from, strongest first. */
type Source = 'bom' | 'http' | 'rfc3023' | 'declaration' | 'sniffed' | 'default' | 'detected' | 'fallback';

interface Candidate {
  label: string;
  source: Source;
}

const SOURCE_NAMES: Record<Source, string> = {
  bom: 'byte-order mark',
  http: 'HTTP charset',
  rfc3023: 'text/xml default, RFC 3023',
  declaration: 'XML declaration',
  sniffed: 'first bytes',
  default: 'XML default when nothing is declared',
  detected: 'guessed from the bytes',
  fallback: 'last resort',
};

/** What the first four bytes say about the code unit width (XML 1.0 appendix F). */
type Sniff = 'utf-32be' | 'utf-32le' | 'utf-16be' | 'utf-16le' | 'ascii' | undefined;

type MediaKind = 'text-xml' | 'xml' | 'json' | 'other';

interface Media {
  type: string;
  kind: MediaKind;
  charset: string | undefined;
}

const BOZO_CODES: ReadonlySet<string> = new Set(
  'document.content-type encoding.unknown encoding.mismatch encoding.text-xml-default'.split(' '),
);

/** Decodes a document into one string (see decodeSource). */
export function decodeDocument(bytes: Uint8Array, contentType?: string): DecodedDocument {
  const { source, ...decoding } = decodeSource(bytes, contentType);
  return { ...decoding, text: source.full() };
}

/** Decodes a document: BOM, then HTTP charset, then XML declaration (RFC 3023 rules), then UTF-8, then windows-1252. */
export function decodeSource(bytes: Uint8Array, contentType?: string): DecodedSource {
  const diagnostics: Diagnostic[] = [];
  const media = parseContentType(contentType);
  if (media?.kind === 'other') {
    const message = `encoding: Content-Type ${media.type || '(empty)'} is not an XML or feed type; read anyway`;
    diagnostics.push(diagnostic('document.content-type', message));
  }
  const bom = sniffBom(bytes);
  const body = bom === undefined ? bytes : bytes.subarray(bom.length);
  // After a BOM the BOM decides the code unit width; without one the first bytes do.
  const sniff = bom === undefined ? sniffCodeUnits(body) : bom.sniff;
  const candidates = listCandidates(bom?.encoding, media, readDeclaredEncoding(body, sniff), sniff);
  const chosen = chooseEncoding(body, candidates, sniff, diagnostics);
  const firstBozo = diagnostics.find((d) => BOZO_CODES.has(d.code));
  const result: DecodedSource = { ...chosen, bozo: firstBozo !== undefined, diagnostics };
  if (firstBozo !== undefined) result.bozoReason = firstBozo.message;
  return result;
}

/** Lists the encodings to try, strongest evidence first; windows-1252 last because it fits any bytes. */
function listCandidates(
  bomEncoding: string | undefined,
  media: Media | undefined,
  declared: string | undefined,
  sniff: Sniff,
): Candidate[] {
  const candidates: Candidate[] = [];
  if (bomEncoding !== undefined) candidates.push({ label: bomEncoding, source: 'bom' });
  if (media?.charset !== undefined) candidates.push({ label: media.charset, source: 'http' });
  else if (media?.kind === 'text-xml') candidates.push({ label: 'us-ascii', source: 'rfc3023' });
  // Also after text/xml's us-ascii: when that does not fit, the Universal Feed Parser tries the declaration.
  if (declared !== undefined) candidates.push({ label: declared, source: 'declaration' });
  if (sniff !== undefined && sniff !== 'ascii') candidates.push({ label: sniff, source: 'sniffed' });
  candidates.push({ label: 'utf-8', source: 'default' });
  // When nothing declared fits either: a guess from the bytes (not for UTF-16/32, which the BOM or NULs tell)
  if (bomEncoding === undefined && (sniff === undefined || sniff === 'ascii'))
    candidates.push({ label: '', source: 'detected' });
  candidates.push({ label: 'windows-1252', source: 'fallback' });
  return candidates;
}

/** Tries the candidates in order and returns the first encoding that fits the bytes, with its text. */
function chooseEncoding(
  body: Uint8Array,
  candidates: Candidate[],
  sniff: Sniff,
  diagnostics: Diagnostic[],
): { source: DocumentText; encoding: string } {
  const attempt = makeAttempt(body, sniff);
  const failed: string[] = [];
  const failedSources: Source[] = [];
  // how the bytes read as UTF-8 (where they stop being it, and whether they mostly are): scanned once,
  // when UTF-8 is first refused
  let utf8Scan: Utf8Scan | undefined;
  const tried = new Set<string>();
  for (const [index, candidate] of candidates.entries()) {
    const label = candidate.source === 'detected' ? detectCharset(body) : candidate.label;
    if (label === undefined) continue;
    const encoding = resolveLabel(label, sniff);
    if (encoding === undefined) {
      if (candidate.source === 'detected') continue; // a guess that TextDecoder cannot read: no guess
      const message = `encoding: unknown charset "${label}" (${SOURCE_NAMES[candidate.source]}); ignored`;
      diagnostics.push(diagnostic('encoding.unknown', message));
      continue;
    }
    const isLastResort = candidate.source === 'fallback';
    if (tried.has(encoding) && !isLastResort) continue;
    // A server's default Latin charset over a document that says UTF-8 and is: the bytes decide (read as
    // the header says, "café" was stored as "cafÃ©" with status ok). A document that is not valid UTF-8,
    // or is all ASCII, reads as the header says, as RFC 7303 has it.
    if (
      candidate.source === 'http' &&
      isLatin(encoding) &&
      declaresUtf8(candidates, sniff) &&
      isUtf8(body) &&
      !isAscii(body)
    ) {
      const message = `encoding: the HTTP Content-Type says ${encoding}, but the bytes are UTF-8, as the XML declaration says; read as utf-8`;
      diagnostics.push(diagnostic('encoding.override', message));
      continue;
    }
    tried.add(encoding);
    let source = isLastResort ? DocumentText.of(decodeWindows1252(body)) : attempt(encoding);
    let how = candidate.source === 'detected' ? `${encoding} (${SOURCE_NAMES.detected})` : encoding;
    if (source === undefined) {
      failed.push(`${encoding} (${SOURCE_NAMES[candidate.source]})`);
      failedSources.push(candidate.source);
      if (encoding === 'utf-8') utf8Scan ??= scanUtf8(body);
      // A UTF-16/32 BOM or NUL pattern is stronger evidence than any fallback: keep that reading, mark the
      // damage. So is UTF-8 that a document says it is and mostly is: read as windows-1252 its good
      // characters would turn to mojibake ("é" to "Ã©") for a few bad bytes.
      // Undeclared, XML's default is UTF-8: a document whose bytes are clearly UTF-8 but for a stray few
      // (a Latin byte pasted into one title) is read so too, not turned whole into windows-1252 mojibake.
      const mostlyUtf8 =
        encoding === 'utf-8' &&
        utf8Scan !== undefined &&
        (candidate.source === 'default' ? isClearlyMostly(utf8Scan) : isMostly(utf8Scan));
      if (encoding !== sniff && !mostlyUtf8) continue;
      source = DocumentText.of(decodeLossy(encoding, body));
      how = `${encoding}, invalid sequences replaced by U+FFFD`;
    }
    if (failed.length > 0 && onlyTextXmlDefault(failedSources, candidate.source, how, encoding)) {
      // text/xml with no charset meant us-ascii in RFC 3023; RFC 7303 let the document say, and it did:
      // bozo as the Universal Feed Parser has it, but a warning, not damage (servers send bare text/xml)
      const message = `encoding: text/xml without a charset is us-ascii by RFC 3023, which these bytes are not; read as ${encoding}, as the document says (RFC 7303)`;
      diagnostics.push(diagnostic('encoding.text-xml-default', message));
    } else if (failed.length > 0) {
      const message = `encoding: the bytes are not valid ${failed.join(', nor ')}; read as ${how}`;
      diagnostics.push({
        ...diagnostic('encoding.mismatch', message),
        ...lineAndColumn(body, utf8Scan?.firstInvalid),
      });
    }
    reportOverrides(candidates.slice(index + 1), encoding, source, sniff, diagnostics);
    return { source, encoding };
  }
  throw new Error('encoding: windows-1252 must accept every byte sequence');
}

/**
 * Reports the declared charsets (HTTP, XML declaration) a stronger source overrode. Not bozo: the
 * Universal Feed Parser accepts e.g. an HTTP charset that beats the declaration. ASCII-only text
 * reads the same in every ASCII-compatible encoding, so nothing was overridden in effect.
 */
function reportOverrides(
  weaker: Candidate[],
  applied: string,
  source: DocumentText,
  sniff: Sniff,
  diagnostics: Diagnostic[],
): void {
  for (const candidate of weaker) {
    if (candidate.source !== 'http' && candidate.source !== 'declaration') continue;
    const declared = resolveLabel(candidate.label, sniff);
    if (declared === applied) continue;
    if (declared !== undefined && !isWide(declared) && !isWide(applied) && !source.hasNonAscii()) continue;
    const what = declared ?? `unknown "${candidate.label}"`;
    const message = `encoding: the ${SOURCE_NAMES[candidate.source]} says ${what}, overridden by ${applied}`;
    diagnostics.push(diagnostic('encoding.override', message));
  }
}

/** Returns a function that reads the body strictly in an encoding, or undefined when it does not fit. */
function makeAttempt(body: Uint8Array, sniff: Sniff): (encoding: string) => DocumentText | undefined {
  return (encoding) => {
    if (!fitsSniff(encoding, sniff)) return undefined;
    // Valid UTF-8 (ASCII is too) is checked without decoding, and decoded in pieces as it is parsed.
    if (encoding === 'utf-8') return isUtf8(body) ? DocumentText.fromUtf8(body) : undefined;
    if (encoding === 'us-ascii') return isAscii(body) ? DocumentText.fromUtf8(body) : undefined;
    const text = decodeStrict(encoding, body);
    return text === undefined ? undefined : DocumentText.of(text);
  };
}

/** NUL bytes in the first four prove a UTF-16/32 document; an ASCII `<` rules UTF-16/32 out. */
function fitsSniff(encoding: string, sniff: Sniff): boolean {
  if (sniff === undefined) return true;
  if (sniff === 'ascii') return !isWide(encoding);
  return encoding === sniff;
}

function isWide(encoding: string): boolean {
  return encoding.startsWith('utf-16') || encoding.startsWith('utf-32');
}

const fatalDecoders = new Map<string, TextDecoder>();

/** Decodes bytes in a resolved encoding other than UTF-8, or returns undefined when they are not valid in it. */
function decodeStrict(encoding: string, bytes: Uint8Array): string | undefined {
  if (encoding === 'windows-1252' || encoding === 'iso-8859-1') return decodeWindows1252(bytes);
  if (encoding === 'utf-32le' || encoding === 'utf-32be') return decodeUtf32(bytes, encoding, true);
  let decoder = fatalDecoders.get(encoding);
  if (decoder === undefined) {
    decoder = new TextDecoder(encoding, { fatal: true, ignoreBOM: true });
    fatalDecoders.set(encoding, decoder);
  }
  try {
    return decoder.decode(bytes);
  } catch {
    return undefined;
  }
}

/** Decodes UTF-16/32 bytes, replacing invalid sequences with U+FFFD. */
function decodeLossy(encoding: string, bytes: Uint8Array): string {
  if (encoding === 'utf-32le' || encoding === 'utf-32be') return decodeUtf32(bytes, encoding, false) ?? '';
  return new TextDecoder(encoding, { ignoreBOM: true }).decode(bytes);
}

/** Decodes UTF-32 by hand: WHATWG dropped it, so TextDecoder does not know it. */
function decodeUtf32(
  bytes: Uint8Array,
  encoding: 'utf-32le' | 'utf-32be',
  fatal: boolean,
): string | undefined {
  const whole = bytes.length - (bytes.length % 4);
  if (fatal && whole !== bytes.length) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const chunks: string[] = [];
  let codePoints: number[] = [];
  for (let offset = 0; offset < whole; offset += 4) {
    let codePoint = view.getUint32(offset, encoding === 'utf-32le');
    if (codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff)) {
      if (fatal) return undefined;
      codePoint = 0xfffd;
    }
    codePoints.push(codePoint);
    // String.fromCodePoint takes its arguments on the stack: convert in slices.
    if (codePoints.length === 8192) {
      chunks.push(String.fromCodePoint(...codePoints));
      codePoints = [];
    }
  }
  chunks.push(String.fromCodePoint(...codePoints));
  if (whole !== bytes.length) chunks.push('\ufffd');
  return chunks.join('');
}

const BOMS: ReadonlyArray<{ bytes: number[]; encoding: string; sniff: Sniff }> = [
  // UTF-32LE before UTF-16LE: FF FE 00 00 starts with the UTF-16LE mark.
  { bytes: [0xff, 0xfe, 0x00, 0x00], encoding: 'utf-32le', sniff: 'utf-32le' },
  { bytes: [0x00, 0x00, 0xfe, 0xff], encoding: 'utf-32be', sniff: 'utf-32be' },
  { bytes: [0xef, 0xbb, 0xbf], encoding: 'utf-8', sniff: 'ascii' },
  { bytes: [0xff, 0xfe], encoding: 'utf-16le', sniff: 'utf-16le' },
  { bytes: [0xfe, 0xff], encoding: 'utf-16be', sniff: 'utf-16be' },
];

/** Returns the byte-order mark the bytes start with, if any. */
function sniffBom(bytes: Uint8Array): { encoding: string; length: number; sniff: Sniff } | undefined {
  const bom = BOMS.find((b) => b.bytes.every((value, index) => bytes[index] === value));
  return bom && { encoding: bom.encoding, length: bom.bytes.length, sniff: bom.sniff };
}

// Where the NUL bytes are among the first four ('0' NUL, 'x' other) when a document starts with
// `<` or whitespace (XML 1.0 appendix F); a JSON Feed's `{` works the same.
const NUL_PATTERNS: Record<string, Sniff> = {
  xxxx: 'ascii',
  '000x': 'utf-32be',
  x000: 'utf-32le',
  '0x0x': 'utf-16be',
  x0x0: 'utf-16le',
};

/** Guesses the code unit width from the first four bytes, or undefined when they do not tell. */
function sniffCodeUnits(bytes: Uint8Array): Sniff {
  if (bytes.length < 4) return undefined;
  return NUL_PATTERNS[Array.from(bytes.subarray(0, 4), (byte) => (byte === 0 ? '0' : 'x')).join('')];
}

/** Reads the XML declaration's encoding from the first bytes, in the code unit width sniffed. */
function readDeclaredEncoding(body: Uint8Array, sniff: Sniff): string | undefined {
  const width = sniff?.startsWith('utf-32') ? 4 : sniff?.startsWith('utf-16') ? 2 : 1;
  const head = body.subarray(0, 512 * width);
  const text = width === 1 || sniff === undefined ? decodeWindows1252(head) : decodeLossy(sniff, head);
  return sniffXmlDeclaredEncoding(text);
}

const XML_DECLARATION = /^\uFEFF?\s*<\?xml\s[^>]*?\bencoding\s*=\s*(["'])([^"'<>]{1,64})\1/;

/** Returns the encoding label of the text's XML declaration as written (trimmed), or undefined. */
export function sniffXmlDeclaredEncoding(text: string): string | undefined {
  const label = XML_DECLARATION.exec(text.slice(0, 1024))?.[2]?.trim();
  return label === '' ? undefined : label;
}

// Python and Java spellings of UTF-16/32 that feeds declare (u16, utf_16, ucs-2 ...). Without an
// endianness the bytes decide, as in the Universal Feed Parser's u16.xml and utf_32.xml.
const UNICODE_LABEL = /^(?:(?:utf-?|u)(16|32)|(?:ucs-?|iso-10646-ucs-)([24]))(?:-?(le|be))?$/;
const UNICODE_ALIASES: Record<string, string> = { unicode: 'utf-16', csunicode: 'utf-16', csucs4: 'utf-32' };

// Reported as the Universal Feed Parser's tests expect; decoded as windows-1252 (WHATWG).
const ASCII_LABELS = new Set(
  'us-ascii ascii ansi_x3.4-1968 iso646-us us csascii cp367 ibm367 iso-ir-6'.split(' '),
);
const LATIN1_LABELS = new Set(
  'iso-8859-1 iso8859-1 iso_8859-1 iso88591 latin1 latin-1 l1 cp819 ibm819 csisolatin1 iso-ir-100'.split(' '),
);

/** Returns the lower-case encoding a charset label names, or undefined when it is unknown. */
function resolveLabel(label: string, sniff: Sniff): string | undefined {
  const name = label.trim().toLowerCase();
  const dashed = name.replaceAll('_', '-');
  const unicode = resolveUnicodeLabel(UNICODE_ALIASES[dashed] ?? dashed, sniff);
  if (unicode !== undefined) return unicode;
  if (ASCII_LABELS.has(name)) return 'us-ascii';
  if (LATIN1_LABELS.has(name) || LATIN1_LABELS.has(dashed)) return 'iso-8859-1';
  const whatwg = whatwgEncoding(name) ?? whatwgEncoding(dashed);
  // WHATWG decodes gb2312 and gbk with the gb18030 decoder; the Universal Feed Parser reports gb18030.
  return whatwg === 'gbk' ? 'gb18030' : whatwg;
}

function resolveUnicodeLabel(name: string, sniff: Sniff): string | undefined {
  const match = UNICODE_LABEL.exec(name);
  if (match === null) return undefined;
  const width = match[1] === '16' || match[2] === '2' ? 'utf-16' : 'utf-32';
  if (match[3] !== undefined) return `${width}${match[3]}`;
  if (sniff?.startsWith(width)) return sniff;
  return `${width}le`;
}

/** Returns the WHATWG name TextDecoder gives a label, or undefined when it does not know it. */
function whatwgEncoding(label: string): string | undefined {
  if (label === '' || label.length > 64) return undefined;
  try {
    return new TextDecoder(label).encoding;
  } catch {
    return undefined;
  }
}

/** Parses a Content-Type header leniently: case, spaces, quotes, extra parameters, junk. */
function parseContentType(contentType: string | undefined): Media | undefined {
  if (contentType === undefined || contentType.trim() === '') return undefined;
  const [typePart = '', ...parameters] = contentType.split(';');
  const type = typePart.trim().toLowerCase();
  let charset: string | undefined;
  for (const parameter of parameters) {
    // `charset:iso-8859-1` is not a parameter (Universal Feed Parser http_text_xml_bogus_param.xml).
    const equals = parameter.indexOf('=');
    if (equals < 0 || parameter.slice(0, equals).trim().toLowerCase() !== 'charset') continue;
    const value = parameter
      .slice(equals + 1)
      .trim()
      .replace(/^["']|["']$/g, '')
      .trim();
    if (value !== '') charset = value;
  }
  return { type, kind: classifyMediaType(type), charset };
}

// RFC 3023: text/xml types default to us-ascii, application/xml types to the XML declaration.
const TEXT_XML_TYPE = /^text\/(?:xml|xml-external-parsed-entity|[^/]+\+xml)$/;
const XML_TYPE = /^application\/(?:xml|xml-dtd|xml-external-parsed-entity|[^/]+\+xml)$/;
// JSON Feed is a feed too (application/feed+json); the XML defaults (UTF-8) suit it.
const JSON_TYPE = /^[^/]+\/(?:json|[^/]+\+json)$/;

function classifyMediaType(type: string): MediaKind {
  if (TEXT_XML_TYPE.test(type)) return 'text-xml';
  if (XML_TYPE.test(type)) return 'xml';
  return JSON_TYPE.test(type) ? 'json' : 'other';
}

function diagnostic(code: DiagnosticCode, message: string): Diagnostic {
  return { severity: DIAGNOSTIC_CODES[code].severity, code, message };
}

/**
 * Bytes read as UTF-8: how many multi-byte characters are well formed, how many sequences are not (a
 * stray continuation byte, a lead byte without its continuations, an overlong or surrogate form), and
 * the byte offset of the first of those.
 */
interface Utf8Scan {
  valid: number;
  invalid: number;
  firstInvalid: number | undefined;
}

/**
 * True when bytes that are not all UTF-8 are UTF-8 still, with a few bad bytes: some multi-byte
 * characters are well formed, and at most as many sequences are not. A windows-1252 document labelled
 * UTF-8 has no well-formed multi-byte character ("é" is one byte, 0xE9, a lead byte alone).
 */
function isMostly({ valid, invalid }: Utf8Scan): boolean {
  return valid > 0 && invalid <= valid;
}

/**
 * UTF-8 by the bytes alone: several valid multi-byte characters for each invalid byte. Text in a Latin
 * charset forms valid UTF-8 sequences by chance only (an "Ã" before a "©"), so it does not pass.
 */
function isClearlyMostly({ valid, invalid }: Utf8Scan): boolean {
  return valid >= 3 && invalid * 4 <= valid;
}

function scanUtf8(bytes: Uint8Array): Utf8Scan {
  let valid = 0;
  let invalid = 0;
  let firstInvalid: number | undefined;
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    const length = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    let ok = length > 0 && i + length <= bytes.length;
    for (let k = 1; ok && k < length; k++) ok = ((bytes[i + k] as number) & 0xc0) === 0x80;
    if (ok && length === 3) {
      const second = bytes[i + 1] as number;
      ok = !(b === 0xe0 && second < 0xa0) && !(b === 0xed && second > 0x9f);
    }
    if (ok && length === 4) {
      const second = bytes[i + 1] as number;
      ok = !(b === 0xf0 && second < 0x90) && !(b === 0xf4 && second > 0x8f);
    }
    if (ok) {
      valid++;
      i += length;
    } else {
      invalid++;
      firstInvalid ??= i;
      i++;
    }
  }
  return { valid, invalid, firstInvalid };
}

/**
 * The line and column of the first byte that does not fit, counted in characters as every other
 * diagnostic counts them (UTF-16 units, as the text is read): the bytes before it are valid UTF-8, so a
 * character is a byte that does not continue a sequence, and one of four bytes is two units.
 */
function lineAndColumn(bytes: Uint8Array, offset: number | undefined): { line?: number; column?: number } {
  if (offset === undefined) return {};
  let line = 1;
  let column = 1;
  for (let i = 0; i < offset; i++) {
    const byte = bytes[i] as number;
    if (byte === 0x0a) {
      line++;
      column = 1;
    } else if (byte >= 0xf0) column += 2;
    else if ((byte & 0xc0) !== 0x80) column++;
  }
  return { line, column };
}

/**
 * True when the only charset the bytes did not fit was RFC 3023's us-ascii default for text/xml, and what
 * they were read as is what the document itself says (its BOM, XML declaration, or XML's UTF-8 default),
 * read whole (no byte replaced).
 */
function onlyTextXmlDefault(
  failed: readonly Source[],
  applied: Source,
  how: string,
  encoding: string,
): boolean {
  return (
    failed.length > 0 &&
    failed.every((source) => source === 'rfc3023') &&
    (applied === 'bom' || applied === 'declaration' || applied === 'default' || applied === 'sniffed') &&
    how === encoding
  );
}

/** A single-byte Latin encoding, which any bytes fit: a server's default more often than a document's. */
function isLatin(encoding: string): boolean {
  return encoding === 'windows-1252' || /^iso-8859-(1|15)$/.test(encoding);
}

function declaresUtf8(candidates: readonly Candidate[], sniff: Sniff): boolean {
  return candidates.some((c) => c.source === 'declaration' && resolveLabel(c.label, sniff) === 'utf-8');
}
