import { Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { limitRequestBody } from '../http/index.js';
import type { PushAnswer } from '../poll/index.js';
import type { ServerDeps } from './deps.js';

/**
 * The WebSub callback (issue 26), `/websub/<token>`, answered without a login: a hub's verification of
 * intent (GET) and its content distribution (POST, the raw body, as large as a fetched feed may be).
 * Without TIDINGS_BASE_URL push is off and every callback is 404.
 */
export function websubRoutes(deps: ServerDeps): Hono {
  const app = new Hono();
  const answer = (c: { text: (body: string, status: ContentfulStatusCode) => Response }, a: PushAnswer) =>
    c.text(a.body, a.status as ContentfulStatusCode);
  app.use(
    '*',
    limitRequestBody({
      maxSize: deps.config.maxBodyBytes,
      onError: (c) => c.text(`websub: the body exceeds ${deps.config.maxBodyBytes} bytes`, 413),
    }),
  );
  app.get('/:token', async (c) => {
    const push = deps.poll.push;
    if (push === undefined) return c.text('websub: push is off', 404);
    return answer(c, await push.verify(c.req.param('token'), c.req.query()));
  });
  app.post('/:token', async (c) => {
    const push = deps.poll.push;
    if (push === undefined) return c.text('websub: push is off', 404);
    const body = new Uint8Array(await c.req.arrayBuffer());
    const headers: Record<string, string> = {};
    c.req.raw.headers.forEach((value, name) => {
      headers[name.toLowerCase()] = value;
    });
    return answer(c, await push.deliver(c.req.param('token'), headers, body));
  });
  return app;
}
