import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { ChangedChannels, Dialect } from './types.js';

/** What each area of the store works with: the connection, its dialect, and whom to tell of changed channels. */
export interface Area {
  readonly db: Kysely<Database>;
  readonly dialect: Dialect;
  readonly userId: number;
  /** Tells the store's listeners (onChannelsChanged) that a write changed these channels. */
  changed(channels: ChangedChannels): void;
}

/**
 * What every area class of the store starts from: the connection, its dialect and the area (for
 * `changing`), taken from the Area the store hands it.
 */
export abstract class StoreArea {
  protected readonly area: Area;
  protected readonly db: Kysely<Database>;
  protected readonly dialect: Dialect;

  constructor(area: Area) {
    this.area = area;
    this.db = area.db;
    this.dialect = area.dialect;
  }
}

/** The result of `write`, once the store's listeners have heard which channels it changed. */
export async function changing<T>(
  area: Area,
  channels: ChangedChannels,
  write: () => Promise<T>,
): Promise<T> {
  const result = await write();
  area.changed(channels);
  return result;
}
