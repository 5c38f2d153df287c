/** Real server processes for tests: start one of the build's entry points, wait on its output, call it over HTTP. */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Every process started, for `killAll` in the test file's `after`. */
const children: ChildProcess[] = [];

export function killAll(): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/** node:http, because fetch does not let a caller set the Host header. */
export function call(
  port: string,
  host: string,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = { host };
    if (payload) headers['content-type'] = 'application/json';
    if (token) headers['authorization'] = `Bearer ${token}`;
    const request = http.request({ host: '127.0.0.1', port, method, path, headers }, (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, json: text ? JSON.parse(text) : null }));
    });
    request.on('error', reject);
    request.end(payload);
  });
}

/** Starts `src/<entry>` (api.ts: an API process, worker.ts: a job worker, main.ts: the supervisor) with only the given environment. */
export function start(env: Record<string, string>, entry = 'src/api.ts') {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: serverDir,
    env: { PATH: process.env['PATH'] ?? '', LOG_LEVEL: 'info', WEB_DIST: '/nonexistent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  // Waits for as long as it takes — a busy machine may need minutes to start — and fails at once
  // when the process exits first; the test runner's timeout bounds the whole test.
  const until = <T,>(found: () => T | null, what: string) =>
    new Promise<T>((resolve, reject) => {
      const check = () => {
        const value = found();
        if (value !== null) {
          done();
          resolve(value);
        } else if (child.exitCode !== null) {
          done();
          reject(new Error(`process exited (${child.exitCode}) before ${what}; output:\n${output}`));
        }
      };
      const done = () => {
        child.stdout.off('data', check);
        child.stderr.off('data', check);
        child.off('exit', check);
      };
      child.stdout.on('data', check);
      child.stderr.on('data', check);
      child.on('exit', check);
      check();
    });
  const waitFor = (pattern: RegExp) => until(() => pattern.exec(output), `printing ${pattern}`);
  /** How many requests the server has logged the arrival of, and a wait until it has logged `count`. */
  const arrived = () => output.split('"msg":"incoming request"').length - 1;
  const arrivals = (count: number) => until(() => (arrived() >= count ? true : null), `${count} requests arrived`);
  return { child, exited, waitFor, arrivals, arrived, output: () => output };
}
