// A node:test reporter for scripts/run-tests.mjs: the counts of the run and, per file, the sum of its
// top-level tests' durations (ms), as one JSON object at the end. The runner prints the counts and
// starts the longest files first next time.
export default async function* timesReporter(source) {
  const files = {};
  const counts = { tests: 0, pass: 0, fail: 0, skipped: 0, todo: 0, cancelled: 0 };
  for await (const { type, data } of source) {
    if (type !== 'test:pass' && type !== 'test:fail') continue;
    if (data.nesting === 0 && data.file)
      files[data.file] = (files[data.file] ?? 0) + data.details.duration_ms;
    if (data.details.type === 'suite') continue;
    counts.tests++;
    if (data.skip) counts.skipped++;
    else if (data.todo) counts.todo++;
    else if (type === 'test:pass') counts.pass++;
    else if (data.details.error?.failureType === 'cancelledByParent') counts.cancelled++;
    else counts.fail++;
  }
  yield `${JSON.stringify({ counts, files })}\n`;
}
