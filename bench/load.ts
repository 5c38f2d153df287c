/**
 * A small closed-loop load generator: `concurrency` workers each run one task
 * at a time until `requests` tasks have run (or the time cap is reached), and
 * every task's latency is recorded. Used for HTTP requests and for the same
 * SQL run directly on PostgreSQL, so both sides are measured the same way;
 * batches let a caller alternate the two sides and merge the samples after.
 */
import http from 'node:http';

export interface LoadOptions {
  requests: number;
  concurrency: number;
  /** Stop early (with fewer samples) when a scenario is slower than expected. */
  maxSeconds: number;
  /** Added to each task index, so consecutive batches keep cycling through request variants. */
  firstIndex?: number;
  /** Groups samples (e.g. by search term) for a per-group breakdown. */
  keyOf?: (index: number) => string;
}

/** The raw outcome of one batch; batches of the same side are merged by `summarize`. */
export interface Batch {
  latencies: number[];
  keys: string[];
  errors: number;
  firstError: string | null;
  seconds: number;
}

export interface LatencyStats {
  samples: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export interface LoadResult extends LatencyStats {
  errors: number;
  firstError: string | null;
  rps: number;
  seconds: number;
  byKey: Map<string, LatencyStats>;
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function stats(latencies: number[]): LatencyStats {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    samples: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
  };
}

export async function runBatch(options: LoadOptions, task: (index: number) => Promise<void>): Promise<Batch> {
  const batch: Batch = { latencies: [], keys: [], errors: 0, firstError: null, seconds: 0 };
  const first = options.firstIndex ?? 0;
  let next = 0;
  const started = performance.now();
  const deadline = started + options.maxSeconds * 1000;
  const worker = async () => {
    while (next < options.requests && performance.now() < deadline) {
      const index = first + next++;
      const t0 = performance.now();
      try {
        await task(index);
        batch.latencies.push(performance.now() - t0);
        batch.keys.push(options.keyOf?.(index) ?? '');
      } catch (error) {
        batch.errors += 1;
        batch.firstError ??= error instanceof Error ? error.message : String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  batch.seconds = (performance.now() - started) / 1000;
  return batch;
}

export function summarize(batches: Batch[]): LoadResult {
  const latencies = batches.flatMap((batch) => batch.latencies);
  const byKey = new Map<string, number[]>();
  for (const batch of batches) {
    batch.latencies.forEach((ms, index) => {
      const key = batch.keys[index]!;
      const group = byKey.get(key) ?? [];
      group.push(ms);
      byKey.set(key, group);
    });
  }
  const seconds = batches.reduce((sum, batch) => sum + batch.seconds, 0);
  return {
    ...stats(latencies),
    errors: batches.reduce((sum, batch) => sum + batch.errors, 0),
    firstError: batches.find((batch) => batch.firstError)?.firstError ?? null,
    rps: latencies.length / seconds,
    seconds,
    byKey: new Map([...byKey].map(([key, values]) => [key, stats(values)])),
  };
}

export async function runLoad(options: LoadOptions, task: (index: number) => Promise<void>): Promise<LoadResult> {
  return summarize([await runBatch(options, task)]);
}

export interface HttpResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A keep-alive HTTP client for one server, sized to the load's concurrency. */
export class HttpClient {
  private readonly agent: http.Agent;

  constructor(
    private readonly port: number,
    concurrency: number,
  ) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets: concurrency, maxFreeSockets: concurrency });
  }

  request(
    method: 'GET' | 'POST' | 'PATCH',
    path: string,
    headers: Record<string, string>,
    body?: unknown,
    sink?: (chunk: Buffer) => void,
  ): Promise<HttpResponse> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    return new Promise((resolve, reject) => {
      const request = http.request(
        {
          host: '127.0.0.1',
          port: this.port,
          method,
          path,
          agent: this.agent,
          headers: payload ? { ...headers, 'content-type': 'application/json', 'content-length': payload.length } : headers,
        },
        (response) => {
          // With a sink the body is handed on and dropped (exports); otherwise it is kept.
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => (sink ? sink(chunk) : chunks.push(chunk)));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(payload);
    });
  }

  /** GET that fails unless the status is 200, so errors are counted by the load. */
  async get(path: string, headers: Record<string, string>): Promise<HttpResponse> {
    const response = await this.request('GET', path, headers);
    if (response.status !== 200) {
      throw new Error(`GET ${path} → ${response.status}: ${response.body.toString('utf8').slice(0, 200)}`);
    }
    return response;
  }

  close(): void {
    this.agent.destroy();
  }
}
