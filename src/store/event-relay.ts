import type { EventRelay } from './relay-message.js';

/**
 * Opens the relay of a database URL: PostgreSQL gets one (a connection of its own that listens);
 * SQLite none, since several processes on one SQLite file are not a supported deployment for events.
 */
export async function openEventRelay(
  url: string,
  onError: (error: unknown) => void,
): Promise<EventRelay | undefined> {
  if (!/^postgres(ql)?:\/\//i.test(url)) return undefined;
  const { openPgEventRelay } = await import('./postgres/index.js');
  return openPgEventRelay(url, onError);
}
