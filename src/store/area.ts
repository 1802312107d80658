import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { ChangedChannels, Dialect } from './types.js';

/** What each area of the store works with: the connection, its dialect, and whom to tell of changed channels. */
export interface Area {
  readonly db: Kysely<Database>;
  readonly dialect: Dialect;
  /**
   * The user whose data the area reads and changes (channels, subscriptions, read and saved state, rules,
   * tokens). The instance-wide areas (feeds, entries, polling) ignore it. See Store.forUser.
   */
  readonly userId: number;
  /**
   * The owners of channels this process has seen, by channel id, shared by every user's store of the
   * connection: a channel never changes hands, and a deleted channel's id is never given again, so what
   * is known stays true (ChannelOwners).
   */
  readonly owners: ChannelOwners;
  /** Tells the store's listeners (onChannelsChanged) that a write changed these channels. */
  changed(channels: readonly number[]): void;
}

/** Which user each channel seen is, bounded: past MAX_KNOWN it starts again. */
export class ChannelOwners {
  static readonly MAX_KNOWN = 100_000;
  readonly #owners = new Map<number, number>();

  /** True when the channel is known to be the user's (false: not known, or another user's). */
  isOwner(channelId: number, userId: number): boolean {
    return this.#owners.get(channelId) === userId;
  }

  /** Records that the channel is the user's. */
  learn(channelId: number, userId: number): void {
    if (this.#owners.size >= ChannelOwners.MAX_KNOWN) this.#owners.clear();
    this.#owners.set(channelId, userId);
  }
}

/**
 * What every area class of the store starts from: the connection, its dialect and the area (for
 * `changing`), taken from the Area the store hands it.
 */
export abstract class StoreArea {
  protected readonly area: Area;
  protected readonly db: Kysely<Database>;
  protected readonly dialect: Dialect;
  /** The area's user (Area.userId). */
  protected readonly userId: number;

  constructor(area: Area) {
    this.area = area;
    this.db = area.db;
    this.dialect = area.dialect;
    this.userId = area.userId;
  }
}

/**
 * The result of `write`, once the store's listeners have heard which channels it changed: 'all' is every
 * channel of the area's user (a write may touch any of theirs, and nobody else's).
 */
export async function changing<T>(
  area: Area,
  channels: ChangedChannels,
  write: () => Promise<T>,
): Promise<T> {
  const result = await write();
  if (channels !== 'all') area.changed(channels);
  else {
    const rows = await area.db
      .selectFrom('channels')
      .select('id')
      .where('user_id', '=', area.userId)
      .orderBy('id')
      .execute();
    area.changed(rows.map((row) => row.id));
  }
  return result;
}
