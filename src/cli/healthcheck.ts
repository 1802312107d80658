import { UserError } from './user-error.js';

/** Where `serve` listens unless told otherwise. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:8080';
/** A health check answers quickly or not at all: Docker's own HEALTHCHECK timeout is 30 s. */
const TIMEOUT_MS = 5_000;

/** `tidings healthcheck` (healthcheck-command.ts defines it). */
export async function runHealthcheck(baseUrl: string): Promise<void> {
  const answer = await checkHealth(baseUrl, TIMEOUT_MS);
  process.stdout.write(`${answer}\n`);
}

/**
 * Asks BASE_URL/healthz and resolves to one line when it answers 200 with status ok; otherwise throws
 * a UserError (exit 1, never 2: Docker reserves 2) saying why in one line.
 */
export async function checkHealth(baseUrl: string, timeoutMs: number): Promise<string> {
  const url = healthzUrl(baseUrl);
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
  } catch (error) {
    throw new UserError(`healthcheck: ${url}: ${whyNoAnswer(error, timeoutMs)}`, { cause: error });
  }
  const body = await response.text().catch(() => '');
  const status = statusOf(body);
  if (response.status === 200 && status?.status === 'ok')
    return `healthcheck: ${url}: ok (database ${status.database ?? 'ok'})`;
  const said =
    status === undefined
      ? 'not the JSON of /healthz (is this tidings?)'
      : `status ${status.status ?? 'missing'}, database ${status.database ?? 'not said'}`;
  throw new UserError(`healthcheck: ${url} answered ${response.status}: ${said}`);
}

/** BASE_URL/healthz, under BASE_URL's path (tidings behind a proxy at /tidings/ has /tidings/healthz). */
function healthzUrl(baseUrl: string): string {
  let base: URL;
  try {
    base = new URL(baseUrl);
  } catch {
    throw new UserError(`healthcheck: ${JSON.stringify(baseUrl)} is not a URL (such as ${DEFAULT_BASE_URL})`);
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:')
    throw new UserError(`healthcheck: ${baseUrl} is not an http:// or https:// URL`);
  if (!base.pathname.endsWith('/')) base.pathname = `${base.pathname}/`;
  base.search = '';
  base.hash = '';
  return new URL('healthz', base).toString();
}

function whyNoAnswer(error: unknown, timeoutMs: number): string {
  if (error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return `no answer within ${timeoutMs / 1000} s`;
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  if (code === 'ECONNREFUSED') return 'nothing listens there (connection refused)';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'the host name does not resolve';
  const detail = typeof cause?.message === 'string' ? cause.message : (error as Error | undefined)?.message;
  return `no answer (${code ?? detail ?? 'the request failed'})`;
}

/** The fields /healthz answers with, when the body is its JSON. */
function statusOf(body: string): { status?: string; database?: string } | undefined {
  try {
    const value: unknown = JSON.parse(body);
    if (typeof value !== 'object' || value === null) return undefined;
    const { status, database } = value as Record<string, unknown>;
    return {
      ...(typeof status === 'string' ? { status } : {}),
      ...(typeof database === 'string' ? { database } : {}),
    };
  } catch {
    return undefined;
  }
}
