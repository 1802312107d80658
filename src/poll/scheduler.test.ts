import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  isSilent,
  learnCadence,
  nextCheckAt,
  nextIntervalSeconds,
  planNextCheck,
  syndicationSeconds,
} from './scheduler.js';

const now = new Date('2026-01-01T00:00:00Z');
const base = { now, baseIntervalSeconds: 3600, errorCount: 0 };

describe('nextIntervalSeconds', () => {
  it('waits the regular interval after a success', () => {
    assert.equal(nextIntervalSeconds({ ...base, status: 'ok' }), 3600);
    assert.equal(nextIntervalSeconds({ ...base, status: 'not_modified' }), 3600);
  });

  it('backs off exponentially on errors and caps at a day', () => {
    const seconds = [1, 2, 3, 4, 5, 6, 7].map((errorCount) =>
      nextIntervalSeconds({ ...base, status: 'fetch_error', errorCount }),
    );
    assert.deepEqual(seconds, [3600, 7200, 14400, 28800, 57600, 86400, 86400]);
  });

  it('honours what the feed asks (ttl, max-age) up to 4x the interval by default', () => {
    assert.equal(nextIntervalSeconds({ ...base, status: 'ok', hintSeconds: 7200 }), 7200);
    assert.equal(nextIntervalSeconds({ ...base, status: 'ok', hintSeconds: 60 }), 3600);
    assert.equal(nextIntervalSeconds({ ...base, status: 'ok', hintSeconds: 30 * 86400 }), 4 * 3600);
  });

  it('stretches the interval for feeds that publish rarely, up to 4x the interval by default', () => {
    assert.equal(nextIntervalSeconds({ ...base, status: 'ok', cadenceSeconds: 7 * 86400 }), 4 * 3600);
    assert.equal(nextIntervalSeconds({ ...base, status: 'ok', cadenceSeconds: 8 * 3600 }), 7200);
    assert.equal(nextIntervalSeconds({ ...base, status: 'ok', cadenceSeconds: 600 }), 3600);
  });

  it('keeps a 5 s interval for a weekly feed within the bound, and exactly with a bound of 1', () => {
    const weekly = { ...base, status: 'ok' as const, baseIntervalSeconds: 5, cadenceSeconds: 7 * 86400 };
    assert.equal(nextIntervalSeconds(weekly), 20);
    assert.equal(nextIntervalSeconds({ ...weekly, adaptiveMax: 1 }), 5);
    assert.equal(nextIntervalSeconds({ ...weekly, hintSeconds: 86400, adaptiveMax: 1 }), 5);
    assert.equal(nextIntervalSeconds({ ...weekly, adaptiveMax: 10 }), 50);
  });

  it('never stretches beyond a day, whatever the bound', () => {
    const weekly = { ...base, status: 'ok' as const, cadenceSeconds: 28 * 86400, adaptiveMax: 100 };
    assert.equal(nextIntervalSeconds(weekly), 86400);
  });
});

describe('planNextCheck', () => {
  it('says why: interval, hint, cadence, backoff, retry-after, gone', () => {
    const reason = (input: Partial<Parameters<typeof planNextCheck>[0]>) =>
      planNextCheck({ ...base, status: 'ok', ...input }).reason;
    assert.equal(reason({}), 'interval');
    assert.equal(reason({ cadenceSeconds: 600 }), 'interval');
    assert.equal(reason({ hintSeconds: 7200 }), 'hint');
    assert.equal(reason({ cadenceSeconds: 7 * 86400 }), 'cadence');
    assert.equal(reason({ cadenceSeconds: 7 * 86400, hintSeconds: 7200 }), 'cadence');
    assert.equal(reason({ cadenceSeconds: 7 * 86400, hintSeconds: 86400 }), 'hint');
    assert.equal(reason({ cadenceSeconds: 7 * 86400, adaptiveMax: 1 }), 'interval');
    assert.equal(reason({ status: 'fetch_error', errorCount: 3 }), 'backoff');
    assert.equal(reason({ status: 'fetch_error', errorCount: 1, retryAfterSeconds: 7200 }), 'retry-after');
    assert.equal(reason({ status: 'fetch_error', errorCount: 3, retryAfterSeconds: 60 }), 'backoff');
    assert.equal(reason({ status: 'gone' }), 'gone');
  });
});

describe('nextCheckAt', () => {
  it('does not schedule a gone feed', () => {
    assert.equal(nextCheckAt({ ...base, status: 'gone' }), undefined);
  });

  it('honours a Retry-After longer than the interval', () => {
    const at = nextCheckAt({ ...base, status: 'fetch_error', errorCount: 1, retryAfterSeconds: 7200 });
    assert.equal(at?.toISOString(), '2026-01-01T02:00:00.000Z');
  });
});

describe('learnCadence', () => {
  it('learns the mean gap between entries and then moves towards new gaps', () => {
    const day = 86400_000;
    const first = learnCadence(undefined, [0, day, 2 * day, 3 * day]);
    assert.equal(first, 86400);
    assert.equal(learnCadence(first, [0, 2 * day]), Math.round(86400 * 0.7 + 2 * 86400 * 0.3));
    assert.equal(learnCadence(first, [5]), first);
  });
});

describe('isSilent', () => {
  it('flags a feed quiet for four cadences and at least two days', () => {
    assert.equal(isSilent('2025-12-25T00:00:00Z', 86400, now), true);
    assert.equal(isSilent('2025-12-30T00:00:00Z', 3600, now), false);
    assert.equal(isSilent(undefined, 3600, now), false);
  });
});

describe('syndicationSeconds', () => {
  it('divides the update period by the frequency', () => {
    assert.equal(syndicationSeconds('hourly', 2), 1800);
    assert.equal(syndicationSeconds('Daily', undefined), 86400);
    assert.equal(syndicationSeconds('fortnightly', 1), undefined);
  });
});
