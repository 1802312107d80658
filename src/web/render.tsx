import type { Context } from 'hono';
import { raw } from 'hono/html';
import type { Child } from 'hono/jsx';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { WebContext, WebEnv } from './env.js';
import type { Session } from './session.js';
import { Layout, type LayoutProps } from './views/layout.js';

/** The session of a request that passed the auth middleware. */
export function sessionOf(c: Context<WebEnv>): Session {
  const session = c.get('session');
  if (!session) throw new Error('web: a page that needs a session was reached without one');
  return session;
}

// Where the sidebar and the main content go in the rendered layout (an HTML comment: never escaped).
const SIDEBAR = '<!--tidings:sidebar-->';
const MAIN = '<!--tidings:main-->';
const MARKS = /(<!--tidings:(?:sidebar|main)-->)/;

/**
 * Renders a full page in the layout, with the session's CSRF token and any flash message.
 *
 * The layout, the sidebar and the main content are rendered and encoded to UTF-8 each on its own, and
 * the page sent as those bytes. Rendered as one string, a reader page is one string of 80,000
 * characters, and one character outside Latin-1 (an arrow, a curly quote in a title) makes it take two
 * bytes a character: past 128 KB V8 allocates such a string on fresh pages of its own, which cost a
 * reader page 1 ms of its 7 (bench:serve). Each part stays below that size.
 */
export async function renderPage(
  c: Context<WebEnv>,
  ctx: WebContext,
  props: Omit<LayoutProps, 'csrf' | 'flash'>,
  status: ContentfulStatusCode = 200,
): Promise<Response> {
  const flash = await ctx.sessions.takeFlash(c);
  const { sidebar, children, ...frame } = props;
  const [sidebarHtml, mainHtml, layoutHtml] = await Promise.all([
    rendered(sidebar),
    rendered(children),
    rendered(
      <Layout
        {...frame}
        sidebar={sidebar === undefined || sidebar === null || sidebar === false ? sidebar : raw(SIDEBAR)}
        csrf={c.get('session')?.csrf}
        flash={flash}
      >
        {raw(MAIN)}
      </Layout>,
    ),
  ]);
  const parts = ['<!DOCTYPE html>'];
  for (const piece of layoutHtml.split(MARKS)) {
    if (piece === SIDEBAR) parts.push(sidebarHtml);
    else if (piece === MAIN) parts.push(mainHtml);
    else parts.push(piece);
  }
  const body = Buffer.concat(parts.map((part) => Buffer.from(part)));
  return c.body(body, status, { 'Content-Type': 'text/html; charset=UTF-8' });
}

/** A JSX child rendered to HTML ('' for nothing). */
async function rendered(child: Child): Promise<string> {
  if (child === undefined || child === null || child === false) return '';
  // biome-ignore lint/complexity/noUselessFragments: a Child may be a string or an array, which the fragment renders
  return String(await (<>{child}</>));
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
