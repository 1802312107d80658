import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { minutesAfterT0 as at, type StoreBackend, storeBackends } from '../../../test/helpers/temp-store.js';

function accountSuite(backend: StoreBackend) {
  after(() => backend.cleanup());

  it('creates tokens, finds them by hash, records use and revokes them', async () => {
    const store = await backend.open();
    const token = await store.accounts.createToken(
      { tokenHash: 'aa11', scope: 'read follow', label: 'Monocle' },
      at(0),
    );
    assert.deepEqual(token, {
      id: token.id,
      userId: 1,
      tokenHash: 'aa11',
      scope: 'read follow',
      label: 'Monocle',
      createdAt: at(0),
    });
    const bare = await store.accounts.createToken({ tokenHash: 'bb22', scope: 'read' }, at(1));
    assert.equal('label' in bare, false);
    assert.deepEqual(await store.accounts.findToken('aa11'), token);
    assert.equal(await store.accounts.findToken('cc33'), undefined);
    await store.accounts.touchToken(token.id, at(5));
    assert.equal((await store.accounts.findToken('aa11'))?.lastUsedAt, at(5));
    await store.accounts.revokeToken(token.id, at(6));
    await store.accounts.revokeToken(token.id, at(7));
    assert.equal(await store.accounts.findToken('aa11'), undefined);
    const listed = await store.accounts.listTokens();
    assert.deepEqual(
      listed.map((t) => [t.tokenHash, t.lastUsedAt, t.revokedAt]),
      [
        ['aa11', at(5), at(6)],
        ['bb22', undefined, undefined],
      ],
    );
  });

  it('refuses a second token with the same hash', async () => {
    const store = await backend.open();
    await store.accounts.createToken({ tokenHash: 'dd44', scope: 'read' }, at(0));
    await assert.rejects(store.accounts.createToken({ tokenHash: 'dd44', scope: 'read' }, at(1)));
  });

  it('sets, replaces and reads settings', async () => {
    const store = await backend.open();
    assert.equal(await store.accounts.getSetting('password_hash'), undefined);
    await store.accounts.setSetting('password_hash', 'scrypt$1');
    await store.accounts.setSetting('password_hash', 'scrypt$2');
    await store.accounts.setSetting('session_secret', '');
    assert.equal(await store.accounts.getSetting('password_hash'), 'scrypt$2');
    assert.equal(await store.accounts.getSetting('session_secret'), '');
  });

  it('keeps the first value of a setting created once, however many processes create it at once', async () => {
    const store = await backend.open();
    const peer = await backend.openPeer(store);
    assert.equal(await store.accounts.settingOnce('web.session_secret', 'first'), 'first');
    assert.equal(await peer.accounts.settingOnce('web.session_secret', 'second'), 'first');
    const both = await Promise.all([
      store.accounts.settingOnce('icon_secret', 'one'),
      peer.accounts.settingOnce('icon_secret', 'other'),
    ]);
    assert.equal(both[0], both[1]);
    assert.equal(await store.accounts.getSetting('icon_secret'), both[0]);
  });
}

for (const backend of storeBackends()) {
  if (backend.skip !== undefined) it(backend.name, { skip: backend.skip }, () => {});
  else describe(backend.name, () => accountSuite(backend));
}
