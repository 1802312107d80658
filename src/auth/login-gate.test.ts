import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LoginGate, type LoginOutcome } from './login-gate.js';
import { PasswordChecks } from './password-checks.js';
import { LoginLimiter, limitKey } from './rate-limit.js';

/** A password check that ends when the test says so, counting how many ran. */
function slowChecks(right: string) {
  const release: Array<() => void> = [];
  let ran = 0;
  const check = (secret: string) => async () => {
    ran++;
    await new Promise<void>((resolve) => release.push(resolve));
    return secret === right;
  };
  const finishAll = async () => {
    // each finished check lets a waiting one start: release until nothing is left
    for (let i = 0; i < 100; i++) {
      await new Promise((resolve) => setImmediate(resolve));
      const next = release.splice(0);
      if (next.length === 0 && i > 2) return;
      for (const r of next) r();
    }
  };
  return { check, finishAll, ran: () => ran };
}

const kinds = (outcomes: LoginOutcome[]) => outcomes.map((o) => o.kind);
const count = (outcomes: LoginOutcome[], kind: LoginOutcome['kind']) =>
  outcomes.filter((o) => o.kind === kind).length;

describe('login gate', () => {
  it('counts attempts before their check: a burst of wrong secrets plus the right one runs 5 checks', async () => {
    const gate = new LoginGate(new LoginLimiter(5, 60_000), new PasswordChecks(100, 100));
    const { check, finishAll, ran } = slowChecks('right');
    const secrets = [...Array.from({ length: 39 }, (_, i) => `wrong ${i}`), 'right'];
    const burst = Promise.all(secrets.map((s) => gate.attempt('10.0.0.1', 0, s, check(s))));
    await finishAll();
    const outcomes = await burst;
    assert.equal(ran(), 5);
    assert.equal(count(outcomes, 'refused'), 5);
    assert.equal(count(outcomes, 'wait'), 35);
    assert.equal(outcomes.at(-1)?.kind, 'wait', 'the right secret, sent last, is refused unchecked');
    // as after a sequence of five failures: the right secret is refused too
    assert.equal((await gate.attempt('10.0.0.1', 1000, 'right', check('right'))).kind, 'wait');
    assert.equal(ran(), 5);
  });

  it('lets a success clear the failures, keeping the attempts still being checked', async () => {
    const gate = new LoginGate(new LoginLimiter(3, 60_000), new PasswordChecks(100, 100));
    const { check, finishAll } = slowChecks('right');
    await gate.attempt('a', 0, 'w0', async () => false);
    await gate.attempt('a', 0, 'w1', async () => false);
    assert.equal((await gate.attempt('a', 0, 'right', async () => true)).kind, 'ok');
    const pending = gate.attempt('a', 0, 'w2', check('w2'));
    assert.equal(gate.retryAfterSeconds('a', 0), 0, 'one failure pending of three allowed');
    await finishAll();
    assert.equal((await pending).kind, 'refused');
    await gate.attempt('a', 0, 'w3', async () => false);
    assert.equal((await gate.attempt('a', 0, 'w4', async () => false)).kind, 'refused');
    assert.equal((await gate.attempt('a', 0, 'right', async () => true)).kind, 'wait');
  });

  it('checks the same secret sent in parallel once: all succeed, or each counts as a failure', async () => {
    const gate = new LoginGate(new LoginLimiter(5, 60_000), new PasswordChecks(100, 100));
    const right = slowChecks('key');
    const same = Promise.all(
      Array.from({ length: 12 }, () => gate.attempt('b', 0, 'key', right.check('key'))),
    );
    await right.finishAll();
    assert.deepEqual(kinds(await same), Array(12).fill('ok'));
    assert.equal(right.ran(), 1);
    const wrong = slowChecks('key');
    const repeated = Promise.all(
      Array.from({ length: 8 }, () => gate.attempt('c', 0, 'nope', wrong.check('nope'))),
    );
    await wrong.finishAll();
    const outcomes = await repeated;
    assert.equal(wrong.ran(), 1);
    assert.equal(count(outcomes, 'refused'), 5);
    assert.equal(count(outcomes, 'wait'), 3);
  });

  it('refuses fast when the checks are busy, and does not count what it did not check', async () => {
    const checks = new PasswordChecks(1, 2);
    const gate = new LoginGate(new LoginLimiter(5, 60_000), checks);
    const { check, finishAll, ran } = slowChecks('right');
    const clients = Array.from({ length: 10 }, (_, i) => `10.0.1.${i}`);
    const burst = Promise.all(clients.map((client, i) => gate.attempt(client, 0, `w${i}`, check(`w${i}`))));
    await new Promise((resolve) => setImmediate(resolve));
    await finishAll();
    const outcomes = await burst;
    assert.equal(ran(), 3);
    assert.equal(count(outcomes, 'busy'), 7);
    assert.ok(outcomes.every((o) => o.kind !== 'busy' || o.seconds > 0));
    // the busy clients were not counted: each has five attempts left
    const late = clients.at(-1) as string;
    for (let i = 0; i < 5; i++)
      assert.equal((await gate.attempt(late, 0, `x${i}`, async () => false)).kind, 'refused');
  });

  it('runs the check of a client that signed in before ahead of the waiting ones', async () => {
    const checks = new PasswordChecks(1, 3);
    const gate = new LoginGate(new LoginLimiter(5, 60_000), checks);
    assert.equal((await gate.attempt('owner', 0, 'right', async () => true)).kind, 'ok');
    const order: string[] = [];
    const { check, finishAll } = slowChecks('right');
    const logged = (who: string, secret: string) => async () => {
      order.push(who);
      return check(secret)();
    };
    const others = ['x1', 'x2', 'x3', 'x4', 'x5'].map((who) => gate.attempt(who, 1, 'w', logged(who, 'w')));
    const owner = gate.attempt('owner', 1, 'right', logged('owner', 'right'));
    await finishAll();
    assert.equal((await owner).kind, 'ok');
    assert.deepEqual(order.slice(0, 2), ['x1', 'owner']);
    assert.deepEqual(kinds(await Promise.all(others)), ['refused', 'refused', 'refused', 'refused', 'busy']);
  });

  it('tells whose secret it was (attemptAs), to every attempt that shared one check', async () => {
    const gate = new LoginGate(new LoginLimiter(5, 60_000), new PasswordChecks(100, 100));
    let ran = 0;
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const whose = async () => {
      ran++;
      await held;
      return 7;
    };
    const both = Promise.all([gate.attemptAs('a', 0, 'key', whose), gate.attemptAs('a', 0, 'key', whose)]);
    release();
    assert.deepEqual(await both, [
      { kind: 'ok', value: 7 },
      { kind: 'ok', value: 7 },
    ]);
    assert.equal(ran, 1);
    // a check that finds nobody is a refusal, even when what it returns is falsy otherwise
    assert.equal((await gate.attemptAs('a', 0, 'other', async () => undefined)).kind, 'refused');
    assert.deepEqual(await gate.attemptAs('a', 0, 'zero', async () => 0), { kind: 'ok', value: 0 });
  });

  it('limits an IPv6 client by its /64 and a mapped IPv4 address as IPv4', () => {
    assert.equal(limitKey('2001:db8:1:2:aaaa::1'), limitKey('2001:db8:1:2:bbbb::9'));
    assert.notEqual(limitKey('2001:db8:1:2::1'), limitKey('2001:db8:1:3::1'));
    assert.equal(limitKey('::ffff:10.0.0.1'), '10.0.0.1');
    assert.equal(limitKey('unknown'), 'unknown');
    const limiter = new LoginLimiter(2, 60_000);
    limiter.recordFailure('2001:db8::1', 0);
    limiter.recordFailure('2001:db8::2', 0);
    assert.ok(limiter.retryAfterSeconds('2001:db8::3', 0) > 0);
  });
});
