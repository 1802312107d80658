import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

/** The parameters of a request: the form body (urlencoded or multipart) then the query string, each name with all its values. */
export class RequestParams {
  constructor(private readonly values: ReadonlyMap<string, readonly string[]>) {}

  /** The first value of a parameter. */
  one(name: string): string | undefined {
    return this.values.get(name)?.[0];
  }

  /** Every value of a parameter, in order. */
  all(name: string): readonly string[] {
    return this.values.get(name) ?? [];
  }

  has(name: string): boolean {
    return this.values.has(name);
  }
}

/**
 * Reads the body and the query of a request. Apps send forms without a Content-Type, or with a
 * charset; a body that is neither a form nor multipart is read as a form (a broken one yields
 * nothing, never an error).
 */
export async function readRequestParams(c: Context): Promise<RequestParams> {
  const values = new Map<string, string[]>();
  const add = (name: string, value: string) => {
    const list = values.get(name);
    if (list) list.push(value);
    else values.set(name, [value]);
  };
  if (c.req.method === 'POST') {
    const type = c.req.header('content-type') ?? '';
    try {
      if (type.includes('multipart/form-data')) {
        const form = await c.req.raw.formData();
        for (const [name, value] of form) if (typeof value === 'string') add(name, value);
      } else {
        for (const [name, value] of new URLSearchParams(await c.req.text())) add(name, value);
      }
    } catch {
      // a body that cannot be read adds no parameters
    }
  }
  for (const [name, value] of new URL(c.req.url).searchParams) add(name, value);
  return new RequestParams(values);
}

/**
 * The socket's address, for rate limits. X-Forwarded-For is not trusted: anyone could send one to dodge
 * the limit; behind a reverse proxy every client shares the proxy's address, and so its limit.
 */
export function clientAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** The origin the client reached tidings at (https when a proxy says so, as for the web UI's cookies). */
export function requestOrigin(c: Context): string {
  const url = new URL(c.req.url);
  const https = url.protocol === 'https:' || c.req.header('x-forwarded-proto') === 'https';
  return `${https ? 'https:' : url.protocol}//${url.host}`;
}
