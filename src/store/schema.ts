import type { ColumnType, Generated } from 'kysely';

/**
 * The tables as Kysely sees them (snake_case, as stored). Timestamps are ISO 8601 UTC text, JSON
 * fields are text. Booleans are INTEGER 0/1 in SQLite and BOOLEAN in PostgreSQL: `DbBool` covers both,
 * and rows.ts turns them into `boolean`.
 */
export interface Database {
  schema_migrations: SchemaMigrationTable;
  feeds: FeedTable;
  entries: EntryTable;
  channels: ChannelTable;
  subscriptions: SubscriptionTable;
  entry_states: EntryStateTable;
  channel_entries: ChannelEntryTable;
  unread_counts: UnreadCountTable;
  removed_guids: RemovedGuidTable;
  filters: FilterTable;
  heartbeats: HeartbeatTable;
  tokens: TokenTable;
  settings: SettingTable;
  feed_icons: FeedIconTable;
  poll_rounds: PollRoundTable;
  saved_entries: SavedEntryTable;
  api_tokens: ApiTokenTable;
  users: UserTable;
  user_settings: UserSettingTable;
  destinations: DestinationTable;
  outbox: OutboxTable;
  feed_alerts: FeedAlertTable;
  rules: RuleTable;
  notified_entries: NotifiedEntryTable;
  hidden_entries: HiddenEntryTable;
  websub_subscriptions: WebSubSubscriptionTable;
  /**
   * SQLite only: the FTS5 index of entries (rowid = the entry's search key, see search-key.ts).
   * PostgreSQL has `entries.search_vector`.
   */
  entries_fts: EntryFtsTable;
}

export type DbBool = number | boolean;

export interface SchemaMigrationTable {
  name: string;
  applied_at: string;
}

export interface FeedTable {
  id: Generated<number>;
  url: string;
  original_url: string;
  title: string | null;
  site_url: string | null;
  description: string | null;
  icon_url: string | null;
  etag: string | null;
  last_modified: string | null;
  hub_url: string | null;
  self_url: string | null;
  status: string | null;
  http_status: number | null;
  message: string | null;
  error_count: number;
  last_checked_at: string | null;
  last_success_at: string | null;
  last_new_entry_at: string | null;
  next_check_at: string;
  retry_after_at: string | null;
  paused: DbBool;
  user_agent: string | null;
  poll_interval_seconds: number | null;
  hint_interval_seconds: number | null;
  cadence_seconds: number | null;
  trusts_validators: DbBool;
  last_unconditional_at: string | null;
  body_hash: string | null;
  pending_move_url: string | null;
  pending_move_count: number;
  /** JSON: Diagnostic[] */
  diagnostics: string;
  lease_owner: string | null;
  lease_expires_at: string | null;
  /** The polling round that last claimed the feed ('due:12'), see poll-rounds.ts. */
  claim_round: string | null;
  unfollowed_at: string | null;
  custom_title: string | null;
  created_at: string;
}

export interface EntryTable {
  id: Generated<number>;
  feed_id: number;
  guid: string;
  url: string | null;
  title: string | null;
  summary: string | null;
  content_html: string | null;
  content_text: string | null;
  published: string | null;
  updated: string | null;
  sort_at: string;
  /** JSON arrays and object, as in StoredEntry. */
  authors: string;
  categories: string;
  enclosures: string;
  extra: string;
  content_hash: string;
  url_key: string | null;
  author_url: string | null;
  first_seen_at: string;
  changed_at: string;
  /**
   * PostgreSQL only: the full-text index (tsvector) of the entry, written as text by the poll's writes
   * (search-words.ts) and matched with `@@`, never read back, so selecting it is a type error.
   */
  search_vector: ColumnType<never, string | undefined, string>;
}

export interface EntryFtsTable {
  /** The entry's search key (search-key.ts): beyond 2^53, so bound and compared as a bigint. */
  rowid: bigint;
  body: string;
}

export interface ChannelTable {
  id: Generated<number>;
  /** The user whose channel it is; a uid is unique per user (channels_user_uid). */
  user_id: number;
  uid: string;
  name: string;
  position: number;
}

export interface SubscriptionTable {
  id: Generated<number>;
  channel_id: number;
  feed_id: number;
  created_at: string;
  /** The follower's own title for the feed (null: the feed's). */
  title: string | null;
  /** The follower paused it; the feed is polled while any follower has it unpaused (feeds.paused). */
  paused: DbBool;
}

export interface EntryStateTable {
  channel_id: number;
  entry_id: number;
  is_read: DbBool;
  is_removed: DbBool;
  updated_at: string;
}

/** What a channel shows of one entry of a feed it follows (migration 0006; see channel-entries.ts). */
export interface ChannelEntryTable {
  channel_id: number;
  /** The channel's user, so that a user's "All unread" reads its own index range. */
  user_id: number;
  entry_id: number;
  feed_id: number;
  sort_at: string;
  is_read: DbBool;
  is_removed: DbBool;
  /** A mute or block rule names the entry's author URL, its feed's URL or its site URL. */
  is_hidden: DbBool;
}

/** Unread entries of one feed in one channel, kept by every write; no row means 0. */
export interface UnreadCountTable {
  channel_id: number;
  feed_id: number;
  unread: number;
}

/** The guid of an entry retention removed, so that the next poll does not store it as new. */
export interface RemovedGuidTable {
  feed_id: number;
  guid: string;
  removed_at: string;
}

