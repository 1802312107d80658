// A strict reader of the Prometheus text exposition format (version 0.0.4), for the tests of /metrics:
// every line must be a HELP, a TYPE, a comment or a sample of the family declared before it, and
// histograms must add up. It throws, naming the line, on anything else. Written here because the npm
// parsers of this format are loose (they skip what they cannot read) or unmaintained.

/** One sample line: its name (with a histogram's _bucket/_sum/_count), labels and value. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** A metric family: its TYPE, HELP and samples. */
export interface Family {
  name: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  help: string;
  samples: Sample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

/** Reads the whole exposition; throws on the first line that breaks the format. */
export function parsePrometheusText(text: string): Map<string, Family> {
  if (!text.endsWith('\n')) throw new Error('prometheus-text: the exposition must end with a newline');
  const families = new Map<string, Family>();
  const closed = new Set<string>();
  let current: Family | undefined;
  const lines = text.slice(0, -1).split('\n');
  lines.forEach((line, index) => {
    const fail = (why: string): never => {
      throw new Error(`prometheus-text: line ${index + 1}: ${why}: ${JSON.stringify(line)}`);
    };
    if (line.trim() === '') return;
    const meta = /^# (HELP|TYPE) (\S+)(?: (.*))?$/.exec(line);
    if (meta) {
      const [, kind, name, rest = ''] = meta as unknown as [string, string, string, string?];
      if (!METRIC_NAME.test(name)) fail('bad metric name');
      if (current?.name !== name) {
        if (current) closed.add(current.name);
        if (families.has(name)) fail('a family declared twice or split in two');
        current = { name, type: 'untyped', help: '', samples: [] };
        families.set(name, current);
      }
      if (kind === 'HELP') current.help = unescapeText(rest, false, fail);
      else {
        if (current.samples.length > 0) fail('TYPE after the samples');
        if (!TYPES.has(rest)) fail('unknown TYPE');
        current.type = rest as Family['type'];
      }
      return;
    }
    if (line.startsWith('#')) return;
    const sample = parseSample(line, fail);
    const family = current && familyOf(current, sample.name) ? current : undefined;
    if (!family) fail('a sample outside its declared family');
    (family as Family).samples.push(sample);
  });
  for (const family of families.values()) {
    checkSeriesUnique(family);
    if (family.type === 'histogram') checkHistogram(family);
  }
  return families;
}

/** The value of the one sample with this name and exactly these labels; throws when there is none. */
export function sampleValue(
  families: Map<string, Family>,
  name: string,
  labels: Record<string, string> = {},
): number {
  const key = seriesKey(name, labels);
  for (const family of families.values())
    for (const sample of family.samples)
      if (seriesKey(sample.name, sample.labels) === key) return sample.value;
  throw new Error(`prometheus-text: no sample ${key}`);
}

function familyOf(family: Family, sampleName: string): boolean {
  if (sampleName === family.name) return family.type !== 'histogram';
  const suffixes =
    family.type === 'histogram'
      ? ['_bucket', '_sum', '_count']
      : family.type === 'summary'
        ? ['_sum', '_count']
        : [];
  return suffixes.some((suffix) => sampleName === `${family.name}${suffix}`);
}

function parseSample(line: string, fail: (why: string) => never): Sample {
  const head = /^([a-zA-Z_:][a-zA-Z0-9_:]*)/.exec(line);
  if (!head) return fail('bad metric name');
  const name = head[1] as string;
  let at = name.length;
  const labels: Record<string, string> = {};
  if (line[at] === '{') {
    at += 1;
    while (line[at] !== '}') {
      const label = /^([^=]+)="/.exec(line.slice(at));
      if (!label || !LABEL_NAME.test(label[1] as string)) return fail('bad label name');
      at += label[0].length;
      let raw = '';
      while (line[at] !== '"') {
        if (at >= line.length) return fail('unterminated label value');
        if (line[at] === '\\') {
          raw += line.slice(at, at + 2);
          at += 2;
        } else raw += line[at++];
      }
      at += 1;
      const labelName = label[1] as string;
      if (labelName in labels) fail('a label given twice');
      labels[labelName] = unescapeText(raw, true, fail);
      if (line[at] === ',') at += 1;
      else if (line[at] !== '}') fail('expected , or } after a label');
    }
    at += 1;
  }
  const rest = /^ (\S+)(?: (-?\d+))?$/.exec(line.slice(at));
  if (!rest) return fail('expected a value (and an optional timestamp) after one space');
  return { name, labels, value: parseValue(rest[1] as string, fail) };
}

// Prometheus reads values with Go's strconv.ParseFloat, which takes NaN and Inf in any case: prom-client
// writes "Nan" (an event-loop mean before its first sample), and Prometheus scrapes it.
function parseValue(text: string, fail: (why: string) => never): number {
  const special = /^([-+]?)(inf|infinity|nan)$/i.exec(text);
  if (special) {
    if ((special[2] as string).toLowerCase() === 'nan') return Number.NaN;
    return special[1] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) fail('bad value');
  return Number(text);
}

/** Undoes \\ and \n (and \" in label values); any other escape is an error. */
function unescapeText(text: string, isLabel: boolean, fail: (why: string) => never): string {
  return text.replace(/\\(.?)/g, (_all, next: string) => {
    if (next === '\\') return '\\';
    if (next === 'n') return '\n';
    if (next === '"' && isLabel) return '"';
    return fail(`bad escape \\${next}`);
  });
}

function seriesKey(name: string, labels: Record<string, string>): string {
  const pairs = Object.entries(labels)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`);
  return `${name}{${pairs.join(',')}}`;
}

function checkSeriesUnique(family: Family): void {
  const seen = new Set<string>();
  for (const sample of family.samples) {
    const key = seriesKey(sample.name, sample.labels);
    if (seen.has(key)) throw new Error(`prometheus-text: the series ${key} is given twice`);
    seen.add(key);
  }
}

/** Buckets grow with `le`, never fall, and the +Inf bucket equals _count, for each set of other labels. */
function checkHistogram(family: Family): void {
  const groups = new Map<string, { le: number; value: number }[]>();
  for (const sample of family.samples) {
    const { le, ...others } = sample.labels;
    const key = seriesKey('', others);
    if (sample.name.endsWith('_bucket')) {
      if (le === undefined) throw new Error(`prometheus-text: ${family.name}: a bucket without le`);
      const buckets = groups.get(key) ?? [];
      buckets.push({
        le: parseValue(le, (why) => {
          throw new Error(why);
        }),
        value: sample.value,
      });
      groups.set(key, buckets);
    }
  }
  for (const [key, buckets] of groups) {
    const sorted = [...buckets].sort((a, b) => a.le - b.le);
    sorted.forEach((bucket, i) => {
      if (i > 0 && bucket.value < (sorted[i - 1] as { value: number }).value)
        throw new Error(`prometheus-text: ${family.name}${key}: buckets are not cumulative`);
    });
    const last = sorted.at(-1);
    if (last?.le !== Number.POSITIVE_INFINITY)
      throw new Error(`prometheus-text: ${family.name}${key}: no +Inf bucket`);
    const count = family.samples.find(
      (s) => s.name === `${family.name}_count` && seriesKey('', withoutLe(s.labels)) === key,
    );
    if (count?.value !== last.value)
      throw new Error(`prometheus-text: ${family.name}${key}: the +Inf bucket differs from _count`);
  }
}

function withoutLe(labels: Record<string, string>): Record<string, string> {
  const { le: _le, ...others } = labels;
  return others;
}
