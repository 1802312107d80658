// `tidings token create` prints the new token as the last line of stdout (an interface other tools rely
// on), and that token works against the endpoint; `token list` and `token revoke`. The command lines run
// in one CLI process (helpers/cli-batch-run.ts), on a new database, so that the tokens' ids are 1 and 2.
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
import type { BatchResult } from '../helpers/cli-batch.js';
import { runAll } from '../helpers/cli-batch-run.js';
import { testClock } from '../helpers/poll-harness.js';
import { serverDeps } from './harness.js';

describe('tidings token', () => {
  let dir: string;
  let env: Record<string, string>;
  let runs: BatchResult[] = [];
  const run = (index: number): BatchResult => {
    const found = runs[index];
    assert.ok(found, `no run ${index}`);
    return found;
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'microsub-helper-token-'));
    env = { TIDINGS_DATABASE_URL: `sqlite:${join(dir, 't.db')}` };
    runs = await runAll(
      [
        ['token', 'create', '--scope', 'read follow mute block channels', '--label', 'Monocle'], // 0: id 1
        ['token', 'create', '--scope', 'read'], // 1: id 2
        ['token', 'list', '--json'], // 2
        ['token', 'list'], // 3
        ['token', 'revoke', '2'], // 4
        ['token', 'revoke', '999'], // 5
        ['token', 'create', '--scope', ' '], // 6
      ].map((args) => ({ args, env })),
    );
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
  const tokenOf = (result: BatchResult) => result.stdout.trimEnd().split('\n').at(-1) ?? '';

  it('create prints the token as the last line of stdout, and it works against the endpoint', async () => {
    assert.equal(run(0).code, 0, run(0).stderr);
    const token = tokenOf(run(0));
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
    const token = tokenOf(run(1));
    const listed = JSON.parse(run(2).stdout) as { tokens: { id: number; scope: string }[] };
    assert.deepEqual(
      listed.tokens.map((t) => [t.id, t.scope]),
      [
        [1, 'read follow mute block channels'],
        [2, 'read'],
      ],
    );
    assert.doesNotMatch(JSON.stringify(listed), new RegExp(token));
    assert.match(run(3).stdout, /active/);
    assert.equal(run(4).code, 0);
    await withEndpoint(async (app) => assert.equal((await channelsWith(app, token)).status, 401));
    assert.equal(run(5).code, 1);
  });

  it('refuses an empty scope as a command line that cannot be used (exit 2)', () => {
    assert.equal(run(6).code, 2);
  });
});
