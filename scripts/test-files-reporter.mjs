// The node:test reporter of a test worker (scripts/test-shard.mjs, whose top-level tests are the
// test files, named by their paths): one line per file as it finishes, with its tests' count and
// time, and under a failed file each failed test (file › suite › test) with the first lines of its
// error — the full output of a 2,000-test run is too long for a CI log to keep, this is what says
// why it failed. After each file, the durations (for the next run's sharing out), the totals and
// the failures so far go to TEST_DURATIONS_FILE: a worker may be ended before its stream closes.
import { writeFileSync } from 'node:fs';

const ERROR_LINES = 8;

export default async function* filesReport(source) {
  const report = { durations: {}, totals: { passed: 0, failed: 0, skipped: 0 }, failures: [] };
  const names = []; // the names of the tests started at each nesting level
  let count = null;
  let fileFailures = [];
  for await (const event of source) {
    const { nesting = 0, name, details, skip, todo } = event.data ?? {};
    if (event.type === 'test:start') {
      names.length = nesting;
      names.push(name);
      if (nesting === 0) {
        count = { passed: 0, failed: 0, skipped: 0 };
        fileFailures = [];
      }
      continue;
    }
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    if (nesting > 0 && count && details?.type !== 'suite') {
      if (skip || todo) count.skipped += 1;
      else if (event.type === 'test:pass') count.passed += 1;
      else count.failed += 1;
    }
    const error = details?.error;
    // A suite fails because a test inside it failed (reported already); a file's own failure
    // (a hook, an import) is not.
    if (event.type === 'test:fail' && error?.failureType !== 'subtestsFailed' && (nesting > 0 || count?.failed === 0)) {
      const cause = error?.cause ?? error;
      const message = String(cause?.stack ?? cause ?? 'failed').split('\n').slice(0, ERROR_LINES).join('\n      ');
      fileFailures.push(`  ✗ ${[...names.slice(0, nesting), name].join(' › ')}\n      ${message}`);
    }
    if (nesting !== 0) continue;
    const current = count ?? { passed: 0, failed: 0, skipped: 0 };
    const ms = details?.duration_ms ?? 0;
    const failed = event.type === 'test:fail' || current.failed > 0;
    if (failed && current.failed === 0) current.failed = 1; // the file itself failed (a hook, an import)
    report.durations[name] = Math.round(ms);
    for (const key of Object.keys(report.totals)) report.totals[key] += current[key];
    report.failures.push(...fileFailures);
    const parts = [`${current.passed} passed`, current.failed ? `${current.failed} failed` : '', current.skipped ? `${current.skipped} skipped` : ''].filter(Boolean);
    yield `${failed ? '✗' : '✓'} ${name} — ${parts.join(', ')} (${(ms / 1000).toFixed(1)} s)\n${fileFailures.map((line) => `${line}\n`).join('')}`;
    if (process.env['TEST_DURATIONS_FILE']) writeFileSync(process.env['TEST_DURATIONS_FILE'], JSON.stringify(report));
    count = null;
  }
}
