import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { plural } from './plural.js';
import { progressPrinter } from './progress.js';

function capture(isTTY: boolean) {
  const chunks: string[] = [];
  return { out: { isTTY, write: (text: string) => chunks.push(text) }, chunks };
}

describe('progressPrinter', () => {
  it('prints plain lines with the total at every tenth when stderr is no terminal', () => {
    const { out, chunks } = capture(false);
    let t = 0;
    const progress = progressPrinter(out, () => t);
    for (let done = 1; done <= 200; done++) progress.update(done, 200);
    progress.finish();
    assert.equal(chunks.length, 10);
    assert.ok(chunks.every((c) => !c.includes('\r') && c.endsWith(' of 200 feeds\n')));
    assert.equal(chunks.at(-1), 'poll: 200 of 200 feeds\n');
    // and every 10 s when a tenth takes longer
    chunks.length = 0;
    const slow = progressPrinter(out, () => t);
    slow.update(1, 1000);
    t += 10_000;
    slow.update(2, 1000);
    assert.deepEqual(chunks, ['poll: 2 of 1000 feeds\n']);
  });

  it('rewrites one line on a terminal, at most five times a second, and ends it', () => {
    const { out, chunks } = capture(true);
    let t = 1_000;
    const progress = progressPrinter(out, () => t);
    progress.update(1, 3);
    progress.update(2, 3);
    t += 300;
    progress.update(3, 3);
    progress.finish();
    assert.deepEqual(chunks, ['\rpoll: 1 of 3 feeds', '\rpoll: 3 of 3 feeds', '\n']);
  });

  it('says 1 feed, not 1 feeds', () => {
    assert.deepEqual(
      [plural(0, 'feed'), plural(1, 'feed'), plural(2, 'entry', 'entries')],
      ['0 feeds', '1 feed', '2 entries'],
    );
  });
});
