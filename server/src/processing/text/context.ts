import type { TextBuilder } from './builder.ts';
import { TextExtractionError, type TextLimits } from './types.ts';

export interface NestedInput {
  bytes: Uint8Array;
  fileName?: string;
  /** The type the container declares (an attachment's Content-Type): a hint, the bytes decide. */
  mime?: string;
}

/** What every format reader gets: the limits, the output, and a way to read what it contains. */
export interface ExtractionContext {
  limits: TextLimits;
  signal: AbortSignal | undefined;
  /** 0 for the file itself, 1 for what it contains, … */
  depth: number;
  out: TextBuilder;
  /** Bytes decompressed so far by every archive of this extraction, nested ones included. */
  budget: { expandedBytes: number };
  /** Progress through this file, 0–1 (reported only for the file itself, not for nested ones). */
  progress(fraction: number): void;
  /** The page count of the file itself (set by the PDF reader at depth 0). */
  setPages(pages: number): void;
  /** Reads a contained file (a zip entry, an attachment) into `out`, as a group labelled `label`. */
  extractNested(input: NestedInput, label: string): Promise<void>;
}

export function abortError(signal: AbortSignal): TextExtractionError {
  const reason: unknown = signal.reason;
  const timedOut = reason instanceof Error && reason.name === 'TimeoutError';
  return new TextExtractionError(
    'aborted',
    timedOut ? 'Reading the file took too long and was stopped' : 'Reading the file was stopped',
    { cause: reason },
  );
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortError(signal);
}

/**
 * `promise`, or an 'aborted' error as soon as `signal` fires (`onAbort` then stops the work
 * behind the promise, where the library allows it).
 */
export async function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined, onAbort?: () => void): Promise<T> {
  if (!signal) return promise;
  throwIfAborted(signal);
  let onSignal: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onSignal = () => {
      onAbort?.();
      reject(abortError(signal));
    };
    signal.addEventListener('abort', onSignal, { once: true });
  });
  try {
    return await Promise.race([promise, aborted]);
  } finally {
    signal.removeEventListener('abort', onSignal!);
    // The losing promise must not surface as an unhandled rejection later.
    promise.catch(() => undefined);
  }
}

/** Lets timers and the abort signal run during a long synchronous-looking loop. */
export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));
