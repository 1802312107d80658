import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig, parseInterval } from './config.js';

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

  it('reads TIDINGS_ADAPTIVE_MAX as a factor of at least 1, 4 by default', () => {
    assert.equal(loadConfig({}).adaptiveMax, 4);
    assert.equal(loadConfig({ TIDINGS_ADAPTIVE_MAX: '1' }).adaptiveMax, 1);
    assert.equal(loadConfig({ TIDINGS_ADAPTIVE_MAX: '2.5' }).adaptiveMax, 2.5);
    for (const bad of ['0.5', 'many', '-2'])
      assert.throws(() => loadConfig({ TIDINGS_ADAPTIVE_MAX: bad }), /TIDINGS_ADAPTIVE_MAX must be a number/);
  });

  it('looks for feed icons unless TIDINGS_FEED_ICONS says false', () => {
    assert.equal(loadConfig({}).feedIcons, undefined);
    assert.equal(loadConfig({ TIDINGS_FEED_ICONS: 'false' }).feedIcons, false);
    assert.equal(loadConfig({ TIDINGS_FEED_ICONS: 'true' }).feedIcons, true);
  });

  it('serves metrics only when TIDINGS_METRICS says true, with the token of TIDINGS_METRICS_TOKEN', () => {
    assert.equal(loadConfig({}).metrics, undefined);
    assert.equal(loadConfig({ TIDINGS_METRICS: 'false' }).metrics, undefined);
    assert.equal(loadConfig({ TIDINGS_METRICS: 'true' }).metrics, true);
    assert.equal(loadConfig({ TIDINGS_METRICS_TOKEN: '  ' }).metricsToken, undefined);
    assert.equal(loadConfig({ TIDINGS_METRICS_TOKEN: ' s3cret ' }).metricsToken, 's3cret');
  });

  it('reads the alert settings: TIDINGS_ALERT_AFTER, TIDINGS_BASE_URL, TIDINGS_SMTP_URL, TIDINGS_MAIL_FROM', () => {
    const none = loadConfig({});
    assert.equal(none.alertAfter, 3);
    assert.deepEqual([none.baseUrl, none.smtpUrl, none.mailFrom], [undefined, undefined, undefined]);
    const set = loadConfig({
      TIDINGS_ALERT_AFTER: '5',
      TIDINGS_BASE_URL: 'https://news.example.org/tidings/',
      TIDINGS_SMTP_URL: 'smtps://me:pw@mail.example.org:465',
      TIDINGS_MAIL_FROM: 'tidings@example.org',
    });
    assert.equal(set.alertAfter, 5);
    assert.equal(set.baseUrl, 'https://news.example.org/tidings');
    assert.equal(set.smtpUrl, 'smtps://me:pw@mail.example.org:465');
    assert.equal(set.mailFrom, 'tidings@example.org');
    assert.throws(() => loadConfig({ TIDINGS_ALERT_AFTER: '0' }), /TIDINGS_ALERT_AFTER must be a positive/);
    assert.throws(() => loadConfig({ TIDINGS_BASE_URL: 'news.example.org' }), /TIDINGS_BASE_URL must be/);
    // the password stays out of the message
    assert.throws(
      () => loadConfig({ TIDINGS_SMTP_URL: 'imap://me:secret@mail.example.org' }),
      (error: Error) =>
        /TIDINGS_SMTP_URL must look like/.test(error.message) && !error.message.includes('secret'),
    );
  });
});

describe('loadConfig parse limits', () => {
  it('reads the parse time limit and the entries per feed, and refuses what is not a positive integer', () => {
    const config = loadConfig({ TIDINGS_PARSE_TIMEOUT_MS: '5000', TIDINGS_MAX_ENTRIES_PER_FEED: '200' });
    assert.equal(config.parseTimeoutMs, 5000);
    assert.equal(config.maxEntriesPerFeed, 200);
    assert.equal(loadConfig({}).parseTimeoutMs, undefined);
    assert.throws(
      () => loadConfig({ TIDINGS_MAX_ENTRIES_PER_FEED: '-1' }),
      /TIDINGS_(PARSE_TIMEOUT_MS|MAX_ENTRIES_PER_FEED) must be a positive whole number/,
    );
  });
});

