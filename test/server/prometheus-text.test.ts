// The strict Prometheus text reader the /metrics tests rely on: it must refuse what Prometheus refuses,
// or a malformed exposition would pass them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parsePrometheusText, sampleValue } from '../helpers/prometheus-text.js';

const GOOD = `# HELP jobs_total Jobs done, by "kind" \\\\ with a newline\\n here.
# TYPE jobs_total counter
jobs_total{kind="a\\"b",zone="x\\ny"} 3
jobs_total{kind="c"} 0
# HELP wait_seconds Waits.
# TYPE wait_seconds histogram
wait_seconds_bucket{le="0.5"} 1
wait_seconds_bucket{le="+Inf"} 2
wait_seconds_sum 1.25
wait_seconds_count 2
# TYPE lag gauge
lag Nan
`;

describe('the Prometheus text reader of the tests', () => {
  it('reads families, escapes, histograms and NaN', () => {
    const families = parsePrometheusText(GOOD);
    assert.equal(families.get('jobs_total')?.help, 'Jobs done, by "kind" \\ with a newline\n here.');
    assert.equal(sampleValue(families, 'jobs_total', { kind: 'a"b', zone: 'x\ny' }), 3);
    assert.equal(sampleValue(families, 'wait_seconds_count'), 2);
    assert.ok(Number.isNaN(sampleValue(families, 'lag')));
    assert.throws(() => sampleValue(families, 'jobs_total', { kind: 'z' }), /no sample/);
  });

  const broken: [string, string][] = [
    ['no final newline', GOOD.trimEnd()],
    ['a sample outside its family', `${GOOD}jobs_total{kind="d"} 1\n`],
    ['a family split in two', `${GOOD}# TYPE jobs_total counter\n`],
    ['a bad value', GOOD.replace('} 3', '} three')],
    ['a bad escape', GOOD.replace('a\\"b', 'a\\tb')],
    ['an unquoted label value', GOOD.replace('kind="c"', 'kind=c')],
    ['a bad label name', GOOD.replace('kind="c"', '1kind="c"')],
    ['a series twice', GOOD.replace('kind="c"', 'kind="a\\"b",zone="x\\ny"')],
    ['buckets that fall', GOOD.replace('le="+Inf"} 2', 'le="+Inf"} 0')],
    ['no +Inf bucket', GOOD.replace('wait_seconds_bucket{le="+Inf"} 2\n', '')],
    ['an unknown TYPE', GOOD.replace('histogram', 'timer')],
    ['two spaces before the value', GOOD.replace('} 3', '}  3')],
  ];
  for (const [why, text] of broken)
    it(`refuses ${why}`, () => assert.throws(() => parsePrometheusText(text), /prometheus-text/));
});
