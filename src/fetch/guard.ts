import { promises as dns, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { createSecureContext } from 'node:tls';
import ipaddr from 'ipaddr.js';
import { Agent, buildConnector } from 'undici';
import { FetchError } from './fetch-error.js';

/** Resolves a host name to every address it has (the default is the system resolver, `dns.lookup`). */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

/** Says whether the guard may connect to an address. */
export type AddressPolicy = (address: string) => boolean;

/**
 * Returns true when `address` is a globally routable unicast address: not private, loopback, link-local,
 * unique-local, CGNAT, multicast, unspecified, broadcast, reserved or documentation space, nor an IPv6
 * address that embeds one of those (IPv4-mapped, NAT64, 6to4). Returns false for anything that is not an IP.
 */
export function isPublicAddress(address: string): boolean {
  const text = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  // net.isIP accepts only canonical forms; ipaddr.js would also take legacy shorthands such as "1.2.3".
  if (isIP(text) === 0) return false;
  // process() turns ::ffff:127.0.0.1 into 127.0.0.1, so a mapped address is judged as the IPv4 it is.
  const ip = ipaddr.process(text);
  if (ip.kind() === 'ipv4') return ip.range() === 'unicast';
  const range = ip.range();
  const bytes = ip.toByteArray();
  // NAT64 (RFC 6052) and 6to4 (RFC 3056) carry an IPv4 address inside: judge that one. DNS64 networks
  // answer public hosts with 64:ff9b::/96 addresses, so refusing them outright would break those users.
  if (range === 'rfc6052') return isPublicAddress(bytes.slice(12, 16).join('.'));
  if (range === '6to4') return isPublicAddress(bytes.slice(2, 6).join('.'));
  // The deprecated IPv4-compatible form ::a.b.c.d (RFC 4291 section 2.5.5.1) is not routable.
  if (bytes.slice(0, 12).every((b) => b === 0)) return false;
  return range === 'unicast';
}

/**
 * Returns a FetchError when the URL may not be fetched: a scheme other than http/https, or (unless private
 * addresses are allowed) a host that is a literal non-public IP. Node's connect skips the DNS lookup for
 * literal IPs, so the lookup hook alone would miss `http://127.0.0.1/` and `http://[::1]/`.
 */
export function checkTarget(url: URL, allowPrivateAddresses: boolean): FetchError | undefined {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return new FetchError('unsupported_scheme', { url: url.href });
  }
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (!allowPrivateAddresses && isIP(host) !== 0 && !isPublicAddress(host)) {
    return new FetchError('private_address', { url: url.href, address: host });
  }
  return undefined;
}

const systemResolver: Resolver = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

/**
 * Returns a `net.connect` lookup that resolves the name, then refuses the connection if any address fails
 * the policy. Checking at connect time (not before the request) means the socket goes to the very address
 * that was checked, so DNS rebinding between check and connect is impossible.
 */
export function createGuardedLookup(
  policy: AddressPolicy,
  resolve: Resolver = systemResolver,
): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname)
      .then((found) => {
        const family = options.family === 4 || options.family === 6 ? options.family : undefined;
        const addresses = family === undefined ? found : found.filter((a) => a.family === family);
        const refused = addresses.find((a) => !policy(a.address));
        const first = addresses[0];
        if (refused !== undefined) {
          // Only the host is known here; fetchFeed re-anchors the error on the URL being fetched.
          callback(new FetchError('private_address', { url: hostname, address: refused.address }), '', 0);
        } else if (first === undefined) {
          callback(notFound(hostname), '', 0);
        } else if (options.all === true) {
          callback(null, addresses);
        } else {
          callback(null, first.address, first.family);
        }
      })
      .catch((error: NodeJS.ErrnoException) => callback(error, '', 0));
  };
}

function notFound(hostname: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
  error.code = 'ENOTFOUND';
  return error;
}

/** How to build a guarded Agent; tests inject `resolve` and `policy` to stand in for public DNS. */
export interface GuardedAgentOptions {
  allowPrivateAddresses: boolean;
  connectTimeoutMs: number;
  resolve?: Resolver;
  policy?: AddressPolicy;
}

/** Returns an undici Agent whose every connection (first request and each redirect hop) passes the guard. */
export function createGuardedAgent(options: GuardedAgentOptions): Agent {
  const policy: AddressPolicy = options.allowPrivateAddresses
    ? () => true
    : (options.policy ?? isPublicAddress);
  const lookup = createGuardedLookup(policy, options.resolve);
  // One TLS context for every connection: without it each https connection makes its own from Node's
  // root certificates, 0.3 ms of CPU apiece (a first poll of 1,000 feeds and their icons: 0.2-0.3 s)
  const connect = buildConnector({
    timeout: options.connectTimeoutMs,
    lookup,
    secureContext: createSecureContext(),
  });
  const guarded: buildConnector.connector = (target, callback) => {
    const host = target.hostname.startsWith('[') ? target.hostname.slice(1, -1) : target.hostname;
    if (isIP(host) !== 0 && !policy(host)) {
      callback(new FetchError('private_address', { url: target.hostname, address: host }), null);
      return;
    }
    connect(target, callback);
  };
  return new Agent({ connect: guarded });
}

const sharedAgents = new Map<string, Agent>();

/** Returns the process-wide Agent for this guard setting and connect timeout, creating it once. */
export function getSharedAgent(allowPrivateAddresses: boolean, connectTimeoutMs: number): Agent {
  const key = `${allowPrivateAddresses}:${connectTimeoutMs}`;
  let agent = sharedAgents.get(key);
  if (agent === undefined) {
    agent = createGuardedAgent({ allowPrivateAddresses, connectTimeoutMs });
    sharedAgents.set(key, agent);
  }
  return agent;
}

/** Closes the shared Agents (at shutdown, and after tests so keep-alive sockets do not hold the process). */
export async function closeSharedAgents(): Promise<void> {
  const agents = [...sharedAgents.values()];
  sharedAgents.clear();
  await Promise.all(agents.map((agent) => agent.close()));
}
