import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { MiddlewareHandler } from 'hono';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

// HTML, CSS, JS, JSON and the manifest; never an event stream (Microsub's SSE must flush as it goes)
const COMPRESSIBLE = /^(text\/(html|css|javascript|plain)|application\/(json|manifest\+json|javascript))\b/i;
// Below this a compressed body saves less than its headers cost.
const MIN_BYTES = 1024;
// Brotli's default quality (11) costs ~50 ms on a 500 KB page; 5 is within a few percent of its size.
const BROTLI_QUALITY = 5;

type Encoding = 'br' | 'gzip';

/** br when the client takes it, else gzip, else nothing (q=0 refuses a coding). */
export function negotiateEncoding(header: string | undefined): Encoding | undefined {
  const accepted = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    accepted.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  const weight = (name: Encoding) => accepted.get(name) ?? (accepted.get('*') || 0);
  if (weight('br') > 0) return 'br';
  if (weight('gzip') > 0) return 'gzip';
  return undefined;
}

/**
 * Compresses the web UI's text answers with brotli or gzip, as the request's Accept-Encoding allows
 * (node:zlib). Answers that are small, already encoded, or not text pass unchanged.
 */
export function compress(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const type = c.res.headers.get('content-type') ?? '';
    if (c.req.method === 'HEAD' || !COMPRESSIBLE.test(type) || c.res.headers.has('content-encoding')) return;
    c.res.headers.append('vary', 'Accept-Encoding');
    const encoding = negotiateEncoding(c.req.header('accept-encoding'));
    if (!encoding || !c.res.body) return;
    const body = Buffer.from(await c.res.arrayBuffer());
    if (body.length < MIN_BYTES) {
      c.res = new Response(body, c.res);
      return;
    }
    const compressed =
      encoding === 'br'
        ? await brotli(body, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
              [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
            },
          })
        : await gzipAsync(body);
    c.res = new Response(compressed, c.res);
    c.res.headers.delete('content-length');
    c.res.headers.set('content-encoding', encoding);
  };
}
