import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { ParsePool } from './parse-pool.js';
import { prepareDocument } from './prepare.js';

const DOC = new TextEncoder().encode(
  '<rss version="2.0"><channel><title>T</title><item><guid>1</guid><title>One</title><description>&lt;p&gt;Hi &amp;amp; bye&lt;/p&gt;</description></item></channel></rss>',
);
const JOB = {
  body: DOC,
  options: { baseUrl: 'https://example.com/feed' },
  now: '2026-01-01T00:00:00.000Z',
  arrival: false,
};

describe('ParsePool', () => {
  const pool = new ParsePool(2);
  after(() => pool.close());

  it('prepares documents in worker threads exactly as in this thread', async () => {
    const results = await Promise.all([pool.prepare(JOB), pool.prepare(JOB), pool.prepare(JOB)]);
    for (const result of results) assert.deepEqual(result, prepareDocument(JOB));
    assert.equal(results[0]?.items[0]?.entry.contentHtml, '<p>Hi &amp; bye</p>');
  });

  it('starts its threads with the first document or when warmed up, once', async () => {
    const lazy = new ParsePool(2);
    assert.equal(lazy.threadCount, 0);
    lazy.warmUp();
    lazy.warmUp();
    assert.equal(lazy.threadCount, 2);
    await lazy.close();
    const onDemand = new ParsePool(1);
    await onDemand.prepare(JOB);
    assert.equal(onDemand.threadCount, 1);
    await onDemand.close();
  });

  it('refuses work once closed', async () => {
    const closing = new ParsePool(1);
    await closing.close();
    await assert.rejects(closing.prepare(JOB), /closed/);
  });
});
