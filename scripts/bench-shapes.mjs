#!/usr/bin/env node
// npm run bench:shapes: parse time of each hostile document shape (test/helpers/shapes.ts) at growing
// sizes, best of 3, with the time per KB: a shape whose time per KB grows with the size is not linear.
// A 20 MiB document of tiny items (the fetch limit) is measured for peak memory in a child process.
//
//   node --import tsx scripts/bench-shapes.mjs [--sizes 2000,8000,32000] [--no-memory]
import { execFileSync } from 'node:child_process';
import { parseFeed } from '../src/parse/index.ts';
import { SHAPES } from '../test/helpers/shapes.ts';

const args = process.argv.slice(2);
const sizesAt = args.indexOf('--sizes');
const sizes = (sizesAt >= 0 ? args[sizesAt + 1] : '2000,8000,32000').split(',').map(Number);

function bestOf3(doc) {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    parseFeed(doc);
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

parseFeed(SHAPES[0].make(100));
console.log('| shape | n | KB | ms | ms per MB |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const shape of SHAPES) {
  for (const n of sizes) {
    const doc = shape.make(n);
    bestOf3(shape.make(Math.max(100, n / 8))); // warm up
    const ms = bestOf3(doc);
    const kb = doc.length / 1024;
    console.log(
      `| ${shape.name} | ${n} | ${kb.toFixed(0)} | ${ms.toFixed(1)} | ${((ms / kb) * 1024).toFixed(0)} |`,
    );
  }
}

if (!args.includes('--no-memory')) {
  // A child process, so that its peak RSS is the parse's own: 20 MiB of <item><guid>N</guid></item>
  const child = `
    import { parseFeed } from ${JSON.stringify(new URL('../src/parse/index.ts', import.meta.url).href)};
    const kind = process.argv[1];
    // written straight into one buffer: the harness itself stays small
    const head = kind === 'json' ? '{"version":"https://jsonfeed.org/version/1.1","items":[' : kind === 'atom' ? '<feed xmlns="http://www.w3.org/2005/Atom">' : '<rss version="2.0"><channel>';
    const tail = kind === 'json' ? '{"id":"last"}]}' : kind === 'atom' ? '</feed>' : '</channel></rss>';
    const limit = 20 * 1024 * 1024;
    const buffer = Buffer.alloc(limit);
    let size = buffer.write(head);
    for (let i = 0; size < limit - 100; i++) {
      size += buffer.write(kind === 'json' ? '{"id":"' + i + '"},' : kind === 'atom' ? '<entry><id>' + i + '</id></entry>' : '<item><guid>' + i + '</guid></item>', size);
    }
    size += buffer.write(tail, size);
    const bytes = new Uint8Array(buffer.buffer, buffer.byteOffset, size);
    const before = process.memoryUsage().rss;
    const start = performance.now();
    const result = parseFeed(bytes);
    const ms = performance.now() - start;
    console.log(JSON.stringify({ kind, bytes: bytes.byteLength, entries: result.entries.length, ms, rssBefore: before, peak: process.resourceUsage().maxRSS * 1024 }));
  `;
  console.log('\n| 20 MiB of tiny items | entries kept | ms | RSS before parsing | peak RSS |');
  console.log('| --- | ---: | ---: | ---: | ---: |');
  for (const kind of ['rss', 'atom', 'json']) {
    const out = execFileSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', child, kind],
      {
        encoding: 'utf8',
      },
    );
    const r = JSON.parse(out.trim().split('\n').pop());
    const mb = (n) => `${(n / 1024 / 1024).toFixed(0)} MB`;
    console.log(`| ${r.kind} | ${r.entries} | ${r.ms.toFixed(0)} | ${mb(r.rssBefore)} | ${mb(r.peak)} |`);
  }
}
