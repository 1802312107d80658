import { html, raw } from 'hono/html';
import type { Child } from 'hono/jsx';
import { Chunk } from '../chunks.js';
import { assetPath, THEME_COLOR } from '../static.js';

/** Which section of the top navigation is current. */
export type NavKey =
  | 'reader'
  | 'subscriptions'
  | 'channels'
  | 'feeds'
  | 'opml'
  | 'tokens'
  | 'alerts'
  | 'rules'
  | 'users'
  | 'account'
  | 'none';

const NAV: [NavKey, string, string][] = [
  ['reader', '/', 'Reader'],
  ['subscriptions', '/subscriptions', 'Subscriptions'],
  ['channels', '/channels', 'Channels'],
  ['feeds', '/feeds', 'Feed health'],
  ['opml', '/opml', 'OPML'],
  ['tokens', '/tokens', 'Tokens'],
  ['alerts', '/alerts', 'Alerts'],
  ['rules', '/rules', 'Rules'],
];

export interface LayoutProps {
  title: string;
  /**
   * The unread count the title starts with, "(24) News", by the key of the drawn count it repeats
   * (sidebar.tsx), so that the page's script keeps the two equal.
   */
  titleCount?: { key: string; unread: number } | undefined;
  nav: NavKey;
  /** The session's CSRF token; absent on the login page (no navigation then). */
  csrf?: string | undefined;
  /** Who is signed in: named in the navigation, with Users for an admin. */
  user?: { name: string; isAdmin: boolean } | undefined;
  flash?: string | undefined;
  sidebar?: Child;
  children?: Child;
}

/** The page shell: head, top navigation, optional sidebar, keyboard help. */
export function Layout(props: LayoutProps) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <PageTitle title={`${props.title} · tidings`} count={props.titleCount} />
        <link rel="stylesheet" href={assetPath('app.css')} />
        <link rel="icon" href={assetPath('icon.svg')} type="image/svg+xml" />
        <link rel="manifest" href="/manifest.webmanifest" />
        <link rel="apple-touch-icon" href={assetPath('icon-192.png')} />
        <meta name="theme-color" content={THEME_COLOR} />
        <script src={assetPath('app.js')} defer></script>
      </head>
      <body>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header class="topbar">
          <a class="brand" href="/">
            tidings
          </a>
          {props.csrf !== undefined && <TopNav current={props.nav} csrf={props.csrf} user={props.user} />}
          {props.sidebar && (
            <a class="to-sidebar" href="#sidebar">
              Channels
            </a>
          )}
        </header>
        {/* main before the sidebar: a phone shows the article first, the channels below it */}
        <div class={props.sidebar ? 'layout has-sidebar' : 'layout'}>
          <main id="main">
            {props.flash && (
              <p class="flash" role="status">
                {props.flash}
              </p>
            )}
            {props.children}
          </main>
          {props.sidebar && (
            <aside class="sidebar" id="sidebar">
              <Chunk>{props.sidebar}</Chunk>
            </aside>
          )}
        </div>
        {props.csrf !== undefined && <KeyboardHelp />}
      </body>
    </html>
  );
}

function PageTitle(props: { title: string; count: LayoutProps['titleCount'] }) {
  const { title, count } = props;
  if (!count) return <title>{title}</title>;
  return (
    <title data-title-count={count.key} data-title={title}>
      {count.unread > 0 ? `(${count.unread}) ${title}` : title}
    </title>
  );
}

function TopNav(props: { current: NavKey; csrf: string; user: LayoutProps['user'] }) {
  const { user } = props;
  const current = (key: NavKey) => (key === props.current ? 'page' : undefined);
  return (
    <nav class="topnav" aria-label="Sections">
      {NAV.map(([key, href, label]) => (
        <a href={href} aria-current={current(key)}>
          {label}
        </a>
      ))}
      {user?.isAdmin && (
        <a href="/admin/users" aria-current={current('users')}>
          Users
        </a>
      )}
      {user && (
        <a href="/account" class="nav-user" aria-current={current('account')} title="Your account">
          {user.name}
        </a>
      )}
      <PostForm action="/logout" csrf={props.csrf} class="inline">
        <button type="submit" class="link">
          Log out
        </button>
      </PostForm>
    </nav>
  );
}

// The page's script shows only the keys that work on the page (data-key names the key it checks):
// no r on All unread or Saved (a refresh is a channel's), no o on an entry's own page, none on admin pages.
const KEYS: [key: string, label: string, what: string][] = [
  ['j', 'j / k', 'next / previous entry (on an entry page: go to it)'],
  ['o', 'o or Enter', 'open the entry on its own page (marks it read)'],
  ['v', 'v', 'view the original in a new tab (marks it read)'],
  ['m', 'm', 'toggle read'],
  ['s', 's', 'save (star) the entry, or unsave it: see them under Saved'],
  ['A', 'shift+A', 'mark all as read (with an Undo)'],
  ['r', 'r', 'refresh this channel'],
  ['?', '?', 'show or hide this help'],
];

function KeyboardHelp() {
  return (
    <section class="help" data-help hidden aria-label="Keyboard shortcuts">
      <h2>Keyboard shortcuts</h2>
      <dl>
        {KEYS.map(([key, label, what]) => (
          <div class="help-key" data-key={key}>
            <dt>
              <kbd>{label}</kbd>
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
      <p>Press Escape or ? to close.</p>
    </section>
  );
}

export interface PostFormProps {
  action: string;
  csrf: string;
  /** Where to come back to afterwards (a path of this site). */
  returnTo?: string | undefined;
  class?: string;
  /** Names the inline action the page's script performs with fetch instead of a full submit. */
  dataAction?: string;
  enctype?: 'multipart/form-data' | 'application/x-www-form-urlencoded';
  children?: Child;
}

/**
 * A POST form with its CSRF token (and return path) as hidden fields. Written as an html template (its
 * values escaped as JSX escapes them, the same HTML): a reader page has four forms an entry, and as JSX
 * they were a fifth of its rendering time.
 */
export function PostForm(props: PostFormProps) {
  const returnTo =
    props.returnTo === undefined ? '' : html`<input type="hidden" name="return" value="${props.returnTo}"/>`;
  return html`<form method="post" action="${props.action}"${attribute('class', props.class)}${attribute('data-action', props.dataAction)}${attribute('enctype', props.enctype)}><input type="hidden" name="_csrf" value="${props.csrf}"/>${returnTo}${props.children}</form>`;
}

/** ` name="value"` (the value escaped), or nothing when there is no value: as JSX leaves out an undefined attribute. */
export function attribute(name: string, value: string | undefined) {
  return value === undefined ? '' : html` ${raw(name)}="${value}"`;
}
