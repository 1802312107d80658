import type { Hono } from 'hono';
import { Logins, setUserPassword } from '../../src/auth/index.js';
import { hashPassword, PASSWORD_SETTING } from '../../src/auth/password-hash.js';
import { silentLogger } from '../../src/log.js';
import { PollEvents } from '../../src/poll/events.js';
import { createApp } from '../../src/server/app.js';
import type { ServerDeps } from '../../src/server/deps.js';
import type { Store } from '../../src/store/index.js';
import { pollDeps, TEST_CONFIG, type TestClock, testClock } from '../helpers/poll-harness.js';
import { type StoreBackend, storeBackends } from '../helpers/temp-store.js';

export const PASSWORD = 'correct horse battery staple';

// One hash for every test: scrypt is slow on purpose.
let passwordHash: Promise<string> | undefined;

/** The whole app (web UI and Microsub) on a fresh SQLite store, with the owner's password set. */
export interface WebHarness {
  app: Hono;
  store: Store;
  deps: ServerDeps;
  clock: TestClock;
  /** The database backend `store` was opened on (for tests that write raw rows). */
  backend: StoreBackend;
  close(): Promise<void>;
}

export async function webHarness(options: { withPassword?: boolean } = {}): Promise<WebHarness> {
  const backend = storeBackends()[0];
  if (!backend) throw new Error('harness: no SQLite backend');
  const store = await backend.open();
  const clock = testClock(new Date().toISOString());
  if (options.withPassword !== false) {
    passwordHash ??= hashPassword(PASSWORD, { N: 1024 });
    await store.accounts.setUserSetting(PASSWORD_SETTING, await passwordHash);
  }
  const deps: ServerDeps = {
    store,
    config: TEST_CONFIG,
    log: silentLogger,
    poll: pollDeps(store, clock),
    events: new PollEvents(),
    indieAuth: {},
    now: clock.now,
  };
  return { app: createApp(deps), store, deps, clock, backend, close: () => backend.cleanup() };
}

/** A response, read. */
export interface Page {
  status: number;
  headers: Headers;
  text: string;
}

/**
 * A browser in miniature: keeps cookies, sends Origin like a browser does on form posts, and reads
 * the CSRF token from the pages it gets.
 */
export class Client {
  readonly cookies = new Map<string, string>();
  csrf = '';

  constructor(
    private readonly app: Hono,
    private readonly origin = 'http://localhost',
  ) {}

  async get(path: string, headers: Record<string, string> = {}): Promise<Page> {
    return this.send(path, { method: 'GET', headers });
  }

  /** Posts a form; `_csrf` is added from the last page unless given (or set to null to leave it out). */
  async post(
    path: string,
    form: Record<string, string | string[] | null> = {},
    headers: Record<string, string> = {},
  ): Promise<Page> {
    const body = new URLSearchParams();
    if (!('_csrf' in form)) body.append('_csrf', this.csrf);
    for (const [key, value] of Object.entries(form)) {
      if (value === null) continue;
      for (const v of Array.isArray(value) ? value : [value]) body.append(key, v);
    }
    return this.send(path, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: this.origin, ...headers },
    });
  }

  async postMultipart(path: string, form: FormData): Promise<Page> {
    if (!form.has('_csrf')) form.append('_csrf', this.csrf);
    return this.send(path, { method: 'POST', body: form, headers: { origin: this.origin } });
  }

  /**
   * Signs in with a password, and a user name when given (with one user it may be left out); returns
   * the answer to the login POST.
   */
  async login(password = PASSWORD, username?: string): Promise<Page> {
    await this.get('/login');
    return this.post('/login', { password, next: '/', ...(username === undefined ? {} : { username }) });
  }

  private async send(
    path: string,
    init: { method: string; headers: Record<string, string>; body?: URLSearchParams | FormData },
  ): Promise<Page> {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const headers = { ...init.headers, ...(cookie ? { cookie } : {}) };
    const res = await this.app.request(path, { ...init, headers });
    for (const line of res.headers.getSetCookie()) this.keepCookie(line);
    const text = await res.text();
    const token = /name="_csrf" value="([^"]+)"/.exec(text)?.[1];
    if (token) this.csrf = token;
    return { status: res.status, headers: res.headers, text };
  }

  private keepCookie(line: string): void {
    const [pair] = line.split(';');
    const eq = pair?.indexOf('=') ?? -1;
    if (!pair || eq < 0) return;
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    if (/max-age=0/i.test(line) || value === '') this.cookies.delete(name);
    else this.cookies.set(name, value);
  }
}

/** Signs a new client in: the one user with the harness's password, or the named user with theirs. */
export async function signedIn(app: Hono, as?: { username: string; password: string }): Promise<Client> {
  const client = new Client(app);
  const answer = await client.login(as?.password, as?.username);
  if (answer.status !== 303)
    throw new Error(`harness: login answered ${answer.status}: ${answer.text.slice(0, 200)}`);
  await client.get('/channels');
  return client;
}

/** bob's password in the two-user tests. */
export const BOB_PASSWORD = 'bob reads the news';

/** ann (admin, the harness's password) and bob on one harness, each signed in to the whole app. */
export interface TwoSignedIn {
  app: Hono;
  annStore: Store;
  bobStore: Store;
  ann: Client;
  bob: Client;
}

/**
 * Adds ann and bob to the harness's store and signs both in, with login limits high enough for tests
 * that sign in many times.
 */
export async function twoSignedIn(h: WebHarness): Promise<TwoSignedIn> {
  const app = createApp({ ...h.deps, logins: new Logins({ maxFailures: 1000 }) });
  const now = h.clock.now().toISOString();
  const annUser = await h.store.users.add({ name: 'ann', isAdmin: true }, now);
  const bobUser = await h.store.users.add({ name: 'bob', isAdmin: false }, now);
  const annStore = h.store.forUser(annUser.id);
  const bobStore = h.store.forUser(bobUser.id);
  await setUserPassword(bobStore, BOB_PASSWORD, h.clock.now(), { N: 1024 });
  const ann = await signedIn(app, { username: 'ann', password: PASSWORD });
  const bob = await signedIn(app, { username: 'bob', password: BOB_PASSWORD });
  return { app, annStore, bobStore, ann, bob };
}
