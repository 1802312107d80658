import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig, parseInterval } from './config.js';

describe('loadConfig', () => {
  it('uses the documented defaults', () => {
    const config = loadConfig({});
    assert.equal(config.databaseUrl, 'sqlite:./data/tidings.db');
    assert.equal(config.pollIntervalSeconds, 3600);
    assert.equal(config.allowPrivateAddresses, false);
    assert.deepEqual([config.concurrency, config.perHostConcurrency, config.timeoutMs], [32, 2, 30_000]);
    assert.equal(config.maxBodyBytes, 20 * 1024 * 1024);
  });

  it('reads the environment, and --database wins over it', () => {
    const env = {
      TIDINGS_DATABASE_URL: 'postgres://x/y',
      TIDINGS_POLL_INTERVAL: '5s',
      TIDINGS_ALLOW_PRIVATE_ADDRESSES: 'true',
    };
    assert.equal(loadConfig(env).databaseUrl, 'postgres://x/y');
    assert.equal(loadConfig(env).pollIntervalSeconds, 5);
    assert.equal(loadConfig(env).allowPrivateAddresses, true);
    assert.equal(loadConfig(env, { databaseUrl: 'sqlite::memory:' }).databaseUrl, 'sqlite::memory:');
  });
});

describe('loadConfig parse limits', () => {
  it('reads the parse time limit and the entries per feed, and refuses what is not a positive integer', () => {
    const config = loadConfig({ TIDINGS_PARSE_TIMEOUT_MS: '5000', TIDINGS_MAX_ENTRIES_PER_FEED: '200' });
    assert.equal(config.parseTimeoutMs, 5000);
    assert.equal(config.maxEntriesPerFeed, 200);
    assert.equal(loadConfig({}).parseTimeoutMs, undefined);
    assert.throws(() => loadConfig({ TIDINGS_MAX_ENTRIES_PER_FEED: '-1' }), /expected a positive integer/);
  });
});

describe('parseInterval', () => {
  it('reads 5s, 10m, 2h, 1d and plain seconds', () => {
    assert.deepEqual(['5s', '10m', '2h', '1d', '90'].map(parseInterval), [5, 600, 7200, 86400, 90]);
    assert.throws(() => parseInterval('soon'), /cannot read the interval/);
  });
});
