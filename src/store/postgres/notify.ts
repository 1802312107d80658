import { EventEmitter } from 'node:events';
import pg from 'pg';
import { type EventRelay, parseRelayMessage, type RelayMessage } from '../relay-message.js';

/** The LISTEN/NOTIFY channel every tidings process of a database shares. */
export const EVENTS_CHANNEL = 'tidings_events';

/**
 * Entry ids per notification: a NOTIFY payload must stay under 8,000 bytes, and 400 ids of up to
 * 15 digits take about 6,400.
 */
export const IDS_PER_NOTIFICATION = 400;

const RECONNECT_MS = 1_000;
/** Notifications per query: 100 payloads of at most 8,000 bytes stay under a megabyte. */
const PAYLOADS_PER_QUERY = 100;

/**
 * LISTEN/NOTIFY on one connection of its own (a pooled connection cannot stay listening). Payloads
 * name the schema, so that tidings databases in different schemas of one database (the store tests)
 * do not hear each other. A lost connection is logged and opened again a second later; what was
 * published meanwhile is not heard (events are a live view, not a log).
 */
export async function openPgEventRelay(url: string, onError: (error: unknown) => void): Promise<EventRelay> {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  let closed = false;
  let schema = '';
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url });
    next.on('error', (error) => {
      onError(error);
      lose(next);
    });
    next.on('end', () => lose(next));
    next.on('notification', (n) => {
      if (n.channel !== EVENTS_CHANNEL || n.payload === undefined) return;
      const message = decode(n.payload, schema);
      if (message) emitter.emit('message', message);
    });
    try {
      await next.connect();
      const { rows } = await next.query<{ schema: string }>('SELECT current_schema() AS schema');
      schema = rows[0]?.schema ?? '';
      await next.query(`LISTEN ${EVENTS_CHANNEL}`);
    } catch (error) {
      await next.end().catch(() => {});
      throw error;
    }
    if (closed) await next.end().catch(() => {});
    else client = next;
  };
  const scheduleConnect = () => {
    if (closed) return;
    retry = setTimeout(() => {
      connect().catch((error: unknown) => {
        onError(error);
        scheduleConnect();
      });
    }, RECONNECT_MS);
  };
  const lose = (lost: pg.Client) => {
    if (closed || client !== lost) return;
    client = undefined;
    lost.end().catch(() => {});
    scheduleConnect();
  };

  // One query at a time: a connection runs one query at a time, and pg only queues overlapping ones
  // with a deprecation warning (pg 9 refuses them). A poll stores many feeds at once, each publishing:
  // what is published meanwhile goes in the next query, all of it in one statement (issue 22: one
  // statement per feed was a quarter of a poll round's statements, each a transaction of its own).
  const waiting: { payloads: string[]; settle: (error?: unknown) => void }[] = [];
  let flushing = false;
  const flush = async (): Promise<void> => {
    while (waiting.length > 0) {
      const batch: typeof waiting = [];
      let count = 0;
      while (
        waiting.length > 0 &&
        (batch.length === 0 || count + (waiting[0]?.payloads.length ?? 0) <= PAYLOADS_PER_QUERY)
      ) {
        const next = waiting.shift() as (typeof waiting)[number];
        batch.push(next);
        count += next.payloads.length;
      }
      try {
        const current = client;
        if (!current) throw new Error('store: the event relay is reconnecting; an event was not sent');
        // unnest keeps the array's order: NOTIFY delivers in the order of the calls
        await current.query('SELECT pg_notify($1, payload) FROM unnest($2::text[]) AS payload', [
          EVENTS_CHANNEL,
          batch.flatMap((item) => item.payloads),
        ]);
        for (const item of batch) item.settle();
      } catch (error) {
        for (const item of batch) item.settle(error ?? new Error('store: an event was not sent'));
      }
    }
    flushing = false;
  };

  await connect();
  return {
    publish(message) {
      return new Promise<void>((resolve, reject) => {
        waiting.push({
          payloads: encode(message, schema),
          settle: (error) => (error === undefined ? resolve() : reject(error)),
        });
        if (flushing) return;
        flushing = true;
        // what the same turn publishes (a group commit's feeds) goes in the first query too
        setImmediate(() => void flush());
      });
    },
    onMessage(listener) {
      emitter.on('message', listener);
      return () => emitter.off('message', listener);
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => {});
      client = undefined;
    },
  };
}

/** One payload per notification: entry ids in slices small enough for NOTIFY. */
export function encode(message: RelayMessage, schema: string): string[] {
  if (message.kind === 'channel') return [JSON.stringify({ schema, ...message })];
  const payloads: string[] = [];
  for (let i = 0; i < message.entryIds.length; i += IDS_PER_NOTIFICATION) {
    const entryIds = message.entryIds.slice(i, i + IDS_PER_NOTIFICATION);
    payloads.push(JSON.stringify({ schema, kind: 'entries', feedId: message.feedId, entryIds }));
  }
  return payloads;
}

function decode(payload: string, schema: string): RelayMessage | undefined {
  try {
    const value = JSON.parse(payload) as unknown;
    if ((value as { schema?: unknown } | null)?.schema !== schema) return undefined;
    return parseRelayMessage(value);
  } catch {
    return undefined;
  }
}
