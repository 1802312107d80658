import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { longItemId, parseItemId, parseStreamId } from './ids.js';

describe('greader ids', () => {
  it('writes the long form with 16 zero-padded hex digits', () => {
    assert.equal(longItemId(255), 'tag:google.com,2005:reader/item/00000000000000ff');
  });

  it('reads every form the apps send as the same number', () => {
    for (const form of [
      'tag:google.com,2005:reader/item/00000000000000ff',
      'tag:google.com,2005:reader/item/FF',
      '255',
      ' 255\n',
      '00000000000000ff',
    ])
      assert.equal(parseItemId(form), 255, form);
  });

  it('reads a negative decimal as the same 64 bits, and refuses what no entry can be', () => {
    assert.equal(parseItemId('-1'), undefined); // 2^64 - 1 is beyond any entry id
    assert.equal(parseItemId('0'), undefined);
    assert.equal(parseItemId('abc'), undefined);
    assert.equal(parseItemId('tag:google.com,2005:reader/item/zz'), undefined);
  });

  it('reads stream ids with any user part, feed ids and feed URLs', () => {
    assert.deepEqual(parseStreamId('user/-/state/com.google/read'), { kind: 'state', state: 'read' });
    assert.deepEqual(parseStreamId('user/1234/state/com.google/starred'), {
      kind: 'state',
      state: 'starred',
    });
    assert.deepEqual(parseStreamId('user/-/label/Tech news'), { kind: 'label', name: 'Tech news' });
    assert.deepEqual(parseStreamId('feed/12'), { kind: 'feed', id: 12 });
    assert.deepEqual(parseStreamId('feed/https://example.org/feed'), {
      kind: 'feed',
      url: 'https://example.org/feed',
    });
    assert.deepEqual(parseStreamId('splice/x'), { kind: 'unknown' });
  });
});
