export type { Diagnostic, Severity } from './diagnostic.js';
export { DIAGNOSTIC_CODES, type DiagnosticCode } from './diagnostic-codes.js';
export type { Entry, EntrySource } from './entry.js';
export { MF2_PROPERTIES } from './entry.js';
export type {
  Category,
  Cloud,
  Common,
  Enclosure,
  Feed,
  Generator,
  Image,
  Itunes,
  Link,
  Media,
  MediaContent,
  Person,
  Syndication,
  Text,
  TextInput,
  Where,
} from './feed.js';
export type { FeedVersion, ParseResult } from './parse-result.js';
export { plural } from './plural.js';
export { safeLinkUrl } from './safe-url.js';
