// The store's front door: code outside src/store imports from here only. The store is one object by area
// (store.feeds, store.entries, store.channels, store.reading, store.sync, store.accounts, ...), each area a
// class whose methods are its queries; the types below are what those methods take and give.

export { hashToken, newToken, TOKEN_SCOPES } from './accounts/index.js';
export { pickerOrder } from './channels/index.js';
export { encodeCursor } from './cursor.js';
export { openEventRelay } from './event-relay.js';
export {
  DESTINATION_KINDS,
  type DestinationKind,
  EVENT_TYPES,
  type EventType,
  isEventType,
  type NewDestination,
  type OutboxClaim,
  type OutboxCounts,
  type OutboxItem,
  type OutboxRecord,
  type QueuedMessage,
  type StoredDestination,
} from './notify/index.js';
export { type OpenOptions, openStore } from './open.js';
export { parseSearchQuery } from './reading/index.js';
export { redactPassword } from './redact.js';
export { type EventRelay, parseRelayMessage, type RelayMessage } from './relay-message.js';
export {
  type EntryMatchedEvent,
  isRuleAction,
  MAX_RULE_QUERY_CHARS,
  type NewRule,
  RULE_ACTIONS,
  type RuleAction,
  type StoredRule,
} from './rules/index.js';
export { searchKey } from './search-key.js';
export type { Store } from './store.js';
export { StoreError, type StoreErrorKind, storeFault } from './store-error.js';
export * from './types.js';
export {
  isUserName,
  type NewUser,
  type RemovedUser,
  type StoredUser,
  USER_NAME_PATTERN,
  type UserPatch,
  Users,
} from './users/index.js';
export {
  type DuePushSubscription,
  PUSH_STATES,
  type PushState,
  type PushSubscription,
  type PushSubscriptionPatch,
} from './websub/index.js';
