export type { Diagnostic, Severity } from './diagnostic.js';
export { DIAGNOSTIC_CODES, type DiagnosticCode } from './diagnostic-codes.js';
export type { Entry, EntrySource } from './entry.js';
export { MF2_PROPERTIES } from './entry.js';
export { entryDate } from './entry-date.js';
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
export type { FetchErrorKind } from './fetch-errors.js';
export { FETCH_ERROR_KINDS } from './fetch-errors.js';
export {
  FEED_HEALTHS,
  type FeedHealth,
  HEARTBEAT_STATUSES,
  type Heartbeat,
  type HeartbeatBar,
  type HeartbeatStatus,
} from './heartbeat.js';
export type { MediaItem } from './media.js';
export {
  entryMediaOf,
  formatDuration,
  mediaKindOf,
  pictureKey,
  pictureWidthOf,
  plausibleBytes,
  toEntryMedia,
} from './media.js';
export type { FeedVersion, ParseResult } from './parse-result.js';
export { plural } from './plural.js';
export { safeLinkUrl } from './safe-url.js';
export type { Channel, StoredEntry, StoredFeed, Subscription } from './stored.js';
export { healthOf } from './stored.js';
