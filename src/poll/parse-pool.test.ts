import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { ParsePool, ParseTimeoutError } from './parse-pool.js';
import { prepareDocument } from './prepare.js';

const DOC = new TextEncoder().encode(
  '<rss version="2.0"><channel><title>T</title><item><guid>1</guid><title>One</title><description>&lt;p&gt;Hi &amp;amp; bye&lt;/p&gt;</description></item></channel></rss>',
);
/** A job on a copy of DOC: the pool may take a body over. */
const job = (body: Uint8Array = DOC.slice()) => ({
  body,
  options: { baseUrl: 'https://example.com/feed' },
  now: '2026-01-01T00:00:00.000Z',
  arrival: false,
});

describe('ParsePool', () => {
  const pool = new ParsePool(2);
  after(() => pool.close());

  it('prepares documents in worker threads exactly as in this thread', async () => {
    const results = await Promise.all([pool.prepare(job()), pool.prepare(job()), pool.prepare(job())]);
    for (const result of results) assert.deepEqual(result, prepareDocument(job()));
    assert.equal(results[0]?.items[0]?.entry.contentHtml, '<p>Hi &amp; bye</p>');
    assert.equal(results[0]?.bodyHash, createHash('sha256').update(DOC).digest('hex'));
  });

  it('takes over a body with a buffer of its own, and copies one that shares its buffer', async () => {
    const own = DOC.slice();
    await pool.prepare(job(own));
    assert.equal(own.byteLength, 0);
    const shared = new Uint8Array(DOC.byteLength + 16);
    shared.set(DOC, 8);
    const view = shared.subarray(8, 8 + DOC.byteLength);
    const result = await pool.prepare(job(view));
    assert.equal(result.items.length, 1);
    assert.equal(shared.byteLength, DOC.byteLength + 16);
    assert.deepEqual(view, DOC);
  });

  it('starts its threads with the first document or when warmed up, once', async () => {
    const lazy = new ParsePool(2);
    assert.equal(lazy.threadCount, 0);
    lazy.warmUp();
    lazy.warmUp();
    assert.equal(lazy.threadCount, 2);
    await lazy.close();
    const onDemand = new ParsePool(1);
    await onDemand.prepare(job());
    assert.equal(onDemand.threadCount, 1);
    await onDemand.close();
  });

  it('refuses work once closed', async () => {
    const closing = new ParsePool(1);
    await closing.close();
    await assert.rejects(closing.prepare(job()), /closed/);
  });

  it('stops a document that takes longer than the time limit, replaces its worker and goes on', async () => {
    // 1 ms: no worker even starts that fast, so the first document always runs out of time
    const slow = new ParsePool(1, 1);
    await assert.rejects(slow.prepare(job()), (err: unknown) => {
      assert.ok(err instanceof ParseTimeoutError);
      assert.equal(err.message, 'parse: the document took longer than 1 ms to parse; parsing was stopped');
      return true;
    });
    assert.equal(slow.threadCount, 1);
    slow.timeoutMs = 60_000;
    const result = await slow.prepare(job());
    assert.equal(result.items.length, 1);
    await slow.close();
  });

  it('runs one document at a time per worker: the time limit blames only the one running', async () => {
    const one = new ParsePool(1);
    const results = await Promise.all([1, 2, 3, 4].map(() => one.prepare(job())));
    assert.equal(results.length, 4);
    await one.close();
  });
});