describe('parseInterval', () => {
  it('reads 5s, 10m, 2h, 1d and plain seconds', () => {
    assert.deepEqual(['5s', '10m', '2h', '1d', '90'].map(parseInterval), [5, 600, 7200, 86400, 90]);
    assert.throws(() => parseInterval('soon'), /cannot read the interval/);
  });
});

describe('loadConfig errors', () => {
  it('names the variable that cannot be read and what it takes', () => {
    assert.throws(
      () => loadConfig({ TIDINGS_POLL_INTERVAL: 'banana' }),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.variable === 'TIDINGS_POLL_INTERVAL' &&
        /TIDINGS_POLL_INTERVAL must be an interval such as 30s, 10m, 2h or 1d, not "banana"/.test(
          error.message,
        ),
    );
    assert.throws(
      () => loadConfig({ TIDINGS_FETCH_TIMEOUT_MS: '-5' }),
      /TIDINGS_FETCH_TIMEOUT_MS must be a positive/,
    );
    assert.throws(
      () => loadConfig({ TIDINGS_PARSE_WORKERS: 'two' }),
      /TIDINGS_PARSE_WORKERS must be a whole number/,
    );
    assert.throws(
      () => loadConfig({ TIDINGS_READ_THREADS: '-1' }),
      /TIDINGS_READ_THREADS must be a whole number/,
    );
    assert.equal(loadConfig({ TIDINGS_READ_THREADS: '0' }).readThreads, 0);
    assert.equal(loadConfig({}).readThreads, undefined);
  });

  it('refuses a yes-or-no variable that is neither, rather than read a typo as no', () => {
    for (const name of ['TIDINGS_METRICS', 'TIDINGS_ALLOW_PRIVATE_ADDRESSES', 'TIDINGS_FEED_ICONS'])
      assert.throws(
        () => loadConfig({ [name]: 'ture' }),
        (error: unknown) =>
          error instanceof ConfigError &&
          error.variable === name &&
          error.message.includes(`${name} must be true or false`) &&
          error.message.endsWith('not "ture"'),
      );
    assert.equal(loadConfig({ TIDINGS_ALLOW_PRIVATE_ADDRESSES: ' YES ' }).allowPrivateAddresses, true);
    assert.equal(loadConfig({ TIDINGS_ALLOW_PRIVATE_ADDRESSES: 'off' }).allowPrivateAddresses, false);
    assert.equal(loadConfig({ TIDINGS_FEED_ICONS: '0' }).feedIcons, false);
    assert.equal(loadConfig({ TIDINGS_FEED_ICONS: '' }).feedIcons, undefined);
  });

  it('refuses a From address that is none, or that would add a mail header', () => {
    assert.equal(
      loadConfig({ TIDINGS_MAIL_FROM: 'tidings <alerts@example.org>' }).mailFrom,
      'tidings <alerts@example.org>',
    );
    for (const value of [
      'not an address',
      'x@y.org\r\nBcc: z@z.org',
      'alerts@localhost',
      '<>',
      'a@b.org, c@d.org',
    ])
      assert.throws(
        () => loadConfig({ TIDINGS_MAIL_FROM: value }),
        /TIDINGS_MAIL_FROM must be an email address/,
        value,
      );
  });

  it('refuses a base URL with a user, a query or a fragment: callbacks and links are made under it', () => {
    for (const value of [
      'https://u:p@news.example.org',
      'https://news.example.org/?x=1',
      'https://news.example.org/#top',
    ])
      assert.throws(
        () => loadConfig({ TIDINGS_BASE_URL: value }),
        /TIDINGS_BASE_URL must be where tidings is reached/,
        value,
      );
  });
});
