import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { ChangedChannels } from './types.js';

/** What each area of the store works with: the connection, its dialect, and whom to tell of changed channels. */
export interface Area {
  readonly db: Kysely<Database>;
  readonly dialect: 'sqlite' | 'postgres';
  /** Tells the store's listeners (onChannelsChanged) that a write changed these channels. */
  changed(channels: ChangedChannels): void;
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
