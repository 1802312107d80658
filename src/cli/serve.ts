import type { ServerType } from '@hono/node-server';
import { upgradeFeverKeyStorage } from '../auth/index.js';
import { loadConfig } from '../config.js';
import { createLogger } from '../log.js';
import { runPollLoop } from '../poll/index.js';
import { openApp } from './app.js';
import { retentionPolicy, startRetention } from './retention.js';
import { runSender } from './sender.js';
import {
  announceListening,
  leaveCluster,
  PrimaryRelay,
  parseProcesses,
  serveRole,
  servingLine,
  shareMetrics,
  superviseServe,
} from './serve-cluster.js';
import { EXIT_USAGE, UserError } from './user-error.js';

export interface ServeOptions {
  host: string;
  port: string;
  database?: string;
  poller: boolean;
  tokenEndpoint?: string;
  me?: string;
  /** `--processes`: 1 to 64, or auto; TIDINGS_SERVE_PROCESSES when not given, else 1. */
  processes?: string;
}

/** `tidings serve` (serve-command.ts defines it): the web UI, the APIs and the poller in one process. */
export async function runServe(opts: ServeOptions): Promise<void> {
  const port = parsePort(opts.port);
  retentionPolicy(process.env, new Date()); // a bad retention setting: one line before anything starts
  const role = serveRole();
  if (role === undefined) {
    const processes = parseProcesses(opts.processes ?? process.env['TIDINGS_SERVE_PROCESSES'] ?? '1');
    if (processes > 1) {
      const { databaseUrl } = loadConfig(process.env, { databaseUrl: opts.database });
      if (/^sqlite::memory:$/i.test(databaseUrl))
        throw new UserError(
          'serve: an in-memory database cannot be shared by several processes; use --processes 1',
          {
            exitCode: EXIT_USAGE,
          },
        );
      process.exitCode = await superviseServe({ processes, host: opts.host, log: createLogger() });
      return;
    }
  }
  // under --processes N, one process (the lead) polls, sends alerts and applies retention
  const polls = opts.poller && role !== 'helper';
  // The web server and its pages are loaded here, not by every other command (90 ms of each CLI start).
  const [{ serve }, { createApp }] = await Promise.all([
    import('@hono/node-server'),
    import('../server/index.js'),
  ]);
  const app = await openApp({
    database: opts.database,
    poller: true,
    logs: true,
    events: true,
    polls,
    serves: true,
    push: true,
    // the processes of --processes N on SQLite tell each other of new entries through the primary
    ...(role !== undefined ? { fallbackRelay: () => new PrimaryRelay() } : {}),
  });
  const stopSharing = role !== undefined && app.metrics ? shareMetrics(app.metrics) : () => {};
  // a Fever key stored as a plain SHA-256 (before issue 22) becomes a slow hash before anything is served
  await upgradeFeverKeyStorage(app.store);
  const indieAuth = {
    ...(opts.tokenEndpoint ? { tokenEndpoint: opts.tokenEndpoint } : {}),
    ...(opts.me ? { me: opts.me } : {}),
  };
  const http = createApp({
    store: app.store,
    config: app.config,
    log: app.log,
    poll: app.poll,
    events: app.events,
    indieAuth,
    now: () => new Date(),
    ...(app.metrics ? { metrics: app.metrics } : {}),
  });
  // Listen first: a port in use ends the command before the poller starts, with everything closed.
  let server: ServerType;
  try {
    server = await listen(serve, { fetch: http.fetch, hostname: opts.host, port });
  } catch (error) {
    await app.close();
    throw listenFailure(error, opts.host, port);
  }
  server.on('error', (err) => app.log.error({ err }, 'serve: the HTTP server failed'));
  const address = server.address();
  const actualPort = typeof address === 'object' && address !== null ? address.port : port;
  app.log.info(
    { host: opts.host, port: actualPort, ...(role ? { role } : {}) },
    `tidings serving on http://${opts.host}:${actualPort}/ (Microsub at /microsub)`,
  );
  // under --processes N the primary says it once all processes listen
  if (role !== undefined) announceListening(actualPort);
  else process.stderr.write(servingLine(opts.host, actualPort));
  const stop = new AbortController();
  const poller = polls ? runPollLoop(app.poll, stop.signal) : Promise.resolve();
  // whichever process polls sends the alerts its polls cause (issue 25); --no-poller leaves it to workers
  const sender = polls ? runSender(app, stop.signal) : Promise.resolve();
  if (polls) startRetention(app.store, process.env, app.log, stop.signal);
  const shutdown = () => {
    stop.abort();
    server.close();
    // open Microsub event streams would otherwise hold the server open
    if ('closeAllConnections' in server) server.closeAllConnections();
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
  // a worker whose primary is gone (killed) stops too
  if (role !== undefined) process.once('disconnect', shutdown);
  await new Promise<void>((resolve) => server.once('close', () => resolve()));
  await poller;
  await sender;
  stopSharing();
  await app.close();
  if (role !== undefined) leaveCluster();
}

/** The --port value as a TCP port (0 picks a free one); anything else is a usage error. */
export function parsePort(value: string): number {
  const port = /^\d{1,5}$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isInteger(port) || port > 65535)
    throw new UserError(`serve: --port takes a port number from 0 to 65535, not ${JSON.stringify(value)}`, {
      exitCode: EXIT_USAGE,
    });
  return port;
}

type Serve = typeof import('@hono/node-server').serve;

/** Starts the HTTP server and resolves once it listens; rejects with the listen error (EADDRINUSE ...). */
function listen(serve: Serve, options: Parameters<Serve>[0]): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    const server = serve(options, () => {
      server.off('error', onError);
      resolve(server);
    });
    const onError = (error: Error) => {
      server.close();
      reject(error);
    };
    server.once('error', onError);
  });
}

function listenFailure(error: unknown, host: string, port: number): unknown {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (code === 'EADDRINUSE')
    return new UserError(
      `serve: ${host}:${port} is already in use (another tidings serve?); choose another port with --port`,
      { cause: error },
    );
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EACCES')
    return new UserError(`serve: cannot listen on ${host}:${port}: ${(error as Error).message}`, {
      cause: error,
    });
  return error;
}
