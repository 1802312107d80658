import type { Channel } from '../model/index.js';
import type { ReadingDeps } from './deps.js';
import type { UndoLog, UndoRecord } from './undo-log.js';

// "Mark all read" that can be undone: exactly the entries it changed are kept (per channel) under a
// token, and the undo marks those, and only those, unread again (an entry read before stays read).

type Deps = Pick<ReadingDeps, 'store' | 'now'>;

/** What a mark-all covers: a channel (one of its feeds, or up to an entry), or every channel. */
export type MarkAllScope =
  | { channel: Channel; feedId?: number | undefined; upToEntryId?: number | undefined }
  | 'everything';

/** What a mark-all did: how many entries it marked read, and the token that undoes it. */
export interface MarkAllResult {
  token: string;
  count: number;
}

/** Marks read every unread entry of the scope, keeping what changed in the undo log. */
export async function markAllRead(deps: Deps, undo: UndoLog, scope: MarkAllScope): Promise<MarkAllResult> {
  const now = deps.now();
  const at = now.toISOString();
  const changes: UndoRecord['changes'] = [];
  if (scope === 'everything') {
    for (const channel of await deps.store.channels.list()) {
      const entryIds = await deps.store.reading.markReadReturningIds(channel.id, {}, at);
      if (entryIds.length > 0) changes.push({ channelId: channel.id, entryIds });
    }
  } else {
    const { channel, feedId, upToEntryId } = scope;
    const entryIds = await deps.store.reading.markReadReturningIds(channel.id, { feedId, upToEntryId }, at);
    changes.push({ channelId: channel.id, entryIds });
  }
  const token = undo.add(changes, now.getTime());
  return { token, count: changes.reduce((sum, change) => sum + change.entryIds.length, 0) };
}

/** Marks unread again what the mark-all of a token changed; its count, or undefined when it is no longer kept. */
export async function undoMarkAll(deps: Deps, undo: UndoLog, token: string): Promise<number | undefined> {
  const now = deps.now();
  const record = undo.take(token, now.getTime());
  if (!record) return undefined;
  for (const change of record.changes)
    await deps.store.reading.markRead(change.channelId, change.entryIds, false, now.toISOString());
  return record.count;
}

/** How many entries the mark-all of a token marked read, while it can be undone. */
export function undoableCount(undo: UndoLog, token: string, now: Date): number | undefined {
  return undo.get(token, now.getTime())?.count;
}
