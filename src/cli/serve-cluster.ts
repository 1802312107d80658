import cluster, { type Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';
import type { Logger } from '../log.js';
import { type EventRelay, parseRelayMessage, type RelayMessage } from '../store/index.js';
import { EXIT_FAILURE, EXIT_USAGE, UserError } from './user-error.js';

// `serve --processes N`: N processes answer HTTP on one port (node:cluster hands each connection to
// one of them), so that a machine's cores all serve; one of them, the lead, also polls, sends alerts
// and applies retention, as a lone `serve` does. The primary process only starts, replaces and stops
// them, and carries what they tell each other: the event relay's messages (on SQLite; PostgreSQL
// relays through LISTEN/NOTIFY as for any processes of one database) and /metrics, gathered from all.

/** The most processes `--processes` starts. */
export const MAX_PROCESSES = 64;

/** How the primary tells a worker its part (the environment of cluster.fork). */
const ROLE_VARIABLE = 'TIDINGS_SERVE_ROLE';

/** A worker that ends this many times within RESTART_WINDOW_MS is not started again: serve stops. */
const MAX_RESTARTS = 5;
const RESTART_WINDOW_MS = 60_000;
const RESTART_DELAY_MS = 500;

/** How long the primary waits for each process's metrics. */
const GATHER_TIMEOUT_MS = 10_000;

/** How long a stopped process may take to end (its fetches are aborted at once) before it is killed. */
const STOP_GRACE_MS = 30_000;

/** `--processes` (or TIDINGS_SERVE_PROCESSES): 1 to 64, or `auto` for one per core. */
export function parseProcesses(value: string): number {
  const text = value.trim().toLowerCase();
  if (text === 'auto') return Math.min(availableParallelism(), MAX_PROCESSES);
  const count = /^\d{1,3}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isInteger(count) || count < 1 || count > MAX_PROCESSES)
    throw new UserError(
      `serve: --processes (or TIDINGS_SERVE_PROCESSES) takes a number from 1 to ${MAX_PROCESSES}, or auto (one per core), not ${JSON.stringify(value)}`,
      { exitCode: EXIT_USAGE },
    );
  return count;
}

/**
 * The line `serve` prints on stderr once it listens (tools read the port from it), with the number of
 * processes when there are several.
 */
export function servingLine(host: string, port: number | string, processes = 1): string {
  const count = processes > 1 ? `; ${processes} processes` : '';
  return `tidings: serving on http://${host}:${port}/ (Microsub: /microsub, Google Reader API: /api/greader, Fever API: /api/fever${count})\n`;
}

/** This process's part in `serve --processes N`; undefined for a process that is not one of its workers. */
export function serveRole(): 'lead' | 'helper' | undefined {
  if (!cluster.isWorker) return undefined;
  const role = process.env[ROLE_VARIABLE];
  return role === 'lead' || role === 'helper' ? role : undefined;
}

/** What a worker tells the primary. */
type FromWorker =
  | { tidings: 'listening'; port: number }
  | { tidings: 'relay'; message: RelayMessage }
  | { tidings: 'gather'; id: number }
  | { tidings: 'metrics'; id: number; json?: unknown; error?: string };

/** What the primary tells a worker. */
type FromPrimary =
  | { tidings: 'relay'; message: RelayMessage }
  | { tidings: 'gathered'; id: number; text?: string; error?: string }
  | { tidings: 'metrics?'; id: number };

function isMessage<K extends string>(
  value: unknown,
  kind: K,
): value is { tidings: K } & Record<string, unknown> {
  return typeof value === 'object' && value !== null && (value as { tidings?: unknown }).tidings === kind;
}

// ---- the workers' side ------------------------------------------------------------------------------

function toPrimary(message: FromWorker): boolean {
  if (!process.connected || process.send === undefined) return false;
  process.send(message);
  return true;
}

/** Tells the primary that this worker listens on `port`. */
export function announceListening(port: number): void {
  toPrimary({ tidings: 'listening', port });
}

/**
 * The event relay of a worker on SQLite: a message goes to the primary, which hands it to every worker,
 * this one included (EventRelay's promise), so that every process's Microsub event streams hear it.
 */
export class PrimaryRelay implements EventRelay {
  readonly #listeners = new Set<(message: RelayMessage) => void>();
  readonly #onMessage = (raw: unknown) => {
    if (!isMessage(raw, 'relay')) return;
    const message = parseRelayMessage(raw['message']);
    if (message) for (const listener of this.#listeners) listener(message);
  };

