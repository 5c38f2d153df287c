/**
 * Test support for the live event stream: a fake fetch whose answers a test scripts one by one
 * (an open stream it writes to, an HTTP status, a network error), and the browser globals the
 * reader uses (window's timers, document's visibility listeners) on Node.
 */
import { after, before, mock } from 'node:test';

/**
 * Installs the globals for the calling test file's tests and removes them after: a test worker
 * runs other files in the same process (scripts/test-shard.mjs), where a fake `window` or
 * `document` would mislead libraries that look for a browser (MUI, pdf.js).
 */
export function useBrowserGlobals(): void {
  const fakes = {
    window: globalThis,
    document: { hidden: false, addEventListener: () => undefined, removeEventListener: () => undefined },
  };
  before(() => {
    Object.assign(globalThis, fakes);
  });
  after(() => {
    for (const name of Object.keys(fakes)) Reflect.deleteProperty(globalThis, name);
  });
}

/** Lets pending promise callbacks run (fetch answers, stream reads). */
export const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** An open event stream the test writes to and ends. */
export class FakeStream {
  private controller!: ReadableStreamDefaultController<Uint8Array>;
  readonly body = new ReadableStream<Uint8Array>({ start: (controller) => void (this.controller = controller) });

  write(text: string): void {
    this.controller.enqueue(new TextEncoder().encode(text));
  }

  event(id: number, name: string, payload: unknown): void {
    this.write(`id: ${id}\nevent: ${name}\ndata: ${JSON.stringify(payload)}\n\n`);
  }

  end(): void {
    this.controller.close();
  }

  drop(): void {
    this.controller.error(new TypeError('network error'));
  }
}

export type Answer = FakeStream | number | 'network-error';

export interface FakeFetch {
  fetch: typeof fetch;
  /** Every request made, in order. */
  requests: { url: string; headers: Record<string, string>; signal: AbortSignal }[];
  /** Scripts the answers of the next requests; a request beyond them fails as a network error. */
  answer(...answers: Answer[]): void;
}

export function fakeFetch(): FakeFetch {
  const queue: Answer[] = [];
  const requests: FakeFetch['requests'] = [];
  const fetch = mock.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    requests.push({ url: String(input), headers: { ...(init?.headers as Record<string, string>) }, signal: init!.signal! });
    const answer = queue.shift() ?? 'network-error';
    if (answer === 'network-error') throw new TypeError('fetch failed');
    if (typeof answer === 'number') return new Response(JSON.stringify({ detail: 'refused' }), { status: answer, headers: { 'content-type': 'application/json' } });
    return new Response(answer.body, { status: 200, headers: { 'content-type': 'text/event-stream; charset=utf-8' } });
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, requests, answer: (...answers) => void queue.push(...answers) };
}
