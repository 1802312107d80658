import type { Command } from 'commander';
import { PollEvents } from '../poll/events.js';
import { runPollLoop } from '../poll/loop.js';
import { openApp } from './app.js';
import { startRetention } from './retention.js';

interface ServeOptions {
  host: string;
  port: string;
  database?: string;
  poller: boolean;
  tokenEndpoint?: string;
  me?: string;
}

/** `tidings serve [--host 127.0.0.1] [--port 8080]`: web UI, Microsub endpoint and the poller in one process. */
export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('serve the web UI and the Microsub endpoint (/microsub), and poll feeds in the same process')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on', '8080')
    .option('--no-poller', 'do not poll in this process (run `tidings worker` elsewhere)')
    .option('--token-endpoint <url>', 'IndieAuth token endpoint that verifies Microsub tokens')
    .option('--me <url>', "the owner's URL: tokens must have been issued for it")
    .option('--database <url>', 'sqlite:PATH or postgres://... (default: TIDINGS_DATABASE_URL)')
    .action(runServe);
}

async function runServe(opts: ServeOptions): Promise<void> {
  // The web server and its pages are loaded here, not by every other command (90 ms of each CLI start).
  const [{ serve }, { createApp }] = await Promise.all([
    import('@hono/node-server'),
    import('../web/app.js'),
  ]);
  const events = new PollEvents();
  const app = await openApp({ database: opts.database, logs: true, hooks: events.hooks(), polls: true });
  const indieAuth = {
    ...(opts.tokenEndpoint ? { tokenEndpoint: opts.tokenEndpoint } : {}),
    ...(opts.me ? { me: opts.me } : {}),
  };
  const http = createApp({
    store: app.store,
    config: app.config,
    log: app.log,
    poll: app.poll,
    events,
    indieAuth,
    now: () => new Date(),
  });
  const stop = new AbortController();
  const server = serve({ fetch: http.fetch, hostname: opts.host, port: Number(opts.port) }, (info) => {
    app.log.info(
      { host: opts.host, port: info.port },
      `tidings serving on http://${opts.host}:${info.port}/ (Microsub at /microsub)`,
    );
    process.stderr.write(
      `tidings: serving on http://${opts.host}:${info.port}/ (Microsub endpoint: /microsub)\n`,
    );
  });
  const poller = opts.poller ? runPollLoop(app.poll, stop.signal) : Promise.resolve();
  if (opts.poller) startRetention(app.store, process.env, app.log, stop.signal);
  const shutdown = () => {
    stop.abort();
    server.close();
    // open Microsub event streams would otherwise hold the server open
    if ('closeAllConnections' in server) server.closeAllConnections();
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
  await new Promise<void>((resolve) => server.once('close', () => resolve()));
  await poller;
  await app.close();
}
