// One test worker: runs the test files it is given one after another in this process, so the
// code is loaded once per worker rather than once per file. Each file is a suite named by its
// path; its top-level hooks and tests belong to that suite (node:test attaches what a file
// declares while it is imported to the suite importing it).
import { after, describe } from 'node:test';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

for (const file of process.argv.slice(2)) {
  describe(file, async () => {
    await import(pathToFileURL(path.resolve(file)).href);
  });
}

// Once every file has run, a handle some file left open (a pool, a timer) must not keep the
// worker alive: it exits (with node:test's status) after a moment for the reporter to write.
after(() => {
  setTimeout(() => process.exit(), 2_000).unref();
});
