/**
 * The product as `npm start` starts it (server/src/main.ts: the supervisor, the embedded
 * PostgreSQL server in DATA_DIR, the API and the worker processes), for benchmarks that measure
 * it whole (api-under-processing.ts, real-docs.ts), and the /proc readings they take of it.
 */
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, fstatSync, openSync, readFileSync, readSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Where these benchmarks write their reports (git-ignored). */
export const RESULTS = path.join(REPO_ROOT, 'bench', 'results');

/** A positive number from the environment, else `fallback`. */
export function positiveEnv(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
}

/** `uptime`'s line (the machine's load, for a report), or the load averages alone. */
export function uptime(): string {
  try {
    return execFileSync('uptime', { encoding: 'utf8' }).trim();
  } catch {
    return `load average: ${os.loadavg().map((value) => value.toFixed(2)).join(', ')}`;
  }
}

export interface Product {
  pid: number;
  port: number;
  /** The children's pids by name (`api`, `worker-1`, …), kept current from the supervisor's log. */
  children: Map<string, number>;
  /** Children the supervisor reported dead (a restart), with the time. */
  deaths: Array<{ at: number; line: string }>;
  /** Log lines at level error (50) or above, from any process. */
  errorLines: string[];
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null; seconds: number }>;
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * `node --import tsx server/src/main.ts`, as `npm start` runs it, its output (stdout and stderr)
 * written straight to `logFile` and read back from there every second. Not through a pipe to this
 * process: the product logs synchronously (pino), so a full pipe whose reader — this load generator
 * — waits for a CPU would stall the API's event loop, which a terminal or a log file does not.
 */
export async function startProduct(dataDir: string, port: number, logFile: string, nodeArgs: string[], t0: number, extraEnv: NodeJS.ProcessEnv = {}): Promise<Product> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port) };
  // The embedded server unless the caller names one (cluster-load.ts: DATABASE_URL and replicas).
  delete env['DATABASE_URL'];
  Object.assign(env, extraEnv);
  const fd = openSync(logFile, 'a');
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'server/src/main.ts'], { cwd: REPO_ROOT, env, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  const children = new Map<string, number>();
  const deaths: Product['deaths'] = [];
  const errorLines: string[] = [];
  let serving = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));

  const onLine = (line: string) => {
    if (line.includes('serving on http://localhost:')) serving = true;
    if (!line.startsWith('{')) return;
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(line);
    } catch {
      return;
    }
    if (typeof entry['child'] === 'string' && typeof entry['pid'] === 'number' && entry['msg'] === 'process started') children.set(entry['child'], entry['pid']);
    if (typeof entry['child'] === 'string' && typeof entry['msg'] === 'string' && /died|exited/.test(entry['msg'])) deaths.push({ at: performance.now() - t0, line });
    if (typeof entry['level'] === 'number' && entry['level'] >= 50) errorLines.push(line);
  };
  // The lines written since the last read (a partial last line waits for the next).
  let offset = 0;
  let rest = '';
  const readLog = () => {
    const handle = openSync(logFile, 'r');
    try {
      const size = fstatSync(handle).size;
      if (size <= offset) return;
      const buffer = Buffer.alloc(size - offset);
      readSync(handle, buffer, 0, buffer.length, offset);
      offset = size;
      const lines = (rest + buffer.toString('utf8')).split('\n');
      rest = lines.pop()!;
      lines.forEach(onLine);
    } finally {
      closeSync(handle);
    }
  };
  const reader = setInterval(readLog, 1000);
  const tail = () => readFileSync(logFile, 'utf8').slice(-4000);

  await new Promise<void>((resolve, reject) => {
    // The first start runs initdb, migrations and the seed: minutes on a busy machine.
    const timer = setTimeout(() => reject(new Error(`the product did not serve within 600 s:\n${tail()}`)), 600_000);
    const poll = setInterval(() => {
      readLog();
      if (serving) {
        clearInterval(poll);
        clearTimeout(timer);
        resolve();
      }
    }, 200);
    void exited.then(({ code, signal }) => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`the product exited (${code ?? signal}) before serving:\n${tail()}`));
    });
  });
  readLog();

  return {
    pid: child.pid!,
    port,
    children,
    deaths,
    errorLines,
    stop: async () => {
      const started = performance.now();
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const result = await exited;
      clearInterval(reader);
      readLog();
      return { ...result, seconds: (performance.now() - started) / 1000 };
    },
  };
}

export const procStatus = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return '';
  }
};
export const kib = (status: string, field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
/** Sets VmHWM back to the current RSS (Linux 4.0+), so the next read is this phase's peak. */
export function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}
