import { checkTarget } from '../fetch/index.js';
import type { PollConfig } from './deps.js';

/** A URL a person or a file asks to follow, checked before anything is fetched or stored. */
export type UrlCheck =
  | { ok: true; url: string }
  | { ok: false; reason: 'bad-url' | 'private-address'; message: string };

/**
 * Accepts an absolute http(s) URL whose host is not a private address (unless the configuration allows
 * them), by the rules the fetcher applies (fetch/guard.ts); a host name that resolves to a private
 * address is refused later, when it is fetched.
 */
export function checkFollowUrl(config: Pick<PollConfig, 'allowPrivateAddresses'>, value: string): UrlCheck {
  const text = value.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: 'bad-url', message: `"${text.slice(0, 200)}" is not a URL` };
  }
  const refused = checkTarget(url, config.allowPrivateAddresses);
  if (refused?.kind === 'private_address')
    return { ok: false, reason: 'private-address', message: `${url.href} is a private address` };
  if (refused)
    return { ok: false, reason: 'bad-url', message: `${url.href}: only http and https URLs can be followed` };
  return { ok: true, url: url.href };
}
