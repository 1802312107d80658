import { pino } from 'pino';

/** The structured logger (JSON lines on stderr); every line about a feed carries feedId and url. */
export type Logger = pino.Logger;

/** Creates the logger; the level comes from TIDINGS_LOG_LEVEL (default info). */
export function createLogger(level = process.env['TIDINGS_LOG_LEVEL'] ?? 'info'): Logger {
  return pino({ level, base: { app: 'tidings' } }, pino.destination({ fd: 2, sync: false }));
}

/** A logger that writes nothing (tests, and CLI commands whose output is their result). */
export const silentLogger: Logger = pino({ level: 'silent' });
