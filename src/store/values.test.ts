import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StoreError } from './store-error.js';
import { binaryChunks, toIso } from './values.js';

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

describe('binaryChunks', () => {
  it('cuts items into chunks of powers of two, the largest first, keeping their order', () => {
    const items = Array.from({ length: 425 }, (_, i) => i);
    const chunks = binaryChunks(items, 256);
    assert.deepEqual(
      chunks.map((part) => part.length),
      [256, 128, 32, 8, 1],
    );
    assert.deepEqual(chunks.flat(), items);
    assert.deepEqual(
      binaryChunks(items, 500).map((part) => part.length),
      [256, 128, 32, 8, 1],
    );
    assert.deepEqual(binaryChunks([], 256), []);
    assert.deepEqual(
      binaryChunks([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 4).map((part) => part.length),
      [4, 4, 2],
    );
  });
});
