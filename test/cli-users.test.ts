// Issue 24: `tidings user add|list|remove|rename|set`, `--user NAME` on the commands that act on one
// person's data, and the first password creating the first user. The command lines run in one CLI process
// (helpers/cli-batch-run.ts).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openStore } from '../src/store/index.js';
import type { BatchCase, BatchResult } from './helpers/cli-batch.js';
import { runAll } from './helpers/cli-batch-run.js';
import { oneLine } from './helpers/cli-results.js';

const dir = mkdtempSync(join(tmpdir(), 'tidings-cli-users-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const PASSWORD = 'a long enough password\n';

/** The cases on their own database file, named `name`. */
function on(name: string, cases: BatchCase[]): BatchCase[] {
  const env = { TIDINGS_DATABASE_URL: `sqlite:${join(dir, `${name}.db`)}` };
  return cases.map((one) => ({ ...one, env: { ...env, ...one.env } }));
}

function usersOf(result: BatchResult | undefined): unknown {
  assert.equal(result?.code, 0, result?.stderr);
  return JSON.parse(result?.stdout ?? '');
}

describe('tidings user and --user', () => {
  it('adds, lists, renames, sets and removes users; refuses bad and taken names in one line', async () => {
    const results = await runAll(
      on('people', [
        { args: ['user', 'list', '--json'] }, // 0: a new instance has nobody yet
        { args: ['token', 'list', '--json'] }, // 1: yet its first user's commands work
        { args: ['password', '--user', 'ann'], input: PASSWORD }, // 2: the first user, an admin
        { args: ['user', 'add', 'bob'], input: PASSWORD }, // 3
        { args: ['user', 'add', 'BOB'], input: PASSWORD }, // 4: taken, whatever the case
        { args: ['user', 'add', 'no spaces!'], input: PASSWORD }, // 5
        { args: ['user', 'add', 'carol'], input: 'short\n' }, // 6
        { args: ['user', 'list', '--json'] }, // 7
        { args: ['token', 'list'] }, // 8: several users, no --user
        { args: ['token', 'create', '--user', 'bob', '--label', 'phone'] }, // 9
        { args: ['token', 'list', '--user', 'ann', '--json'] }, // 10
        { args: ['token', 'list', '--user', 'Bob', '--json'] }, // 11
        { args: ['token', 'revoke', '1', '--user', 'ann'] }, // 12: bob's token is not ann's to revoke
        { args: ['export', '--user', 'nobody'] }, // 13
        { args: ['user', 'rename', 'bob', 'robert'] }, // 14
        { args: ['user', 'set', 'robert', '--admin', '--me', 'https://robert.example/'] }, // 15
        { args: ['user', 'list', '--json'] }, // 16
        { args: ['user', 'remove', 'robert'] }, // 17: not without --yes
        { args: ['user', 'remove', 'robert', '--yes'] }, // 18
        { args: ['user', 'set', 'ann', '--no-admin'] }, // 19: the last admin
        { args: ['user', 'remove', 'ann', '--yes'] }, // 20: the last admin
        { args: ['user', 'list', '--json'] }, // 21
        { args: ['token', 'list', '--json'] }, // 22: one user again: --user may be left out
        { args: ['user', 'list'] }, // 23: the table
        { args: ['user', 'add', 'no/slashes'], input: '' }, // 24: the name is refused before a password
      ]),
    );
    assert.deepEqual(usersOf(results[0]), { users: [] });
    assert.deepEqual(usersOf(results[1]), { tokens: [] });
    assert.equal(results[2]?.code, 0, results[2]?.stderr);
    assert.match(results[3]?.stdout ?? '', /^added bob\n$/);
    assert.match(oneLine(results[4]), /BOB is taken/);
    assert.notEqual(results[4]?.code, 0);
    assert.match(oneLine(results[5]), /not a user name/);
    assert.match(oneLine(results[6]), /at least 8 characters/);
    assert.match(oneLine(results[24]), /"no\/slashes" is not a user name/);
    assert.notEqual(results[24]?.code, 0);
    // exactly the fields the issue names
    assert.deepEqual(usersOf(results[7]), {
      users: [
        { name: 'ann', admin: true, subscriptions: 0 },
        { name: 'bob', admin: false, subscriptions: 0 },
      ],
    });
    assert.equal(results[8]?.code, 2);
    assert.match(oneLine(results[8]), /several users: say whose with --user NAME/);
    assert.equal(results[9]?.code, 0, results[9]?.stderr);
    assert.deepEqual(usersOf(results[10]), { tokens: [] });
    const bobs = usersOf(results[11]) as { tokens: { label: string }[] };
    assert.deepEqual(
      bobs.tokens.map((t) => t.label),
      ['phone'],
    );
    assert.match(oneLine(results[12]), /no token 1/);
    assert.match(oneLine(results[13]), /there is no user nobody/);
    assert.equal(results[14]?.stdout, 'renamed bob to robert\n');
    assert.equal(results[15]?.code, 0, results[15]?.stderr);
    assert.deepEqual(usersOf(results[16]), {
      users: [
        { name: 'ann', admin: true, subscriptions: 0 },
        { name: 'robert', admin: true, subscriptions: 0 },
      ],
    });
    assert.match(
      results[15]?.stdout ?? '',
      /^robert: admin, signs in to Microsub as https:\/\/robert\.example\/$/m,
    );
    assert.equal(results[17]?.code, 2);
    assert.match(oneLine(results[17]), /add --yes/);
    assert.equal(results[18]?.code, 0, results[18]?.stderr);
    assert.match(oneLine(results[19]), /last admin/);
    assert.match(oneLine(results[20]), /last admin/);
    assert.deepEqual(
      (usersOf(results[21]) as { users: { name: string }[] }).users.map((u) => u.name),
      ['ann'],
    );
    assert.deepEqual(usersOf(results[22]), { tokens: [] });
    assert.equal(results[23]?.stdout, 'name  role   subscriptions  me\nann   admin  0\n');

    // robert's token went with him
    const store = await openStore(`sqlite:${join(dir, 'people.db')}`);
    try {
      assert.equal(await store.accounts.findToken('x'), undefined);
      assert.deepEqual(
        (await store.users.list()).map((u) => u.name),
        ['ann'],
      );
    } finally {
      await store.close();
    }
  });

  it('makes the first user with the first password: `password` names them admin, `api-password` NAME', async () => {
    const results = await runAll([
      ...on('first-web', [
        { args: ['password'], input: PASSWORD },
        { args: ['user', 'list', '--json'] },
        // one user: an app name that is not theirs becomes the name their apps sign in with
        { args: ['api-password', '--user', 'reader'], input: PASSWORD },
        { args: ['user', 'list', '--json'] },
      ]),
      ...on('first-app', [
        { args: ['api-password', '--user', 'dana'], input: PASSWORD },
        { args: ['user', 'list', '--json'] },
        { args: ['user', 'add', 'eve'], input: PASSWORD },
        // several users: the app password is a user's, named exactly
        { args: ['api-password', '--user', 'frank'], input: PASSWORD },
        { args: ['api-password'], input: PASSWORD }, // 8: several users and no --user
      ]),
      ...on('first-app-bare', [
        { args: ['api-password'], input: PASSWORD }, // 9: a new instance: the first user, admin
        { args: ['api-password'], input: PASSWORD }, // 10: one user: --user may be left out
        { args: ['user', 'list', '--json'] }, // 11
      ]),
      ...on('app-names', [
        { args: ['user', 'add', 'ann', '--admin'], input: PASSWORD }, // 12
        { args: ['user', 'add', 'eve'], input: PASSWORD },
        // 14: NAME in another case is the user: the name the Fever key is made of is theirs as stored
        { args: ['api-password', '--user', 'EVE'], input: PASSWORD },
        // 15: a rename cannot carry the Fever key along: it says which name the apps keep
        { args: ['user', 'rename', 'eve', 'evelyn'] },
        { args: ['user', 'rename', 'ann', 'anna'] }, // 16: no app password, nothing to say
      ]),
    ]);
    assert.match(results[0]?.stdout ?? '', /password set for admin/);
    const names = (r: BatchResult | undefined) =>
      (usersOf(r) as { users: { name: string; admin: boolean }[] }).users.map((u) => `${u.name}:${u.admin}`);
    assert.deepEqual(names(results[1]), ['admin:true']);
    assert.match(results[2]?.stdout ?? '', /API password set for reader \(user admin\)/);
    assert.deepEqual(names(results[3]), ['admin:true']);
    assert.match(results[4]?.stdout ?? '', /API password set for dana;/);
    assert.deepEqual(names(results[5]), ['dana:true']);
    assert.equal(results[6]?.code, 0, results[6]?.stderr);
    assert.match(oneLine(results[7]), /there is no user frank/);
    assert.equal(results[8]?.code, 2);
    assert.match(oneLine(results[8]), /several users: say whose with --user NAME/);
    assert.match(results[9]?.stdout ?? '', /API password set for admin;/);
    assert.equal(results[10]?.code, 0, results[10]?.stderr);
    assert.match(results[10]?.stdout ?? '', /API password set for admin;/);
    assert.deepEqual(names(results[11]), ['admin:true']);
    assert.match(results[14]?.stdout ?? '', /^API password set for eve;/);
    assert.equal(
      results[15]?.stdout,
      'renamed eve to evelyn\ntheir apps still sign in as eve until their app password is set again (tidings api-password --user evelyn)\n',
    );
    assert.equal(results[16]?.stdout, 'renamed ann to anna\n');
  });
});
