#!/usr/bin/env node
// bench:parse on a busy machine: runs the child processes of scripts/bench-parse.mjs (one per parser,
// same corpus and passes) in interleaved rounds and reports medians, so that load which comes and goes
// hits every parser alike. Build dist first (npm run build).
//
//   node scripts/bench-parse-rounds.mjs [--rounds 5] [--passes 15] [--corpus DIR]
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PARSERS = ['tidings', 'feedsmith', 'htmlparser2-tokenize'];
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const rounds = Number(option('--rounds', '5'));
const passes = option('--passes', '15');
const shared = process.env.TIDINGS_SHARED_DIR ?? fileURLToPath(new URL('../../shared', import.meta.url));
const corpus = option('--corpus', join(shared, 'perf/corpus'));
const bench = fileURLToPath(new URL('./bench-parse.mjs', import.meta.url));

function runChild(name) {
  const out = execFileSync(
    process.execPath,
    ['--expose-gc', bench, '--child', name, '--passes', passes, '--corpus', corpus],
    { encoding: 'utf8', maxBuffer: 16 << 20 },
  );
  return JSON.parse(out);
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const results = Object.fromEntries(PARSERS.map((name) => [name, []]));
for (let round = 0; round < rounds; round++) {
  for (const name of PARSERS) results[name].push(runChild(name));
  process.stderr.write(`round ${round + 1} of ${rounds}\n`);
}

const mb = results.tidings[0].totalBytes / 1e6;
console.log(`bench:parse in ${rounds} interleaved rounds, ${passes} passes each (${corpus})\n`);
for (const name of PARSERS) {
  const runs = results[name];
  const rss = runs.map((r) => r.peakRssMb);
  console.log(
    `${name.padEnd(22)} ${(mb / median(runs.map((r) => r.median))).toFixed(1).padStart(6)} MB/s` +
      `  peak RSS median ${median(rss).toFixed(0)} MB (${Math.min(...rss).toFixed(0)}-${Math.max(...rss).toFixed(0)})`,
  );
}
const ratio = (name, of) => results[name].map((r, i) => r.median / results[of][i].median);
const speed = ratio('feedsmith', 'tidings');
const time = ratio('tidings', 'htmlparser2-tokenize');
const memory = results.tidings.map((r, i) => r.peakRssMb / results.feedsmith[i].peakRssMb);
console.log(
  `\ntidings vs feedsmith, speed per round: ${speed.map((x) => x.toFixed(2)).join(' ')} (median ${median(speed).toFixed(2)}x)`,
);
console.log(
  `tidings vs tokenizer, time per round:  ${time.map((x) => x.toFixed(2)).join(' ')} (median ${median(time).toFixed(2)}x)`,
);
console.log(
  `tidings vs feedsmith, peak RSS:         ${memory.map((x) => x.toFixed(2)).join(' ')} (median ${median(memory).toFixed(2)}x)`,
);
