import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatDate, relativeTime } from './format.js';

describe('dates on reader pages', () => {
  it('writes a date as day, short month and year, in UTC', () => {
    assert.equal(formatDate('2026-03-12T14:05:00Z'), '12 Mar 2026');
    assert.equal(formatDate('2026-09-05T23:59:59.999Z'), '5 Sep 2026');
    // still the 31st in UTC, whatever the server's time zone
    assert.equal(formatDate('2025-12-31T23:30:00-00:00'), '31 Dec 2025');
    assert.equal(formatDate('not a date'), 'not a date');
  });

  it('says how long ago within a month, and the date before that', () => {
    const now = new Date('2026-03-12T12:00:00Z');
    assert.equal(relativeTime('2026-03-12T11:59:30Z', now), 'just now');
    assert.equal(relativeTime('2026-03-12T11:55:00Z', now), '5 min ago');
    assert.equal(relativeTime('2026-03-12T15:00:00Z', now), 'in 3 h');
    assert.equal(relativeTime('2026-01-02T08:00:00Z', now), '2 Jan 2026');
    assert.equal(relativeTime(undefined, now), 'never');
  });
});