  constructor() {
    process.on('message', this.#onMessage);
  }

  async publish(message: RelayMessage): Promise<void> {
    if (!toPrimary({ tidings: 'relay', message }))
      throw new Error('serve: the primary process is gone; the event stays in this process');
  }

  onMessage(listener: (message: RelayMessage) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async close(): Promise<void> {
    process.off('message', this.#onMessage);
    this.#listeners.clear();
  }
}

/**
 * Makes this worker's /metrics the whole server's (gathered by the primary from every worker) and
 * answers the primary's asks for this worker's own. Returns what stops answering.
 */
export function shareMetrics(metrics: {
  json(): Promise<unknown>;
  gatherWith(gather: () => Promise<string>): void;
}): () => void {
  let next = 0;
  const waiting = new Map<number, { resolve: (text: string) => void; reject: (error: Error) => void }>();
  const onMessage = (raw: unknown) => {
    if (isMessage(raw, 'metrics?')) {
      const id = raw['id'] as number;
      metrics.json().then(
        (json) => toPrimary({ tidings: 'metrics', id, json }),
        (error: unknown) => toPrimary({ tidings: 'metrics', id, error: String(error) }),
      );
    } else if (isMessage(raw, 'gathered')) {
      const id = raw['id'] as number;
      const wait = waiting.get(id);
      waiting.delete(id);
      if (typeof raw['text'] === 'string') wait?.resolve(raw['text']);
      else wait?.reject(new Error(String(raw['error'] ?? 'serve: the metrics could not be gathered')));
    }
  };
  process.on('message', onMessage);
  metrics.gatherWith(
    () =>
      new Promise<string>((resolve, reject) => {
        const id = ++next;
        waiting.set(id, { resolve, reject });
        if (!toPrimary({ tidings: 'gather', id })) {
          waiting.delete(id);
          reject(new Error('serve: the primary process is gone'));
        }
      }),
  );
  return () => process.off('message', onMessage);
}

/** Ends this worker's channel to the primary once it has nothing left to do, so that it can exit. */
export function leaveCluster(): void {
  if (process.connected) process.disconnect?.();
}

// ---- the primary's side -----------------------------------------------------------------------------

interface Member {
  role: 'lead' | 'helper';
  listening: boolean;
}

/**
 * Runs `serve --processes N` as its primary: starts the lead worker, then the others once the lead
 * listens (it migrated the database), prints the one line `serve` prints once all listen, replaces a
 * worker that ends, and stops them all on SIGINT or SIGTERM. Resolves with the exit code: 0 after a
 * stop, a worker's own when one could not start (it said why on stderr).
 */
export function superviseServe(options: { processes: number; host: string; log: Logger }): Promise<number> {
  const { processes, host, log } = options;
  const members = new Map<Worker, Member>();
  const ended: number[] = [];
  let started = false;
  let stopping = false;
  let nextAsk = 0;
  const asks = new Map<number, (json: unknown | undefined) => void>();

  return new Promise<number>((resolve) => {
    const finish = (code: number) => {
      if (members.size === 0) resolve(code);
    };
    let exitCode = 0;
    const stop = (code: number) => {
      if (!stopping) exitCode = code;
      stopping = true;
      for (const worker of members.keys()) worker.process.kill('SIGTERM');
      // one that hangs is killed, so that serve always ends
      setTimeout(() => {
        for (const worker of members.keys()) worker.process.kill('SIGKILL');
      }, STOP_GRACE_MS).unref();
      finish(exitCode);
    };

    const start = (role: 'lead' | 'helper') => {
      const worker = cluster.fork({ [ROLE_VARIABLE]: role });
      members.set(worker, { role, listening: false });
      worker.on('message', (raw: unknown) => onWorkerMessage(worker, raw));
      worker.on('exit', (code, signal) => {
        members.delete(worker);
        if (stopping) return finish(exitCode);
        if (!started) {
          // it said why (a port in use, a database that cannot be opened): serve ends as it would alone
          stop(code ?? EXIT_FAILURE);
          return;
        }
        const now = Date.now();
        ended.push(now);
        while (ended.length > 0 && (ended[0] as number) < now - RESTART_WINDOW_MS) ended.shift();
        if (ended.length > MAX_RESTARTS) {
          log.error(
            { role, code, signal },
            `serve: a process ended ${ended.length} times within a minute; stopping`,
          );
          stop(EXIT_FAILURE);
          return;
        }
        log.warn({ role, code, signal }, 'serve: a process ended; starting another');
        setTimeout(() => {
          if (!stopping) start(role);
        }, RESTART_DELAY_MS);
      });
    };

    const onWorkerMessage = (worker: Worker, raw: unknown) => {
      if (isMessage(raw, 'listening')) {
        const member = members.get(worker);
        if (member) member.listening = true;
        if (started) return;
        if (member?.role === 'lead') for (let i = 1; i < processes; i++) start('helper');
        if ([...members.values()].filter((m) => m.listening).length === processes) {
          started = true;
          process.stderr.write(servingLine(host, raw['port'] as number, processes));
        }
      } else if (isMessage(raw, 'relay')) {
        const message = parseRelayMessage(raw['message']);
        if (message) for (const other of members.keys()) send(other, { tidings: 'relay', message });
      } else if (isMessage(raw, 'gather')) {
        gather().then(
          (text) => send(worker, { tidings: 'gathered', id: raw['id'] as number, text }),
          (error: unknown) =>
            send(worker, { tidings: 'gathered', id: raw['id'] as number, error: String(error) }),
        );
      } else if (isMessage(raw, 'metrics')) {
        const id = raw['id'] as number;
        asks.get(id)?.(raw['error'] === undefined ? raw['json'] : undefined);
        asks.delete(id);
      }
    };

    /** Every listening worker's metrics, aggregated; a worker that does not answer in time is left out. */
    const gather = async (): Promise<string> => {
      const answers = [...members]
        .filter(([, member]) => member.listening)
        .map(
          ([worker]) =>
            new Promise<unknown | undefined>((answer) => {
              const id = ++nextAsk;
              const timer = setTimeout(() => {
                asks.delete(id);
                answer(undefined);
              }, GATHER_TIMEOUT_MS);
              asks.set(id, (json) => {
                clearTimeout(timer);
                answer(json);
              });
              send(worker, { tidings: 'metrics?', id });
            }),
        );
      const jsons = (await Promise.all(answers)).filter((json) => Array.isArray(json));
      if (jsons.length === 0) throw new Error('serve: no process answered with its metrics');
      const { aggregateMetrics } = await import('../metrics/index.js');
      return aggregateMetrics(jsons as Parameters<typeof aggregateMetrics>[0]);
    };

    process.once('SIGINT', () => stop(0));
    process.once('SIGTERM', () => stop(0));
    start('lead');
  });
}

function send(worker: Worker, message: FromPrimary): void {
  if (worker.isConnected()) worker.send(message);
}
