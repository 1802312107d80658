// Bursts of concurrent logins against the whole app (issue 22): the web UI's /login, Google Reader's
// ClientLogin and Fever's api_key are each limited as a sequence is, on both databases, counting the
// password checks that ran; a burst from many addresses is bounded and does not starve the owner.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Hono } from 'hono';
import { feverKey, setApiPassword } from '../../src/auth/api-credentials.js';
import { Logins } from '../../src/auth/logins.js';
import { hashPassword, PASSWORD_SETTING, verifyPassword } from '../../src/auth/password-hash.js';
import { createApp } from '../../src/server/app.js';
import {
  API_PASSWORD,
  API_USER,
  FEVER_KEY,
  openSyncHarness,
  type SyncHarness,
} from '../helpers/sync-harness.js';
import { storeBackends } from '../helpers/temp-store.js';

const OWNER_PASSWORD = 'the owner password';
type Outcome = 'ok' | 'refused' | 'wait' | 'busy';

/** The bindings @hono/node-server gives a request from this address. */
function from(address: string) {
  return { incoming: { socket: { remoteAddress: address, remotePort: 40_000, remoteFamily: 'IPv4' } } };
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** One login of each kind, as its clients send it, read back as an outcome. */
async function loginKinds(app: Hono) {
  // the login form's nonce: a cookie and the same value in the form, reusable for an hour
  const page = await app.request('/login');
  const cookie = page.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
  const web = async (password: string, address = '10.1.1.1'): Promise<Outcome> => {
    const body = new URLSearchParams({ _csrf: csrf, password, next: '/' });
    const headers = { ...FORM, cookie, origin: 'http://localhost' };
    const res = await app.request('/login', { method: 'POST', body, headers }, from(address));
    await res.text();
    return outcomeOf(res, { 303: 'ok', 401: 'refused', 429: 'wait', 503: 'busy' });
  };
  const greader = async (password: string, address = '10.1.1.1'): Promise<Outcome> => {
    const body = new URLSearchParams({ Email: API_USER, Passwd: password });
    const res = await app.request(
      '/api/greader/accounts/ClientLogin',
      { method: 'POST', body, headers: FORM },
      from(address),
    );
    await res.text();
    return outcomeOf(res, { 200: 'ok', 401: 'refused', 429: 'wait', 503: 'busy' });
  };
  const fever = async (key: string, address = '10.1.1.1'): Promise<Outcome> => {
    const body = new URLSearchParams({ api_key: key });
    const res = await app.request('/api/fever?api', { method: 'POST', body, headers: FORM }, from(address));
    const answer = (await res.json()) as { auth: number };
    if (res.status === 503) return 'busy';
    assert.equal(res.status, 200);
    if (answer.auth === 1) return 'ok';
    return res.headers.get('retry-after') ? 'wait' : 'refused';
  };
  return { web, greader, fever };
}

function outcomeOf(res: Response, statuses: Record<number, Outcome>): Outcome {
  const outcome = statuses[res.status];
  if (!outcome) throw new Error(`unexpected status ${res.status}`);
  if (outcome === 'wait' || outcome === 'busy') assert.ok(Number(res.headers.get('retry-after')) > 0);
  return outcome;
}

const tally = (outcomes: Outcome[]) => {
  const counts: Record<string, number> = {};
  for (const o of outcomes) counts[o] = (counts[o] ?? 0) + 1;
  return counts;
};

for (const backend of storeBackends()) {
  describe(`login bursts (${backend.name})`, { skip: backend.skip }, () => {
    let h: SyncHarness;

    before(async () => {
      h = await openSyncHarness(backend);
      await h.store.accounts.setUserSetting(
        PASSWORD_SETTING,
        await hashPassword(OWNER_PASSWORD, { N: 1024 }),
      );
    });
    after(async () => {
      await h.close();
      await backend.cleanup();
    });

    const cases = [
      { kind: 'web', right: OWNER_PASSWORD, wrong: (i: number) => `wrong password ${i}` },
      { kind: 'greader', right: API_PASSWORD, wrong: (i: number) => `wrong password ${i}` },
      { kind: 'fever', right: FEVER_KEY, wrong: (i: number) => i.toString(16).padStart(32, '0') },
    ] as const;

    for (const { kind, right, wrong } of cases) {
      it(`${kind}: 39 wrong secrets at once plus the right one run 5 checks and give no login`, async () => {
        const logins = new Logins();
        const login = (await loginKinds(createApp({ ...h.deps, logins })))[kind];
        const secrets = [...Array.from({ length: 39 }, (_, i) => wrong(i)), right];
        const outcomes = await Promise.all(secrets.map((secret) => login(secret)));
        assert.equal(logins.checks.started, 5);
        assert.deepEqual(tally(outcomes), { refused: 5, wait: 35 });
        assert.equal(outcomes.at(-1), 'wait', 'the right secret, sent in the burst, is refused unchecked');
        assert.equal(await login(right), 'wait');
        assert.equal(logins.checks.started, 5);
        // another address is not held back, and its success does not free the first one
        assert.equal(await login(right, '10.2.2.2'), 'ok');
        assert.equal(await login(right), 'wait');
      });
    }

    it('fever: an app sending its first requests at once with the right key is checked once, then never', async () => {
      // a new API password: a stored hash no key was verified against
      await setApiPassword(h.store, API_USER, 'another api password', { N: 1024 });
      const key = feverKey(API_USER, 'another api password');
      const logins = new Logins();
      const { fever } = await loginKinds(createApp({ ...h.deps, logins }));
      const outcomes = await Promise.all(Array.from({ length: 12 }, () => fever(key)));
      assert.deepEqual(tally(outcomes), { ok: 12 });
      assert.equal(logins.checks.started, 1);
      for (let i = 0; i < 10; i++) assert.equal(await fever(key.toUpperCase()), 'ok');
      assert.equal(logins.checks.started, 1, 'a verified key is not hashed again');
      await setApiPassword(h.store, API_USER, API_PASSWORD, { N: 1024 });
      assert.equal(await fever(key), 'refused', 'the old key stops working with the new password');
    });
  });
}

describe('login bursts from many addresses', () => {
  const backend = storeBackends()[0];
  let h: SyncHarness;
  let checkMs = 0;

  before(async () => {
    if (!backend) throw new Error('no SQLite backend');
    h = await openSyncHarness(backend);
    // a real cost, so that the checks take time as they do under `serve`
    const hash = await hashPassword(OWNER_PASSWORD, { N: 2 ** 14 });
    await h.store.accounts.setUserSetting(PASSWORD_SETTING, hash);
    const started = performance.now();
    await verifyPassword(OWNER_PASSWORD, hash);
    checkMs = performance.now() - started;
  });
  after(async () => {
    await h.close();
    await backend?.cleanup();
  });

  it("bounds the checks at once and the owner's wait; refuses the excess fast without counting it", async () => {
    const logins = new Logins();
    const { web } = await loginKinds(createApp({ ...h.deps, logins }));
    // the owner signed in from home before
    assert.equal(await web(OWNER_PASSWORD, '192.0.2.1'), 'ok');
    const before = logins.checks.started;
    const timed = async (run: () => Promise<Outcome>) => {
      const started = performance.now();
      const outcome = await run();
      return { outcome, ms: performance.now() - started };
    };
    const burst = Array.from({ length: 80 }, (_, i) => timed(() => web(`guess ${i}`, `198.51.100.${i}`)));
    const owner = timed(() => web(OWNER_PASSWORD, '192.0.2.1'));
    const stranger = timed(() => web(OWNER_PASSWORD, '203.0.113.7'));
    const [home, away, ...rest] = await Promise.all([owner, stranger, ...burst]);
    const checks = logins.checks.started - before;
    assert.ok(checks <= 2 + 8 + 1, `${checks} checks ran`);
    const busy = rest.filter((r) => r.outcome === 'busy');
    assert.equal(busy.length + rest.filter((r) => r.outcome === 'refused').length, 80);
    assert.ok(busy.length >= 80 - 10);
    // The refusals take what answering 80 requests takes (the web stack, not a check); the owner's
    // check comes next after the two running ones, ahead of the eight waiting: before, it waited
    // behind all 80 checks.
    const answered = Math.max(...busy.map((r) => r.ms));
    assert.equal(home?.outcome, 'ok');
    assert.ok(
      (home?.ms ?? 0) < answered + 3 * checkMs + 250,
      `the owner waited ${home?.ms} ms (a check: ${checkMs} ms, the refusals: ${answered} ms)`,
    );
    // a first sign-in from elsewhere waits behind at most ten checks, or is told at once to try again
    assert.ok(away?.outcome === 'ok' || away?.outcome === 'busy');
    // nothing was counted for the refused: each busy address still has its five attempts
    const last = rest.findLastIndex((r) => r.outcome === 'busy');
    for (let i = 0; i < 5; i++) assert.equal(await web(`guess again ${i}`, `198.51.100.${last}`), 'refused');
    assert.equal(await web('guess again', `198.51.100.${last}`), 'wait');
  });
});
