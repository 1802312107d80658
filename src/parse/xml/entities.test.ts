import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cpuMs } from '../../../test/helpers/cpu-time.js';
import { parseFeed } from '../index.js';
import {
  decodeReferences,
  type EntityUse,
  lookupEntity,
  MAX_EXPANDED_CHARS,
  withEntityTable,
} from './entities.js';

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

describe('entity expansion limits', () => {
  // what the entity layer builds, read through the title: the field cap (issue 22) is tested elsewhere
  const uncapped = { maxTitleBytes: Number.MAX_SAFE_INTEGER, maxContentBytes: Number.MAX_SAFE_INTEGER };
  const feed = (dtd: string, title: string, tail = '') =>
    `<!DOCTYPE rss [${dtd}]><rss version="2.0"><channel><item><title>${title}</title></item>${tail}</channel></rss>`;

  it('expands each DTD entity once: twenty references per level, six levels deep, in milliseconds', () => {
    // 20^6 expansions of empty strings when each reference was expanded anew (a 700-byte document)
    let dtd = '<!ENTITY e0 "">';
    for (let i = 1; i <= 6; i++) dtd += `<!ENTITY e${i} "${`&e${i - 1};`.repeat(20)}">`;
    const start = performance.now();
    const result = parseFeed(feed(dtd, 'a&e6;b'));
    assert.ok(performance.now() - start < 1_000, `${performance.now() - start} ms`);
    assert.equal(result.entries[0]?.title, 'ab');
  });

  it('refuses a billion laughs in the DTD, and entities nested deeper than the limit', () => {
    let dtd = '<!ENTITY lol0 "lol">';
    for (let i = 1; i <= 9; i++) dtd += `<!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`;
    let chain = '<!ENTITY c0 "c">';
    for (let i = 1; i <= 9; i++) chain += `<!ENTITY c${i} "&c${i - 1};">`;
    const result = parseFeed(feed(dtd + chain, '&lol9;'.repeat(10_000) + '&c8;&c9;'));
    assert.equal(result.entries[0]?.title, 'c');
    const refused = result.diagnostics.filter((d) => d.code === 'xml.entity-expansion').map((d) => d.message);
    assert.ok(refused.some((m) => m.includes('"lol4"')));
    assert.ok(refused.some((m) => m.includes('"c9"')));
    assert.ok(!refused.some((m) => m.includes('"c8"')));
  });

  it('builds no entity longer than the limit, however many references its text holds', () => {
    const dtd = `<!ENTITY a "${'x'.repeat(5_000)}"><!ENTITY b "${'&a;'.repeat(100_000)}">`;
    const result = parseFeed(feed(dtd, '&b;'));
    assert.equal(result.entries[0]?.title ?? '', '');
    assert.ok(result.diagnostics.some((d) => d.message.includes('entity "b" expands beyond')));
  });

  for (const broken of [false, true]) {
    it(`caps what a million references may add to a ${broken ? 'broken' : 'well-formed'} document`, () => {
      // a million references to 10,000 characters: 10 GB unbounded; the tolerant pass threw RangeError
      const dtd = `<!ENTITY e "${'x'.repeat(10_000)}">`;
      const result = parseFeed(feed(dtd, '&e;'.repeat(1_000_000), broken ? '<x>' : ''), uncapped);
      assert.equal(result.entries[0]?.title?.length, MAX_EXPANDED_CHARS);
      assert.ok(result.diagnostics.some((d) => d.code === 'xml.entity-expansion'));
      assert.equal(result.bozo, true);
    });
  }

  it('decodes millions of plain references in time linear with the document', () => {
    const timeOf = (n: number, tail: string) => {
      const doc = feed('', `${'&amp;&lt;&#38;&nbsp;'.repeat(n)}x`, tail);
      const start = cpuMs(); // CPU time: other test files running beside this one do not count
      const result = parseFeed(doc, uncapped);
      assert.equal(result.entries[0]?.title?.length, 4 * n + 1);
      return cpuMs() - start;
    };
    for (const tail of ['', '<x>']) {
      timeOf(10_000, tail);
      const small = timeOf(125_000, tail);
      const large = timeOf(1_000_000, tail);
      assert.ok(large / small < 20, `${tail}: ${small.toFixed(0)} ms, then ${large.toFixed(0)} ms`);
    }
  });
});
