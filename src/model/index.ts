export type { Diagnostic, Severity } from './diagnostic.js';
export type { Entry, EntrySource } from './entry.js';
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
