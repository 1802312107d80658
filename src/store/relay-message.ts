/**
 * What one process tells the others that serve the same database: new entries of a feed, or a
 * channel whose unread count may have changed. Ids only: the listener loads what it needs.
 */
export type RelayMessage =
  | { kind: 'entries'; feedId: number; entryIds: number[] }
  | { kind: 'channel'; channelId: number };

/**
 * Carries messages between the processes of one database (PostgreSQL LISTEN/NOTIFY). A message
 * published reaches every relay of the database, the publisher's own included, after the
 * publisher's transaction committed.
 */
export interface EventRelay {
  publish(message: RelayMessage): Promise<void>;
  onMessage(listener: (message: RelayMessage) => void): () => void;
  close(): Promise<void>;
}

/** A message read back from a payload, or undefined for anything that is not one of ours. */
export function parseRelayMessage(payload: unknown): RelayMessage | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const m = payload as Record<string, unknown>;
  if (m['kind'] === 'channel' && Number.isSafeInteger(m['channelId']))
    return { kind: 'channel', channelId: m['channelId'] as number };
  const ids = m['entryIds'];
  if (
    m['kind'] === 'entries' &&
    Number.isSafeInteger(m['feedId']) &&
    Array.isArray(ids) &&
    ids.every((id) => Number.isSafeInteger(id))
  )
    return { kind: 'entries', feedId: m['feedId'] as number, entryIds: ids as number[] };
  return undefined;
}
