import { promises as dns, type LookupAddress } from 'node:dns';
import { readFileSync } from 'node:fs';
import type { FetchOutcome, FetchRequest } from '../fetch/index.js';
import { createGuardedAgent, FETCH_DEFAULTS, fetchFeed, type Resolver } from '../fetch/index.js';
import type { PollConfig } from './deps.js';

/** A fetch of its own for icon lookups, and what ends it. */
export interface IconFetch {
  fetch(request: FetchRequest): Promise<FetchOutcome>;
  /** Cancels the DNS queries under way and drops the connections. */
  close(): Promise<void>;
}

/** The names /etc/hosts gives addresses to (localhost, a home server), lower case. */
export function hostsFileNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    const fields = (line.split('#', 1)[0] ?? '').trim().split(/\s+/);
    for (const name of fields.slice(1)) names.add(name.toLowerCase());
  }
  return names;
}

function readHostsFile(path: string): Set<string> {
  try {
    return hostsFileNames(readFileSync(path, 'utf8'));
  } catch {
    return new Set(['localhost']);
  }
}

/**
 * A resolver that asks DNS through c-ares, which runs on the event loop and can be cancelled, rather than
 * the system resolver: getaddrinfo holds one of libuv's four shared threads until it answers, no abort
 * reaches it, and the process waits for it even at exit (issue 22: lookups of sites that do not resolve,
 * 5 s each here, held `poll --once` that long after its end). The names of /etc/hosts still go to the
 * system resolver, which answers them from the file at once.
 */
export function cancellableResolver(options: { servers?: string[] } = {}): {
  resolve: Resolver;
  cancel(): void;
} {
  const resolver = new dns.Resolver({ timeout: 2000, tries: 2 });
  if (options.servers) resolver.setServers(options.servers);
  let hostsNames: Set<string> | undefined;
  const resolve: Resolver = async (hostname) => {
    hostsNames ??= readHostsFile('/etc/hosts');
    if (hostsNames.has(hostname.toLowerCase())) return dns.lookup(hostname, { all: true, verbatim: true });
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
    const addresses: LookupAddress[] = [
      ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 })) : []),
      ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 })) : []),
    ];
    if (addresses.length > 0) return addresses;
    const failure = v4.status === 'rejected' ? (v4.reason as NodeJS.ErrnoException) : undefined;
    // no address (ENODATA for both families) reads as an unknown host, as getaddrinfo says it
    const error: NodeJS.ErrnoException = new Error(`queryA ENOTFOUND ${hostname}`);
    error.code = failure?.code === 'ETIMEOUT' ? 'EAI_AGAIN' : 'ENOTFOUND';
    throw error;
  };
  return { resolve, cancel: () => resolver.cancel() };
}

/** The fetch icon lookups use: the poller's guard and limits, through a cancellable resolver. */
export function createIconFetch(config: Pick<PollConfig, 'allowPrivateAddresses'>): IconFetch {
  const { resolve, cancel } = cancellableResolver();
  const agent = createGuardedAgent({
    allowPrivateAddresses: config.allowPrivateAddresses,
    connectTimeoutMs: FETCH_DEFAULTS.connectTimeoutMs,
    resolve,
  });
  return {
    fetch: (request) => fetchFeed(request, agent),
    async close() {
      cancel();
      await agent.destroy();
    },
  };
}
