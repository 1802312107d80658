import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { entryDate } from './entry-date.js';

describe('entryDate', () => {
  it('takes published, else updated, else first seen', () => {
    const all = { published: 'P', updated: 'U', firstSeenAt: 'F' };
    assert.equal(entryDate(all), 'P');
    assert.equal(entryDate({ updated: 'U', firstSeenAt: 'F' }), 'U');
    assert.equal(entryDate({ firstSeenAt: 'F' }), 'F');
    assert.equal(entryDate({}), undefined);
  });
});
