// One test worker: runs the test files it is given one after another in this process, so the
// code is loaded once per worker rather than once per file. Each file is a suite named by its
// path; its top-level hooks and tests belong to that suite (node:test attaches what a file
// declares while it is imported to the suite importing it).
import { describe } from 'node:test';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

for (const file of process.argv.slice(2)) {
  describe(file, async () => {
    await import(pathToFileURL(path.resolve(file)).href);
  });
}
