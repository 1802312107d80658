import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StoreError } from './store-error.js';
import { toIso } from './values.js';

describe('toIso', () => {
  it('writes any timestamp as toISOString does', () => {
    assert.equal(toIso('2024-03-01T13:00:00+01:00', 'at'), '2024-03-01T12:00:00.000Z');
    assert.equal(toIso('2024-03-01T12:00:00Z', 'at'), '2024-03-01T12:00:00.000Z');
    assert.equal(toIso('2024-03-01T12:00:00.000Z', 'at'), '2024-03-01T12:00:00.000Z');
  });

  it('gives the same answer as Date for every day and hour written as toISOString or the parser writes them, invalid ones included', () => {
    for (const month of ['01', '02', '04', '12', '13']) {
      for (let day = 0; day <= 32; day++) {
        for (const hour of ['00', '23', '24']) {
          for (const fraction of ['.999', '']) {
            const value = `2023-${month}-${String(day).padStart(2, '0')}T${hour}:59:59${fraction}Z`;
            const time = new Date(value);
            if (Number.isNaN(time.getTime())) assert.throws(() => toIso(value, 'at'), StoreError, value);
            else assert.equal(toIso(value, 'at'), time.toISOString(), value);
          }
        }
      }
    }
  });

  it('refuses what is no timestamp, naming the field', () => {
    assert.throws(() => toIso('yesterday', 'published'), /published is not a timestamp: yesterday/);
  });
});
