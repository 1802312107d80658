#!/usr/bin/env node
// npm run bench:parse: tidings' parser against the fastest JavaScript feed parsers on npm and against
// a bare XML tokenizer pass, on the same real-world documents (../shared/perf/corpus), in one run.
// Each parser runs in its own child process so that its peak memory (max RSS) is its own. The machine
// is a shared VM whose speed comes and goes (the same pass takes from 15 to 30 MB/s a few seconds apart),
// so the parsers run in interleaved rounds, their order turning from round to round, and each figure is
// the median over the rounds of each round's median pass.
//
//   node scripts/bench-parse.mjs [--rounds 3] [--passes 15] [--corpus DIR]
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PARSERS = ['tidings', 'feedsmith', 'rss-parser', 'htmlparser2-tokenize'];
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const passes = Number(option('--passes', '15'));
const rounds = Number(option('--rounds', '3'));
const shared = process.env.TIDINGS_SHARED_DIR ?? fileURLToPath(new URL('../../shared', import.meta.url));
const corpus = option('--corpus', join(shared, 'perf/corpus'));

function listFiles(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) listFiles(path, out);
    else out.push(path);
  }
  return out.sort();
}

async function loadParser(name) {
  const decode = (bytes) => new TextDecoder().decode(bytes);
  if (name === 'tidings') {
    const { parseFeed } = await import('../dist/index.js');
    return (bytes) => parseFeed(bytes).entries.length;
  }
  if (name === 'feedsmith') {
    const { parseFeed } = await import('feedsmith');
    return (bytes) => {
      const { feed } = parseFeed(decode(bytes));
      return (feed.items ?? feed.entries ?? []).length;
    };
  }
  if (name === 'rss-parser') {
    const { default: Parser } = await import('rss-parser');
    const parser = new Parser();
    return async (bytes) => (await parser.parseString(decode(bytes))).items.length;
  }
  const { Parser } = await import('htmlparser2');
  return (bytes) => {
    new Parser({}, { xmlMode: true }).end(decode(bytes));
    return 0;
  };
}

/** Child process: time `passes` passes of one parser over the corpus, print JSON. */
async function runChild(name) {
  const docs = listFiles(corpus).map((f) => ({ file: f, bytes: new Uint8Array(readFileSync(f)) }));
  const parse = await loadParser(name);
  const totalBytes = docs.reduce((n, d) => n + d.bytes.byteLength, 0);
  let entries = 0;
  const failed = [];
  const empty = [];
  const runPass = async (count) => {
    let n = 0;
    for (const doc of docs) {
      try {
        const found = await parse(doc.bytes);
        if (count && found === 0) empty.push(doc.file);
        n += found;
      } catch {
        if (count) failed.push(doc.file);
      }
    }
    return n;
  };
  entries = await runPass(true);
  await runPass(false); // warm-up
  const times = [];
  for (let i = 0; i < passes; i++) {
    global.gc?.();
    const start = process.hrtime.bigint();
    await runPass(false);
    times.push(Number(process.hrtime.bigint() - start) / 1e9);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(JSON.stringify({ name, totalBytes, entries, median, peakRssMb, failed, empty }));
}

function row(cells, widths) {
  return cells
    .map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i])))
    .join('  ');
}

function runParser(name) {
  const out = execFileSync(
    process.execPath,
    [
      '--expose-gc',
      fileURLToPath(import.meta.url),
      '--child',
      name,
      '--passes',
      String(passes),
      '--corpus',
      corpus,
    ],
    { encoding: 'utf8', maxBuffer: 16 << 20 },
  );
  return JSON.parse(out);
}

function medianOf(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function main() {
  const runs = Object.fromEntries(PARSERS.map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    const order = PARSERS.map((_, i) => PARSERS[(i + round) % PARSERS.length]);
    for (const name of order) runs[name].push(runParser(name));
    process.stderr.write(`bench:parse: round ${round + 1} of ${rounds} done\n`);
  }
  const results = PARSERS.map((name) => ({
    ...runs[name][0],
    median: medianOf(runs[name].map((r) => r.median)),
    peakRssMb: medianOf(runs[name].map((r) => r.peakRssMb)),
    roundMedians: runs[name].map((r) => r.median),
  }));
  const files = listFiles(corpus).length;
  const mb = results[0].totalBytes / 1e6;
  console.log(
    `bench:parse: ${files} documents, ${mb.toFixed(1)} MB (${corpus}), one process per parser; ${rounds} interleaved rounds, median of ${passes} passes each; figures are medians over the rounds\n`,
  );
  const tokenizer = results.find((r) => r.name === 'htmlparser2-tokenize');
  const tidings = results.find((r) => r.name === 'tidings');
  const widths = [22, 8, 11, 14, 15, 22];
  console.log(
    row(['parser', 'MB/s', 'entries/s', 'peak RSS MB', 'tidings speed', 'documents not parsed'], widths),
  );
  for (const r of results) {
    const mbps = mb / r.median;
    const perSecond = r.entries / r.median;
    const ratio = (r.median / tidings.median).toFixed(2);
    console.log(
      row(
        [
          r.name,
          mbps.toFixed(1),
          r.entries ? Math.round(perSecond).toLocaleString('en-US') : '-',
          r.peakRssMb.toFixed(0),
          `${ratio}x`,
          r.failed.length,
        ],
        widths,
      ),
    );
  }
  const perRound = (r) => r.roundMedians.map((t) => (mb / t).toFixed(1)).join(' ');
  console.log(`\nMB/s per round: ${results.map((r) => `${r.name} ${perRound(r)}`).join('; ')}`);
  console.log(
    `\ntidings vs bare tokenizer: ${(tidings.median / tokenizer.median).toFixed(2)}x the tokenizer's time (target: within 2x)`,
  );
  for (const r of results) {
    if (r.name === 'tidings' || r.name === 'htmlparser2-tokenize') continue;
    console.log(
      `tidings vs ${r.name}: ${(r.median / tidings.median).toFixed(2)}x as fast, ${(tidings.peakRssMb / r.peakRssMb).toFixed(2)}x the peak memory`,
    );
  }
  // every document must parse with entries (the truncated JSON gives a diagnostic and what precedes the cut)
  const empty = tidings.empty.map((f) => f.slice(corpus.length + 1));
  console.log(
    `tidings read ${tidings.entries} entries; documents without entries: ${empty.length ? empty.join(', ') : 'none'}`,
  );
}

if (args[0] === '--child') await runChild(args[1]);
else main();
