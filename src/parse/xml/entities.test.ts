import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeReferences, type EntityUse, lookupEntity, withEntityTable } from './entities.js';

describe('entities', () => {
  it('resolves XML, HTML 4 and HTML entities', () => {
    assert.equal(lookupEntity('amp', undefined), '&');
    assert.equal(lookupEntity('rang', undefined), '\u232a');
    assert.equal(lookupEntity('eacute', undefined), 'é');
    assert.equal(lookupEntity('own', new Map([['own', 'x']])), 'x');
  });

  it('knows no entity named after an Object.prototype member', () => {
    for (const name of ['toString', 'constructor', 'hasOwnProperty', '__proto__', 'valueOf']) {
      assert.equal(lookupEntity(name, undefined), undefined, name);
      assert.equal(decodeReferences(`a &${name}; b`, undefined), `a &${name}; b`);
      const use: EntityUse = { undefinedNames: [], unknownNames: [], expandedChars: 0, overflowed: false };
      withEntityTable(undefined, use, (entities: Record<string, string | undefined>) =>
        assert.equal(entities[name], undefined, name),
      );
    }
  });

  it('resolves the five XML entities without counting them, and counts HTML ones', () => {
    const use: EntityUse = { undefinedNames: [], unknownNames: [], expandedChars: 0, overflowed: false };
    withEntityTable(undefined, use, (entities: Record<string, string | undefined>) => {
      assert.equal(entities['lt'], '<');
      assert.equal(entities['quot'], '"');
      assert.equal(use.undefinedNames.length, 0);
      assert.equal(entities['nbsp'], '\u00a0');
    });
    assert.deepEqual(use.undefinedNames, ['nbsp']);
    assert.equal(use.expandedChars, 1);
    assert.deepEqual(use.unknownNames, []);
  });

  it('records names that neither XML nor HTML define, and answers nothing for them', () => {
    const use: EntityUse = { undefinedNames: [], unknownNames: [], expandedChars: 0, overflowed: false };
    withEntityTable(undefined, use, (entities: Record<string, string | undefined>) => {
      assert.equal(entities['bogus'], undefined);
      assert.equal(entities['eacute'], '\u00e9');
    });
    assert.deepEqual(use.unknownNames, ['bogus']);
    assert.deepEqual(use.undefinedNames, ['eacute']);
  });

  it('lists each name once, and at most a hundred of them', () => {
    const use: EntityUse = { undefinedNames: [], unknownNames: [], expandedChars: 0, overflowed: false };
    withEntityTable(undefined, use, (entities: Record<string, string | undefined>) => {
      for (let i = 0; i < 1000; i++) {
        void entities['nbsp'];
        void entities[`bogus${i % 300}`];
      }
    });
    assert.deepEqual(use.undefinedNames, ['nbsp']);
    assert.equal(use.unknownNames.length, 100);
    assert.equal(use.unknownNames[99], 'bogus99');
  });

  it('answers for the document whose strict pass is running, and for no other', () => {
    const outer: EntityUse = { undefinedNames: [], unknownNames: [], expandedChars: 0, overflowed: false };
    const inner: EntityUse = { undefinedNames: [], unknownNames: [], expandedChars: 0, overflowed: false };
    let table: Record<string, string | undefined> = {};
    withEntityTable(new Map([['own', 'outer']]), outer, (entities: Record<string, string | undefined>) => {
      table = entities;
      withEntityTable(new Map([['own', 'inner']]), inner, () => assert.equal(entities['own'], 'inner'));
      assert.equal(entities['own'], 'outer');
      assert.equal(entities['eacute'], 'é');
    });
    assert.deepEqual(inner.undefinedNames, []);
    assert.deepEqual(outer.undefinedNames, ['eacute']);
    assert.equal(table['own'], undefined);
    assert.equal(table['lt'], '<');
  });
});
