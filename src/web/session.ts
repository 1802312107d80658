import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { deleteCookie, getSignedCookie, setSignedCookie } from 'hono/cookie';
import { SESSIONS_NOT_BEFORE_SETTING, type WebUser, webUser } from '../auth/index.js';
import type { Store } from '../store/index.js';

const COOKIE = 'tidings_session';
const FLASH_COOKIE = 'tidings_flash';
const LOGIN_COOKIE = 'tidings_login';
const SECRET_SETTING = 'web.session_secret';
const SESSION_MS = 30 * 24 * 3600 * 1000;
// a session signed out: one user setting per session id, until it would have expired anyway
const ENDED_PREFIX = 'web.session_ended:';
// whose a two-part cookie of before accounts is: the owner, user 1 since migration 0011
const OLD_COOKIE_USER_ID = 1;

/** A signed-in browser: its random id, when it signed in, who signed in, and the CSRF token its forms carry. */
export interface Session {
  id: string;
  issuedAtMs: number;
  user: WebUser;
  csrf: string;
}

/** True when the request reached us over https (directly, or through a proxy that says so). */
export function isHttps(c: Context): boolean {
  return new URL(c.req.url).protocol === 'https:' || c.req.header('x-forwarded-proto') === 'https';
}

/** Compares two strings in constant time (for CSRF tokens). */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Sessions live in a cookie signed with HMAC-SHA256 (Hono's signed cookies) under a secret generated
 * once and kept in the instance's settings, so they survive restarts and work across processes. The
 * cookie holds `id:issuedAtMs:userId`; nothing is stored per session while it lasts. Signing out stores
 * the id among the user's settings (until it would expire anyway), so that it ends in every process and
 * after a restart, and a cookie copied before is refused; a user's new password ends that user's sessions
 * (their 'web.sessions.not_before'), and a removed user's sessions end with them. A cookie of before
 * accounts, `id:issuedAtMs`, was the owner's, whom migration 0011 made user 1: it stays user 1's.
 */
export class Sessions {
  private secret: Promise<string> | undefined;

  constructor(
    /** The instance's store: the signing secret, and each session's user. */
    private readonly store: Store,
    private readonly now: () => Date,
  ) {}

  /** The signing secret: read from the settings, created on first use. */
  signingSecret(): Promise<string> {
    this.secret ??= (async () => {
      const known = await this.store.accounts.getSetting(SECRET_SETTING);
      if (known) return known;
      // another process may be creating it too: the first one stored holds for both
      return this.store.accounts.settingOnce(SECRET_SETTING, randomBytes(32).toString('base64url'));
    })();
    return this.secret;
  }

  /** The session of this request, when its cookie is valid, unexpired, not ended, and its user exists. */
  async read(c: Context): Promise<Session | undefined> {
    const secret = await this.signingSecret();
    const value = await getSignedCookie(c, secret, COOKIE);
    if (!value) return undefined;
    const [id, issued, user = String(OLD_COOKIE_USER_ID), ...rest] = value.split(':');
    const issuedAtMs = Number(issued);
    const userId = Number(user);
    if (!id || rest.length > 0 || !Number.isFinite(issuedAtMs)) return undefined;
    if (!Number.isSafeInteger(userId) || userId <= 0) return undefined;
    const nowMs = this.now().getTime();
    if (nowMs - issuedAtMs > SESSION_MS || issuedAtMs > nowMs + 60_000) return undefined;
    const accounts = this.store.forUser(userId).accounts;
    const [found, notBefore, ended] = await Promise.all([
      webUser(this.store, userId),
      accounts.getUserSetting(SESSIONS_NOT_BEFORE_SETTING),
      accounts.getUserSetting(`${ENDED_PREFIX}${id}`),
    ]);
    if (!found || ended !== undefined || issuedAtMs < Number(notBefore ?? 0)) return undefined;
    return { id, issuedAtMs, user: found, csrf: csrfToken(secret, id) };
  }

  /** Starts a session of this user: sets the cookie (HttpOnly, SameSite=Lax, Secure over https). */
  async start(c: Context, user: WebUser): Promise<Session> {
    const secret = await this.signingSecret();
    const id = randomBytes(18).toString('base64url');
    const issuedAtMs = this.now().getTime();
    await setSignedCookie(c, COOKIE, `${id}:${issuedAtMs}:${user.id}`, secret, {
      path: '/',
      httpOnly: true,
      sameSite: 'Lax',
      secure: isHttps(c),
      maxAge: SESSION_MS / 1000,
    });
    return { id, issuedAtMs, user, csrf: csrfToken(secret, id) };
  }

  /** Ends a session: clears the cookie and refuses its id from now on, in every process. */
  async end(c: Context, session: Session): Promise<void> {
    const accounts = this.store.forUser(session.user.id).accounts;
    const nowMs = this.now().getTime();
    // the sessions this user signed out of that would have expired by now need no record
    for (const { key, value } of await accounts.userSettingsStartingWith(ENDED_PREFIX))
      if (Number(value) < nowMs) await accounts.deleteUserSetting(key);
    await accounts.setUserSetting(`${ENDED_PREFIX}${session.id}`, String(session.issuedAtMs + SESSION_MS));
    deleteCookie(c, COOKIE, { path: '/', secure: isHttps(c) });
  }

  /**
   * A random value for the login form, kept in a signed cookie too: the login form is protected from
   * CSRF (login CSRF signs a victim into an attacker's account) before any session exists.
   */
  async loginNonce(c: Context): Promise<string> {
    const secret = await this.signingSecret();
    const known = await getSignedCookie(c, secret, LOGIN_COOKIE);
    if (known) return known;
    const nonce = randomBytes(18).toString('base64url');
    await setSignedCookie(c, LOGIN_COOKIE, nonce, secret, {
      path: '/login',
      httpOnly: true,
      sameSite: 'Lax',
      secure: isHttps(c),
      maxAge: 3600,
    });
    return nonce;
  }

  /** True when the login form came back with the nonce of this browser's cookie. */
  async checkLoginNonce(c: Context, value: string): Promise<boolean> {
    const secret = await this.signingSecret();
    const known = await getSignedCookie(c, secret, LOGIN_COOKIE);
    return typeof known === 'string' && sameSecret(known, value);
  }

  /** Leaves a one-line message for the next page (after a redirect). */
  async flash(c: Context, message: string): Promise<void> {
    const secret = await this.signingSecret();
    await setSignedCookie(c, FLASH_COOKIE, encodeURIComponent(message.slice(0, 300)), secret, {
      path: '/',
      httpOnly: true,
      sameSite: 'Lax',
      secure: isHttps(c),
      maxAge: 60,
    });
  }

  /** The message left by the previous request, once. */
  async takeFlash(c: Context): Promise<string | undefined> {
    const secret = await this.signingSecret();
    const value = await getSignedCookie(c, secret, FLASH_COOKIE);
    if (value === undefined) return undefined;
    deleteCookie(c, FLASH_COOKIE, { path: '/', secure: isHttps(c) });
    if (value === false) return undefined;
    try {
      return decodeURIComponent(value);
    } catch {
      return undefined;
    }
  }
}

// The CSRF token is derived from the session id, so it needs no storage and changes with each sign-in.
function csrfToken(secret: string, sessionId: string): string {
  return createHmac('sha256', secret).update(`csrf:${sessionId}`).digest('base64url');
}
