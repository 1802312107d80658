import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Channel, StoredFeed, Subscription } from '../model/index.js';
import type { ChannelTable, FeedTable, SubscriptionTable } from './schema.js';
import { StoreError } from './store-error.js';
import type { FeedPatch } from './types.js';
import { fromDbBool, fromJson, toDbBool, toIso } from './values.js';

// The one place where feed columns meet feed fields. Feeds have many optional fields, so one table
// drives both directions instead of two hand-written lists that could drift apart.

type Dialect = 'sqlite' | 'postgres';
type ColumnKind = 'text' | 'time' | 'int' | 'bool' | 'json';
export type FeedField = Exclude<keyof StoredFeed, 'id' | 'createdAt'>;
type FeedColumn = Exclude<
  keyof FeedTable,
  'id' | 'created_at' | 'lease_owner' | 'lease_expires_at' | 'claim_round'
>;

interface FieldSpec {
  column: FeedColumn;
  kind: ColumnKind;
  /** What `null` in a patch sets a NOT NULL column to; absent: `null` is refused. */
  reset?: number | boolean | readonly unknown[];
}

const FEED_FIELDS: Record<FeedField, FieldSpec> = {
  url: { column: 'url', kind: 'text' },
  originalUrl: { column: 'original_url', kind: 'text' },
  title: { column: 'title', kind: 'text' },
  siteUrl: { column: 'site_url', kind: 'text' },
  description: { column: 'description', kind: 'text' },
  iconUrl: { column: 'icon_url', kind: 'text' },
  etag: { column: 'etag', kind: 'text' },
  lastModified: { column: 'last_modified', kind: 'text' },
  hubUrl: { column: 'hub_url', kind: 'text' },
  selfUrl: { column: 'self_url', kind: 'text' },
  status: { column: 'status', kind: 'text' },
  httpStatus: { column: 'http_status', kind: 'int' },
  message: { column: 'message', kind: 'text' },
  errorCount: { column: 'error_count', kind: 'int', reset: 0 },
  lastCheckedAt: { column: 'last_checked_at', kind: 'time' },
  lastSuccessAt: { column: 'last_success_at', kind: 'time' },
  lastNewEntryAt: { column: 'last_new_entry_at', kind: 'time' },
  nextCheckAt: { column: 'next_check_at', kind: 'time' },
  retryAfterAt: { column: 'retry_after_at', kind: 'time' },
  paused: { column: 'paused', kind: 'bool', reset: false },
  userAgent: { column: 'user_agent', kind: 'text' },
  pollIntervalSeconds: { column: 'poll_interval_seconds', kind: 'int' },
  hintIntervalSeconds: { column: 'hint_interval_seconds', kind: 'int' },
  cadenceSeconds: { column: 'cadence_seconds', kind: 'int' },
  trustsValidators: { column: 'trusts_validators', kind: 'bool', reset: true },
  lastUnconditionalAt: { column: 'last_unconditional_at', kind: 'time' },
  bodyHash: { column: 'body_hash', kind: 'text' },
  pendingMoveUrl: { column: 'pending_move_url', kind: 'text' },
  pendingMoveCount: { column: 'pending_move_count', kind: 'int', reset: 0 },
  diagnostics: { column: 'diagnostics', kind: 'json', reset: [] },
  unfollowedAt: { column: 'unfollowed_at', kind: 'time' },
  customTitle: { column: 'custom_title', kind: 'text' },
};

const NOT_NULL: ReadonlySet<FeedField> = new Set(['url', 'originalUrl', 'nextCheckAt']);

/** PostgreSQL's type of each feed column a patch may set (a statement of many feeds' values casts to it). */
const PG_TYPES: Record<ColumnKind, string> = {
  text: 'text',
  time: 'text',
  json: 'text',
  int: 'integer',
  bool: 'boolean',
};
const COLUMN_PG_TYPES = new Map<string, string>(
  Object.values(FEED_FIELDS).map((spec) => [spec.column, PG_TYPES[spec.kind]]),
);

/** The PostgreSQL type of a feed column a patch sets, or undefined for a column no patch sets. */
export function feedColumnPgType(column: string): string | undefined {
  return COLUMN_PG_TYPES.get(column);
}

