import type { Command } from 'commander';
import type { ServeOptions } from './serve.js';

/** `tidings serve [--host 127.0.0.1] [--port 8080]`: web UI, Microsub endpoint and the poller in one process. */
export function registerServe(program: Command): void {
  program
    .command('serve')
    .description(
      'serve the web UI (/), the Microsub endpoint (/microsub) and the sync APIs for reading apps (Google Reader at /api/greader, Fever at /api/fever), and poll feeds in the same process',
    )
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on', '8080')
    .option('--no-poller', 'do not poll in this process (run `tidings worker` elsewhere)')
    .option('--token-endpoint <url>', 'IndieAuth token endpoint that verifies Microsub tokens')
    .option(
      '--me <url>',
      'with one user, the profile URL whose IndieAuth tokens act as them (several users: tidings user set NAME --me URL)',
    )
    .option('--database <url>', 'sqlite:PATH or postgres://... (default: TIDINGS_DATABASE_URL)')
    .option(
      '--processes <n>',
      'processes that answer HTTP on the port, 1-64 or auto (one per core); one of them polls (default: TIDINGS_SERVE_PROCESSES, else 1)',
    )
    .action(async (opts: ServeOptions) => (await import('./serve.js')).runServe(opts));
}
