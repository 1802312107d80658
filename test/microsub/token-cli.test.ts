// `tidings token create` prints the new token as the last line of stdout (an interface other tools rely
// on), and that token works against the endpoint; `token list` and `token revoke`.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Hono } from 'hono';
import { microsubRoutes } from '../../src/microsub/routes.js';
import { PollEvents } from '../../src/poll/events.js';
import { microsubDeps } from '../../src/server/app.js';
import type { Store } from '../../src/store/index.js';
import { openStore } from '../../src/store/index.js';
import { tidings } from '../helpers/cli.js';
import { testClock } from '../helpers/poll-harness.js';
import { serverDeps } from './harness.js';

describe('tidings token', () => {
  let dir: string;
  let env: Record<string, string>;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'microsub-helper-token-'));
    env = { TIDINGS_DATABASE_URL: `sqlite:${join(dir, 't.db')}` };
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  async function withEndpoint<T>(body: (app: Hono, store: Store) => Promise<T>): Promise<T> {
    const store = await openStore(env['TIDINGS_DATABASE_URL'] as string);
    try {
      const deps = serverDeps(store, testClock(), new PollEvents(), {});
      return await body(new Hono().route('/microsub', microsubRoutes(microsubDeps(deps))), store);
    } finally {
      await store.close();
    }
  }

  const channelsWith = (app: Hono, token: string) =>
    Promise.resolve(
      app.request('/microsub?action=channels', { headers: { authorization: `Bearer ${token}` } }),
    );

  it('create prints the token as the last line of stdout, and it works against the endpoint', async () => {
    const run = await tidings(
      ['token', 'create', '--scope', 'read follow mute block channels', '--label', 'Monocle'],
      env,
    );
    assert.equal(run.code, 0, run.stderr);
    const token = run.stdout.trimEnd().split('\n').at(-1) ?? '';
    assert.match(token, /^[A-Za-z0-9_-]{43}$/, 'base64url of 32 random bytes');
    await withEndpoint(async (app, store) => {
      const answer = await channelsWith(app, token);
      assert.equal(answer.status, 200);
      const [stored] = await store.accounts.listTokens();
      assert.equal(stored?.scope, 'read follow mute block channels');
      assert.equal(stored?.label, 'Monocle');
      assert.notEqual(stored?.tokenHash, token, 'only the hash is stored');
    });
  });

  it('list shows the tokens without secrets, and revoke makes one stop working', async () => {
    const created = await tidings(['token', 'create', '--scope', 'read'], env);
    const token = created.stdout.trimEnd().split('\n').at(-1) ?? '';
    const listed = JSON.parse((await tidings(['token', 'list', '--json'], env)).stdout) as {
      tokens: { id: number; scope: string }[];
    };
    assert.deepEqual(
      listed.tokens.map((t) => t.scope),
      ['read follow mute block channels', 'read'],
    );
    assert.doesNotMatch(JSON.stringify(listed), new RegExp(token));
    const table = await tidings(['token', 'list'], env);
    assert.match(table.stdout, /active/);
    const id = String(listed.tokens[1]?.id);
    assert.equal((await tidings(['token', 'revoke', id], env)).code, 0);
    await withEndpoint(async (app) => assert.equal((await channelsWith(app, token)).status, 401));
    assert.equal((await tidings(['token', 'revoke', '999'], env)).code, 1);
  });

  it('refuses an empty scope', async () => {
    const run = await tidings(['token', 'create', '--scope', ' '], env);
    assert.equal(run.code, 1);
  });
});
