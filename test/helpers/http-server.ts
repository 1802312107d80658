import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the test server received. */
export interface RecordedRequest {
  method: string;
  /** Path and query as sent, e.g. `/feed.xml?page=2`. */
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** Handles one request; the request body has already been read into `request.body`. */
export type RouteHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  request: RecordedRequest,
) => void | Promise<void>;

/** Routes by pathname (`/feed.xml`) or by method and pathname (`POST /micropub`); the second wins. */
export type Routes = Record<string, RouteHandler>;

export interface TestServer {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  url: string;
  port: number;
  /** Every request received, in order (unrouted ones included). */
  requests: RecordedRequest[];
  /** Closes the server and every open connection (keep-alive ones too). */
  close(): Promise<void>;
}

/** Starts a real HTTP server on 127.0.0.1 with a free port; unknown paths answer 404. */
export async function startServer(routes: Routes): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    void handle(routes, requests, req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

async function handle(
  routes: Routes,
  requests: RecordedRequest[],
  req: IncomingMessage,
  res: ServerResponse,
) {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const path = req.url ?? '/';
  const method = req.method ?? 'GET';
  const recorded: RecordedRequest = { method, path, headers: req.headers, body: Buffer.concat(chunks) };
  requests.push(recorded);
  const pathname = new URL(path, 'http://test.invalid').pathname;
  const handler = routes[`${method} ${pathname}`] ?? routes[pathname];
  try {
    if (handler === undefined) send(res, 404, 'not found');
    else await handler(req, res, recorded);
  } catch (error) {
    if (!res.headersSent) send(res, 500, String(error));
    else res.destroy();
  }
}

/** Answers with a status, a body and headers (Content-Length is set for you). */
export function send(
  res: ServerResponse,
  status: number,
  body: string | Uint8Array = '',
  headers: Record<string, string | number> = {},
): void {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  res.writeHead(status, { 'content-length': bytes.length, ...headers });
  res.end(bytes);
}

/** Returns a handler that redirects to `location` with `status`. */
export function redirectTo(location: string, status = 302): RouteHandler {
  return (_req, res) => send(res, status, '', { location });
}
