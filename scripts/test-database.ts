// `node --import tsx scripts/test-database.ts start <dir>`: starts the embedded PostgreSQL server
// in <dir> for a test run (durability off: the tests do not test it), prints {url, pid} as JSON
// and exits, leaving the server running; scripts/test.mjs stops it after the run.
import { startEmbeddedServer } from '../server/src/db/embedded-server.ts';
import { TEST_SERVER_SETTINGS } from '../server/src/test/test-db.ts';

const [command, dir] = process.argv.slice(2);
if (command !== 'start' || !dir) {
  console.error('usage: test-database.ts start <dir>');
  process.exit(2);
}
try {
  const server = await startEmbeddedServer({ dir, settings: TEST_SERVER_SETTINGS, log: (message) => console.error(`intelnotes: ${message}`) });
  console.log(JSON.stringify({ url: server.urlOf(), pid: server.pid }));
  process.exit(0);
} catch (error) {
  console.error(`intelnotes: the test database server did not start: ${(error as Error).message}`);
  process.exit(1);
}
