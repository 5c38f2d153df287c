// A node:test reporter for scripts/test-shard.mjs: one line per test file as it finishes (its
// suite is a top-level test named by its path), with its tests' count and time; and, for the
// next run's sharing out and the run's totals, each file's duration and the counts written to
// TEST_DURATIONS_FILE.
import { writeFileSync } from 'node:fs';

export default async function* filesReport(source) {
  const durations = {};
  const counts = new Map(); // file → { passed, failed, skipped }
  let current = null;
  for await (const event of source) {
    const { nesting = 0, name, details, skip, todo } = event.data ?? {};
    if (event.type === 'test:start' && nesting === 0) {
      current = name;
      counts.set(name, { passed: 0, failed: 0, skipped: 0 });
    } else if ((event.type === 'test:pass' || event.type === 'test:fail') && nesting > 0 && current && details?.type !== 'suite') {
      const count = counts.get(current);
      if (skip || todo) count.skipped += 1;
      else if (event.type === 'test:pass') count.passed += 1;
      else count.failed += 1;
    } else if ((event.type === 'test:pass' || event.type === 'test:fail') && nesting === 0) {
      const count = counts.get(name) ?? { passed: 0, failed: 0, skipped: 0 };
      const ms = details?.duration_ms ?? 0;
      durations[name] = Math.round(ms);
      const failed = event.type === 'test:fail' || count.failed > 0;
      const parts = [`${count.passed} passed`, count.failed ? `${count.failed} failed` : '', count.skipped ? `${count.skipped} skipped` : ''].filter(Boolean);
      yield `${failed ? '✗' : '✓'} ${name} — ${parts.join(', ')} (${(ms / 1000).toFixed(1)} s)\n`;
    }
  }
  const totals = { passed: 0, failed: 0, skipped: 0 };
  for (const count of counts.values()) for (const key of Object.keys(totals)) totals[key] += count[key];
  if (process.env['TEST_DURATIONS_FILE']) writeFileSync(process.env['TEST_DURATIONS_FILE'], JSON.stringify({ durations, totals }));
}
