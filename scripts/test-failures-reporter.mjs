// A node:test reporter that prints nothing until the run ends, then one line per failed
// test (file › suite › test) with the first lines of its error. The full TAP output of a
// 1,300-test run is too long for a CI log to keep whole; this summary is what says why
// the run failed. Used next to the TAP (or spec) reporter by scripts/test.mjs.
import path from 'node:path';

const ERROR_LINES = 8;

export default async function* failureSummary(source) {
  const suitePaths = new Map(); // file → names of the tests started at each nesting level
  const failures = [];
  for await (const event of source) {
    const { file = '?', nesting = 0, name } = event.data ?? {};
    if (event.type === 'test:start') {
      const names = suitePaths.get(file) ?? [];
      names.length = nesting;
      names.push(name);
      suitePaths.set(file, names);
    } else if (event.type === 'test:fail') {
      const error = event.data.details?.error;
      // A suite fails because a test inside it failed: that test is reported already.
      if (error?.failureType === 'subtestsFailed') continue;
      const where = [path.relative(process.cwd(), file), ...(suitePaths.get(file) ?? []).slice(0, nesting), name];
      const cause = error?.cause ?? error;
      const message = String(cause?.stack ?? cause ?? 'failed').split('\n').slice(0, ERROR_LINES).join('\n      ');
      failures.push(`  ✗ ${where.join(' › ')}\n      ${message}`);
    }
  }
  if (failures.length > 0) yield `\n# ${failures.length} failed:\n${failures.join('\n')}\n`;
}
