import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { send, startServer, type TestServer } from '../../test/helpers/http-server.js';
import { testClock } from '../../test/helpers/poll-harness.js';
import { type StoreBackend, storeBackends } from '../../test/helpers/temp-store.js';
import { testSender } from '../../test/helpers/test-sender.js';
import type { Store } from '../store/index.js';
import { sendTest } from './sender.js';

function senderSuite(backend: StoreBackend) {
  let receiver: TestServer;
  /** What the receiver answers next: a status per request, 204 once they run out. */
  const answers: number[] = [];
  before(async () => {
    receiver = await startServer({ 'POST /hook': (_req, res) => send(res, answers.shift() ?? 204) });
  });
  after(async () => {
    await receiver.close();
    await backend.cleanup();
  });

  const sender = (store: Store, clock: ReturnType<typeof testClock>, workerId = 'sender-a') =>
    testSender(store, clock, workerId);

  /** The payloads the receiver took, each once per request. */
  function received(from: number): string[] {
    return receiver.requests.slice(from).map((request) => request.body.toString('utf8'));
  }

  it('sends what is due and marks it sent; nothing twice', async () => {
    const store = await backend.open();
    const clock = testClock();
    const hook = await store.notify.add(
      { kind: 'webhook', target: `${receiver.url}/hook` },
      clock.now().toISOString(),
    );
    const payloads = ['{"type":"test","n":1}', '{"type":"test","n":2}'];
    await store.notify.enqueue(
      payloads.map((payload) => ({ destinationId: hook.id, eventType: 'test', payload })),
      clock.now().toISOString(),
    );
    const from = receiver.requests.length;
    assert.deepEqual(await sender(store, clock).sendDue(), { sent: 2, failed: 0 });
    assert.deepEqual(await sender(store, clock).sendDue(), { sent: 0, failed: 0 });
    assert.deepEqual(received(from).sort(), payloads);
    assert.deepEqual(await store.notify.counts(hook.id), { pending: 0, sent: 2, failed: 0 });
    assert.equal((await store.notify.get(hook.id))?.lastOkAt, clock.now().toISOString());
  });

  it('retries a refused message after 10 s, then after a minute, and shows the destination failing meanwhile', async () => {
    const store = await backend.open();
    const clock = testClock();
    const start = clock.now().toISOString();
    const hook = await store.notify.add({ kind: 'webhook', target: `${receiver.url}/hook` }, start);
    await store.notify.enqueue(
      [{ destinationId: hook.id, eventType: 'test', payload: '{"type":"test"}' }],
      start,
    );
    const from = receiver.requests.length;
    answers.push(503, 500);
    const out = sender(store, clock);
    assert.deepEqual(await out.sendDue(), { sent: 0, failed: 1 });
    let destination = await store.notify.get(hook.id);
    assert.equal(destination?.failingSince, start);
    assert.match(destination?.lastError ?? '', /^webhook: 127\.0\.0\.1:\d+ answered HTTP 503/);
    const [row] = await store.notify.messages(hook.id);
    assert.equal(row?.nextAttemptAt, new Date(clock.now().getTime() + 10_000).toISOString());
    clock.advance(9_000);
    assert.deepEqual(await out.sendDue(), { sent: 0, failed: 0 });
    clock.advance(1_000);
    assert.deepEqual(await out.sendDue(), { sent: 0, failed: 1 });
    clock.advance(59_000);
    assert.deepEqual(await out.sendDue(), { sent: 0, failed: 0 });
    clock.advance(1_000);
    assert.deepEqual(await out.sendDue(), { sent: 1, failed: 0 });
    assert.equal(received(from).length, 3);
    destination = await store.notify.get(hook.id);
    assert.equal(destination?.failingSince, undefined);
    assert.equal(destination?.lastOkAt, clock.now().toISOString());
    assert.equal((await store.notify.messages(hook.id))[0]?.attempts, 3);
  });

  it('gives a message up a day after it was queued, and keeps it marked failed', async () => {
    const store = await backend.open();
    const clock = testClock();
    const hook = await store.notify.add(
      { kind: 'webhook', target: `${receiver.url}/hook` },
      clock.now().toISOString(),
    );
    await store.notify.enqueue(
      [{ destinationId: hook.id, eventType: 'test', payload: '{"type":"test"}' }],
      clock.now().toISOString(),
    );
    const out = sender(store, clock);
    let attempts = 0;
    // every answer a refusal: the sender follows the backoff until it gives up
    for (let hours = 0; hours <= 26; hours += 0.5) {
      answers.push(503);
      attempts += (await out.sendDue()).failed;
      answers.length = 0;
      clock.advance(30 * 60_000);
    }
    const [row] = await store.notify.messages(hook.id);
    assert.ok(row?.failedAt !== undefined);
    assert.equal(row?.nextAttemptAt, undefined);
    assert.equal(row?.attempts, attempts);
    assert.ok(attempts >= 8 && attempts <= 12, `${attempts} attempts`);
    assert.ok(Date.parse(row.failedAt) - Date.parse(row.createdAt) <= 24 * 3600_000);
  });

  it('sends each message once with two senders of two processes at work together', async () => {
    const store = await backend.open();
    const peer = await backend.openPeer(store);
    const clock = testClock();
    const hook = await store.notify.add(
      { kind: 'webhook', target: `${receiver.url}/hook` },
      clock.now().toISOString(),
    );
    const payloads = Array.from({ length: 30 }, (_, n) => `{"type":"test","n":${n}}`);
    await store.notify.enqueue(
      payloads.map((payload) => ({ destinationId: hook.id, eventType: 'test', payload })),
      clock.now().toISOString(),
    );
    const from = receiver.requests.length;
    const results = await Promise.all([
      sender(store, clock, 'sender-a').sendDue(),
      sender(peer, clock, 'sender-b').sendDue(),
    ]);
    assert.equal(results[0].sent + results[1].sent, 30);
    assert.deepEqual(received(from).sort(), [...payloads].sort());
  });

  it('sends a test message at once and records the answer', async () => {
    const store = await backend.open();
    const clock = testClock();
    const hook = await store.notify.add(
      { kind: 'webhook', target: `${receiver.url}/hook` },
      clock.now().toISOString(),
    );
    const context = sender(store, clock).context;
    assert.deepEqual(await sendTest(store, hook, context, clock.now()), {
      delivered: { answer: 'HTTP 204' },
    });
    answers.push(500);
    const failed = await sendTest(store, hook, context, clock.now());
    assert.match(failed.error ?? '', /answered HTTP 500/);
    assert.equal((await store.notify.get(hook.id))?.failingSince, clock.now().toISOString());
    const test = JSON.parse(receiver.requests.at(-1)?.body.toString('utf8') ?? '{}') as { type?: string };
    assert.equal(test.type, 'test');
  });
}

for (const backend of storeBackends()) {
  if (backend.skip !== undefined) it(backend.name, { skip: backend.skip }, () => {});
  else describe(backend.name, () => senderSuite(backend));
}
