// Parsing time grows linearly with the document for every hostile shape (issue 12): a document 8 times
// larger takes well under 8 x 8 = 64 times as long (the bound, 20 times, leaves room for noise and for
// the garbage collector).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFeed } from '../src/parse/index.js';
import { cpuMs } from './helpers/cpu-time.js';
import { SHAPES } from './helpers/shapes.js';

const N = 4_000;
const GROWTH = 8;
const MAX_RATIO = 20;

// The CPU time of one parse (ms): the best of 3 rounds, each parsing the document as often as fits in
// 20 ms (at least once), so that a document that takes a millisecond is timed as well as a large one.
// CPU time, not the clock: the test files run several at a time, and the clock counts their turns too.
function timeParse(doc: string): number {
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 3; round++) {
    const start = cpuMs();
    let runs = 0;
    let elapsed = 0;
    do {
      parseFeed(doc);
      runs++;
      elapsed = cpuMs() - start;
    } while (elapsed < 20);
    best = Math.min(best, elapsed / runs);
  }
  return best;
}

describe('parse time grows linearly with the document', () => {
  parseFeed(SHAPES[0]?.make(100) ?? ''); // load the parser's lazy modules before timing
  for (const shape of SHAPES) {
    it(`for ${shape.name}`, () => {
      const small = shape.make(N);
      const large = shape.make(N * GROWTH);
      timeParse(small); // warm up
      let smallMs = timeParse(small);
      let largeMs = timeParse(large);
      // a busy machine (other test files, other jobs) can slow one timing: measure again, keeping the best
      // of each, before calling it quadratic; a quadratic shape stays near 64x however often it is timed
      for (let retry = 0; retry < 2 && largeMs / smallMs >= MAX_RATIO; retry++) {
        smallMs = Math.min(smallMs, timeParse(small));
        largeMs = Math.min(largeMs, timeParse(large));
      }
      const ratio = largeMs / smallMs;
      assert.ok(
        ratio < MAX_RATIO,
        `${shape.name}: ${small.length} chars in ${smallMs.toFixed(1)} ms, ${large.length} in ${largeMs.toFixed(1)} ms (${ratio.toFixed(1)}x)`,
      );
    });
  }
});

// Issue 12: one element with 64,000+ attributes made saxes and htmlparser2 keep them all in one slow
// dictionary (170-280 ns per character). An element keeps its first 1,024 and the rest are read past.
describe('an element with 128,000 attributes', () => {
  const ATTRIBUTE_SHAPES = SHAPES.filter((shape) => shape.name.includes('many attributes'));
  for (const shape of ATTRIBUTE_SHAPES) {
    it(`keeps the first and parses in time linear with 16,000: ${shape.name}`, () => {
      const small = shape.make(16_000);
      const large = shape.make(128_000);
      const result = parseFeed(large);
      assert.ok(
        result.diagnostics.some((d) => d.code.endsWith('.too-many-attributes')),
        'the cut is reported',
      );
      timeParse(small); // warm up
      const smallMs = timeParse(small);
      const largeMs = timeParse(large);
      assert.ok(
        largeMs / smallMs < MAX_RATIO,
        `${small.length} chars in ${smallMs.toFixed(1)} ms, ${large.length} in ${largeMs.toFixed(1)} ms`,
      );
    });
  }
});
