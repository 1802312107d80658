import type { Context } from 'hono';
import { raw } from 'hono/html';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { renderBytes } from './chunks.js';
import type { WebContext, WebEnv } from './env.js';
import { Layout, type LayoutProps } from './views/index.js';

export { depsOf, sessionOf, userOf } from './signed-in.js';

/**
 * Renders a full page in the layout, with the session's CSRF token and any flash message, and sends it
 * as UTF-8 encoded chunk by chunk (chunks.tsx).
 */
export async function renderPage(
  c: Context<WebEnv>,
  ctx: WebContext,
  props: Omit<LayoutProps, 'csrf' | 'flash'>,
  status: ContentfulStatusCode = 200,
): Promise<Response> {
  const flash = await ctx.sessions.takeFlash(c);
  const session = c.get('session');
  const body = renderBytes(
    <>
      {raw('<!DOCTYPE html>')}
      <Layout {...props} csrf={session?.csrf} user={session?.user} flash={flash} />
    </>,
  );
  return c.body(body, status, { 'Content-Type': 'text/html; charset=UTF-8' });
}

/** Goes back to a page after a form, with a message for it. */
export async function redirectWith(
  c: Context<WebEnv>,
  ctx: WebContext,
  path: string,
  message?: string,
): Promise<Response> {
  if (message) await ctx.sessions.flash(c, message);
  return c.redirect(path, 303);
}

/** A short page for 4xx answers (unknown channel, bad form). */
export function errorPage(
  c: Context<WebEnv>,
  ctx: WebContext,
  status: ContentfulStatusCode,
  message: string,
): Promise<Response> {
  return renderPage(
    c,
    ctx,
    {
      title: 'Something is off',
      nav: 'none',
      children: (
        <section class="panel">
          <h1>Something is off</h1>
          <p>{message}</p>
          <p>
            <a href="/">Back to the reader</a>
          </p>
        </section>
      ),
    },
    status,
  );
}
