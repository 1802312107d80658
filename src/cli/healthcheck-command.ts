import type { Command } from 'commander';
import { DEFAULT_BASE_URL } from './healthcheck.js';

/** `tidings healthcheck [BASE_URL]`: exit 0 when the server's /healthz says ok, 1 otherwise. */
export function registerHealthcheck(program: Command): void {
  program
    .command('healthcheck')
    .description(
      "ask a running tidings whether it and its database are up (GET /healthz): exits 0 when they are, 1 otherwise (a container's HEALTHCHECK)",
    )
    .argument('[base-url]', 'where tidings serves', DEFAULT_BASE_URL)
    .action(async (baseUrl: string) => (await import('./healthcheck.js')).runHealthcheck(baseUrl));
}
