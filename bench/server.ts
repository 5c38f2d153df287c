/**
 * Runs the API as its own process (so its memory is measured apart from the
 * load generator's) and samples its resident set size from /proc.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface RunningServer {
  pid: number;
  port: number;
  stop(): Promise<void>;
}

export interface ServerOptions {
  env?: Record<string, string>;
  /** Extra node flags, e.g. `--cpu-prof` (not accepted through NODE_OPTIONS). */
  nodeArgs?: string[];
  /** The checkout whose server runs (default: this one), e.g. an older commit's worktree to compare with. */
  root?: string;
}

export async function startServer(databaseUrl: string, options: ServerOptions = {}): Promise<RunningServer> {
  const child: ChildProcess = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', 'server/src/main.ts'], {
    cwd: options.root ?? REPO_ROOT,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'warn',
      WEB_DIST: '/nonexistent',
      NODE_ENV: 'production',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const port = await new Promise<number>((resolve, reject) => {
    let output = '';
    // In production the response serializers are compiled at start: seconds more on a busy machine.
    const timer = setTimeout(() => reject(new Error(`server did not start within 180 s:\n${output}`)), 180_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with code ${code} before listening:\n${output}`));
    });
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /serving on http:\/\/localhost:(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
  });
  // Once listening, the server's own log lines (warnings and errors at LOG_LEVEL=warn) go to stderr.
  child.stdout!.removeAllListeners('data');
  child.stdout!.pipe(process.stderr);

  return {
    pid: child.pid!,
    port,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Resident set size of a process in MiB (VmRSS from /proc/<pid>/status). */
export function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
  if (!match) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]) / 1024;
}

const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/**
 * CPU time (user + system) a process has used so far, in milliseconds; with `reapedChildren`, plus
 * that of its children that have exited and been waited for (cutime + cstime).
 */
export function cpuMs(pid: number, reapedChildren = false): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the parenthesised command name, which may itself contain spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]) + (reapedChildren ? Number(fields[13]) + Number(fields[14]) : 0);
  return (ticks * 1000) / CLOCK_TICKS;
}

/**
 * Runs `work` and returns its result with the CPU time each of `pids` used meanwhile, in
 * milliseconds (in clock ticks, usually 10 ms: sum it over batches long enough to read).
 */
export async function withCpuOf<T>(pids: number[], work: () => Promise<T>): Promise<{ result: T; spent: number[] }> {
  const before = pids.map((pid) => cpuMs(pid));
  const result = await work();
  return { result, spent: pids.map((pid, index) => cpuMs(pid) - before[index]!) };
}

/** Samples a process's RSS on an interval, keeping the peak and the timeline. */
export class RssSampler {
  private timer: NodeJS.Timeout | null = null;
  private startedAt = 0;
  peak = 0;
  /** [milliseconds since start, MiB] */
  readonly samples: Array<[number, number]> = [];

  constructor(private readonly pid: number) {}

  private sample(): void {
    const mib = rssMiB(this.pid);
    this.peak = Math.max(this.peak, mib);
    this.samples.push([performance.now() - this.startedAt, mib]);
  }

  start(intervalMs = 100): this {
    this.startedAt = performance.now();
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
    return this;
  }

  stop(): number {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.sample();
    return this.peak;
  }

  /** The highest sample in each `stepMs` window, in order. */
  timeline(stepMs: number): number[] {
    const steps: number[] = [];
    for (const [at, mib] of this.samples) {
      const index = Math.floor(at / stepMs);
      steps[index] = Math.max(steps[index] ?? 0, mib);
    }
    return steps.filter((value) => value !== undefined);
  }
}

/** A JSON request to the API on `port` for the tenant at `host` (a Host header), with an optional bearer token. */
export function call(port: number, host: string, method: string, url: string, body?: unknown, token?: string): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const request = http.request(
      { host: '127.0.0.1', port, method, path: url, headers: { host, ...(payload ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) } },
      (response) => {
        let text = '';
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, json: text ? JSON.parse(text) : null }));
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}