export interface FilterTable {
  id: Generated<number>;
  user_id: number;
  /** Null: the filter applies to every channel. */
  channel_id: number | null;
  kind: 'mute' | 'block';
  url: string;
  created_at: string;
}

export interface HeartbeatTable {
  id: Generated<number>;
  feed_id: number;
  at: string;
  status: string;
  http_status: number | null;
  new_count: number;
  updated_count: number;
  bytes: number;
  duration_ms: number;
  message: string | null;
  /** JSON: Diagnostic[] */
  diagnostics: string;
}

export interface TokenTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  scope: string;
  label: string | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface SettingTable {
  key: string;
  value: string;
}

/** A feed's icon as found while polling (reader); empty bytes: none was found at fetched_at. */
/** One row per kind of round: the current (or last) round of that kind. */
export interface PollRoundTable {
  kind: string;
  round: number;
  started_at: string;
  /** Renewed by the round's runs while they work; past it, nobody works in the round any more. */
  expires_at: string;
  /** Set when the first of its runs finished: the round's work was all handed out; no run joins it. */
  closed: DbBool;
}

export interface FeedIconTable {
  feed_id: number;
  content_type: string;
  bytes: Uint8Array;
  fetched_at: string;
}

/** A saved (starred) entry: one state per user and entry, kept when its feed is unfollowed (0004_saved.sql). */
export interface SavedEntryTable {
  user_id: number;
  entry_id: number;
  saved_at: string;
}

/** A Google Reader API session (ClientLogin's Auth token), by the SHA-256 of the token. */
export interface ApiTokenTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  created_at: string;
  last_used_at: string | null;
}

/**
 * A person on this instance (migration 0011). `pending`: the placeholder user 1 of a database nobody has
 * set a password on yet; the first command that creates a user takes it over.
 */
export interface UserTable {
  id: Generated<number>;
  name: string;
  is_admin: DbBool;
  /** The IndieAuth profile URL a verified token names. */
  me: string | null;
  pending: DbBool;
  created_at: string;
}

/** A user's own settings: password hash, app password, default channel, sessions' cut-off. */
export interface UserSettingTable {
  user_id: number;
  key: string;
  value: string;
}

/** Where a user's alerts go (migration 0012): a webhook, an email address or an ntfy topic URL. */
export interface DestinationTable {
  id: Generated<number>;
  user_id: number;
  kind: 'webhook' | 'email' | 'ntfy';
  /** The URL (webhook, ntfy) or the email address. */
  target: string;
  /** The webhook's HMAC key. */
  secret: string | null;
  /** JSON: the event types it takes; null for every type. */
  events: string | null;
  digest: 'daily' | null;
  created_at: string;
  last_ok_at: string | null;
  last_error: string | null;
  last_error_at: string | null;
  /** The first failure since the last success; null while it works. */
  failing_since: string | null;
  /** When the last daily digest was queued. */
  digest_sent_at: string | null;
}

/** One message to send to one destination (migration 0012); see store/notify/outbox.ts. */
export interface OutboxTable {
  id: Generated<number>;
  destination_id: number;
  event_type: string;
  /** JSON: the event as a webhook receives it. */
  payload: string;
  created_at: string;
  /** Null once the row is done (sent or given up). */
  next_attempt_at: string | null;
  attempts: number;
  last_error: string | null;
  claimed_by: string | null;
  claimed_until: string | null;
  sent_at: string | null;
  failed_at: string | null;
}

/** A feed's alert state (migration 0012): no row while the feed is not failing. */
export interface FeedAlertTable {
  feed_id: number;
  failures: number;
  failing_since: string | null;
  failing_sent_at: string | null;
  gone_sent_at: string | null;
  silent_sent_at: string | null;
}

/** A user's rule (migration 0013): a saved search that acts on new entries (store/rules/). */
export interface RuleTable {
  id: Generated<number>;
  user_id: number;
  /** The search syntax: words, "phrases", -term. */
  query: string;
  /** Only entries of feeds this channel follows; null for every channel of the user. */
  channel_id: number | null;
  /** Only this feed's entries; null for every feed. */
  feed_id: number | null;
  action: 'read' | 'save' | 'hide' | 'notify';
  created_at: string;
}

/** An entry a notify rule put into a notifications channel (migration 0013). */
export interface NotifiedEntryTable {
  channel_id: number;
  entry_id: number;
  rule_id: number | null;
  created_at: string;
}

/** The WebSub subscription tidings asked a hub for, one a feed (migration 0014); see store/websub/. */
export interface WebSubSubscriptionTable {
  feed_id: number;
  /** The last part of the callback URL. */
  token: string;
  /** The hub.secret deliveries are signed with. */
  secret: string;
  hub: string;
  topic: string;
  state: 'pending' | 'active' | 'denied' | 'failed';
  /** The request waiting for the hub's verification of intent. */
  pending_mode: 'subscribe' | 'unsubscribe' | null;
  requested_at: string;
  lease_seconds: number | null;
  verified_at: string | null;
  expires_at: string | null;
  next_action_at: string | null;
  message: string | null;
  unreliable_at: string | null;
  last_delivery_at: string | null;
}

/** An entry a hide rule hid from its user (migration 0015): kept out of the apps' streams too. */
export interface HiddenEntryTable {
  user_id: number;
  entry_id: number;
  rule_id: number | null;
  created_at: string;
}
