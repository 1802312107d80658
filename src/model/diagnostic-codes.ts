import type { Severity } from './diagnostic.js';

/**
 * Every diagnostic code the parser and the poller emit, with its severity and what it means in words.
 * The CLI, the web UI and the tests share this table; add a code here before using it.
 */
export const DIAGNOSTIC_CODES = {
  // XML well-formedness (strict pass) and recovery
  'xml.not-well-formed': { severity: 'error', summary: 'the document is not well-formed XML' },
  'xml.recovered': { severity: 'warning', summary: 'entries were read by the tolerant parser' },
  'xml.undefined-entity': { severity: 'error', summary: 'an entity that XML does not define' },
  'xml.leading-whitespace': { severity: 'warning', summary: 'whitespace before the XML declaration' },
  'xml.truncated': { severity: 'error', summary: 'the document ends before its root element is closed' },
  'xml.doctype-entity': { severity: 'warning', summary: 'a DTD entity declaration was ignored' },
  'xml.parameter-entity': { severity: 'warning', summary: 'a DTD parameter entity was declared and ignored' },
  'xml.parameter-entity-used': {
    severity: 'error',
    summary: 'the DTD declares entities or attributes through parameter entities, which are not read',
  },
  'xml.external-entity': { severity: 'error', summary: 'an external entity (XXE) was refused' },
  'xml.entity-expansion': { severity: 'error', summary: 'entity expansion exceeded its limit' },
  'xml.too-deep': { severity: 'error', summary: 'elements nest deeper than the limit' },
  'xml.too-many-attributes': {
    severity: 'error',
    summary: 'an element has more attributes than the limit; the first were kept',
  },
  'xml.too-large': { severity: 'error', summary: 'the document is larger than the limit' },
  // documents that are not feeds
  'document.unreadable': { severity: 'error', summary: 'the document could not be read' },
  'document.empty': { severity: 'error', summary: 'the document is empty' },
  'document.html': { severity: 'error', summary: 'this is an HTML page, not a feed' },
  'document.feed-embedded': { severity: 'warning', summary: 'the feed is nested inside another document' },
  'document.markup-before-feed': {
    severity: 'warning',
    summary: 'other markup comes before the feed (a server warning printed first)',
  },
  'document.opml': {
    severity: 'error',
    summary: 'this is an OPML subscription list, not a feed: import it to follow its feeds',
  },
  'document.not-a-feed': { severity: 'error', summary: 'the document is not a known feed format' },
  'document.content-type': { severity: 'warning', summary: 'the Content-Type is not a feed type' },
  'json.invalid': { severity: 'error', summary: 'the JSON document could not be parsed' },
  'json.version': {
    severity: 'warning',
    summary: "the JSON Feed's version is missing or unknown: read as JSON Feed 1.0",
  },
  // encodings
  'encoding.mismatch': { severity: 'error', summary: 'the bytes do not match the declared charset' },
  'encoding.unknown': { severity: 'warning', summary: 'the declared charset is unknown' },
  'encoding.override': { severity: 'warning', summary: 'a declared charset was overridden' },
  'encoding.text-xml-default': {
    severity: 'warning',
    summary:
      "text/xml without a charset (RFC 3023's us-ascii) over bytes that are not: read as the document says",
  },
  // entry and field level
  'date.unparseable': { severity: 'warning', summary: 'a date could not be read; the raw text is kept' },
  'date.future': { severity: 'warning', summary: 'a date lies far in the future' },
  'entry.no-id': { severity: 'warning', summary: 'an entry has no id; one was derived' },
  'entry.guid.duplicate': { severity: 'warning', summary: 'two entries share one id' },
  'entry.unreadable': { severity: 'error', summary: 'an entry could not be read' },
  'field.invalid': { severity: 'warning', summary: 'a field value is not what the format allows' },
  'field.too-long': {
    severity: 'warning',
    summary: 'a field was longer than the limit (1 MiB of content, 8 KiB of title); it was cut to fit',
  },
  'url.invalid': { severity: 'warning', summary: 'a URL could not be resolved' },
  'entries.truncated': {
    severity: 'warning',
    summary: 'the document has more entries than the limit; the first were read',
  },
  'text.control-character': {
    severity: 'warning',
    summary: 'a field held control characters (removed) or lone surrogates (replaced with U+FFFD)',
  },
  'html.too-many-attributes': {
    severity: 'warning',
    summary: 'an HTML tag has more attributes than the limit; the first were kept',
  },
  'html.sanitized': { severity: 'warning', summary: 'active content was removed from HTML' },
} as const satisfies Record<string, { severity: Severity; summary: string }>;

export type DiagnosticCode = keyof typeof DIAGNOSTIC_CODES;
