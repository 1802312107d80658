import type { MiddlewareHandler } from 'hono';
import { type Logger, redactSecrets } from '../log.js';
import { clientAddress } from './request.js';

// Query parameters that carry a credential somewhere in the APIs: Microsub's access_token, Fever's
// api_key, ClientLogin's Passwd, Google Reader's write token T. Their values are never logged.
const SECRET_PARAMETERS = new Set([
  'access_token',
  'api_key',
  'passwd',
  'password',
  't',
  'token',
  'auth',
  'key',
]);
const MAX_REASON_CHARS = 300;
const MAX_VALUE_CHARS = 100;

/**
 * Logs every 4xx and 5xx answer of an API (Google Reader, Fever, Microsub) with its path, status and
 * reason (the answer's own words: Microsub's error_description, the first line of Google Reader's text),
 * so that an app's failures can be seen (issue 22: they were logged at no level). 4xx at warn, 5xx at
 * error. Never a credential: query parameters that carry one are `***`, everything passes redactSecrets.
 */
export function logApiFailures(log: Logger, api: 'greader' | 'fever' | 'microsub'): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const { status } = c.res;
    if (status < 400) return;
    const fields = {
      api,
      method: c.req.method,
      path: redactSecrets(decodedPath(c.req.path)),
      ...queryOf(c.req.url),
      status,
      reason: await reasonOf(c.res),
      client: clientAddress(c),
    };
    if (status >= 500) log.error(fields, `${api}: answered ${status}`);
    else log.warn(fields, `${api}: answered ${status}`);
  };
}

/** The path as apps wrote it (a Google Reader stream id holds a feed URL, percent-encoded). */
function decodedPath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** `{ query }`: the query string with the values of credential parameters as `***`; nothing without one. */
function queryOf(url: string): { query?: string } {
  const params = new URL(url).searchParams;
  if (params.size === 0) return {};
  const parts = [...params].map(([name, value]) => {
    const shown = SECRET_PARAMETERS.has(name.toLowerCase()) ? '***' : value.slice(0, MAX_VALUE_CHARS);
    return `${name}=${shown}`;
  });
  return { query: redactSecrets(parts.join('&')) };
}

/** The reason an answer gives: a JSON error's description, else its text's first line (the first bytes only). */
async function reasonOf(response: Response): Promise<string> {
  const text = await firstChars(response.clone());
  let reason = text.split('\n')[0]?.trim() ?? '';
  try {
    const json = JSON.parse(text) as Record<string, unknown>;
    const words = json['error_description'] ?? json['error'];
    if (typeof words === 'string') reason = words;
    else if (json['auth'] === 0) reason = 'fever: auth 0';
  } catch {
    // not JSON: the text's first line
  }
  return redactSecrets(reason.slice(0, MAX_REASON_CHARS)) || `HTTP ${response.status}`;
}

async function firstChars(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (text.length < 4 * MAX_REASON_CHARS) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return text;
}
