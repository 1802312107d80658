import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRelayMessage } from '../relay-message.js';
import { encode, IDS_PER_NOTIFICATION } from './notify.js';

describe('event relay payloads', () => {
  it('splits many entry ids into payloads NOTIFY accepts (under 8,000 bytes)', () => {
    const entryIds = Array.from({ length: 1000 }, (_, i) => 900_000_000_000_000 + i);
    const payloads = encode({ kind: 'entries', feedId: 7, entryIds }, 'tidings_test_abcdef012345');
    assert.equal(payloads.length, Math.ceil(1000 / IDS_PER_NOTIFICATION));
    for (const payload of payloads) assert.ok(Buffer.byteLength(payload) < 8000, `${payload.length} bytes`);
    const back = payloads.flatMap((p) => {
      const m = parseRelayMessage(JSON.parse(p));
      return m?.kind === 'entries' ? m.entryIds : [];
    });
    assert.deepEqual(back, entryIds);
  });

  it('reads back only well-formed messages', () => {
    assert.deepEqual(parseRelayMessage({ kind: 'channel', channelId: 3 }), { kind: 'channel', channelId: 3 });
    assert.equal(parseRelayMessage({ kind: 'channel', channelId: '3' }), undefined);
    assert.equal(parseRelayMessage({ kind: 'entries', feedId: 1, entryIds: [1, 'x'] }), undefined);
    assert.equal(parseRelayMessage(null), undefined);
  });
});