/** The feed a row holds; NULL columns become absent fields. */
export function feedFromRow(row: Selectable<FeedTable>): StoredFeed {
  const feed: Record<string, unknown> = { id: row.id, createdAt: row.created_at };
  for (const [field, spec] of Object.entries(FEED_FIELDS)) {
    const value = row[spec.column];
    if (value === null) continue;
    feed[field] = fromColumn(value, spec.kind);
  }
  // The table above lists every field of StoredFeed with its kind; this is the one cast.
  return feed as unknown as StoredFeed;
}

/** The columns that hold these feed fields, in the same order. */
export function feedColumns(fields: readonly FeedField[]): FeedColumn[] {
  return fields.map((field) => FEED_FIELDS[field].column);
}

/** These fields of a feed, from a row of its id and their columns (`feedColumns`); NULL columns become absent fields. */
export function feedFieldsFromRow<F extends FeedField>(
  row: Partial<Selectable<FeedTable>> & { id: number },
  fields: readonly F[],
): Pick<StoredFeed, 'id' | F> {
  const feed: Record<string, unknown> = { id: row.id };
  for (const field of fields) {
    const spec = FEED_FIELDS[field];
    const value = row[spec.column];
    if (value === null || value === undefined) continue;
    feed[field] = fromColumn(value, spec.kind);
  }
  // As in feedFromRow: the table gives each field its kind.
  return feed as Pick<StoredFeed, 'id' | F>;
}

function fromColumn(value: string | number | boolean, kind: ColumnKind): unknown {
  if (kind === 'bool') return fromDbBool(value as number | boolean);
  if (kind === 'json') return fromJson(String(value), []);
  if (kind === 'int') return Number(value);
  return value;
}

/** The column updates for a feed patch: undefined fields are left alone, null clears (or resets) them. */
export function feedPatchToRow(patch: FeedPatch, dialect: Dialect): Updateable<FeedTable> {
  const row: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    const spec: FieldSpec | undefined = FEED_FIELDS[field as FeedField];
    if (spec === undefined) throw new StoreError('invalid', `store: feeds have no field ${field}`);
    row[spec.column] =
      value === null
        ? nullFor(field as FeedField, spec, dialect)
        : toColumn(field, value, spec.kind, dialect);
  }
  return row as Updateable<FeedTable>;
}

function nullFor(field: FeedField, spec: FieldSpec, dialect: Dialect): unknown {
  if (NOT_NULL.has(field)) throw new StoreError('invalid', `store: feed field ${field} cannot be cleared`);
  return spec.reset === undefined ? null : toColumn(field, spec.reset, spec.kind, dialect);
}

function toColumn(field: string, value: unknown, kind: ColumnKind, dialect: Dialect): unknown {
  switch (kind) {
    case 'time':
      return toIso(String(value), field);
    case 'bool':
      return toDbBool(value === true, dialect);
    case 'json':
      return JSON.stringify(value);
    case 'int':
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        throw new StoreError('invalid', `store: feed field ${field} must be a number, not ${String(value)}`);
      }
      return Math.round(value);
    default:
      return String(value);
  }
}

/** The row of a feed added now: due at once, subscribed and polled URL the same. */
export function newFeedRow(url: string, now: string, dialect: Dialect): Insertable<FeedTable> {
  return {
    url,
    original_url: url,
    next_check_at: now,
    created_at: now,
    error_count: 0,
    paused: toDbBool(false, dialect),
    trusts_validators: toDbBool(true, dialect),
    pending_move_count: 0,
    diagnostics: '[]',
  };
}

/** The channel a row holds. */
export function channelFromRow(row: Selectable<ChannelTable>): Channel {
  return { id: row.id, uid: row.uid, name: row.name, position: row.position };
}

/** The subscription a row holds. */
export function subscriptionFromRow(row: Selectable<SubscriptionTable>): Subscription {
  return { id: row.id, channelId: row.channel_id, feedId: row.feed_id, createdAt: row.created_at };
}

/** True when a feed patch changes a URL that mute and block rules match (url, site_url). */
export function namesFeed(row: Updateable<FeedTable>): boolean {
  return 'url' in row || 'site_url' in row;
}
