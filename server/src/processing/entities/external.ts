/**
 * What the optional extractors hand to extractEntities (docs/processing.md, "Optional
 * extractors"): names and amounts with offsets into the text, each computed from the text by
 * the extractor, never taken from a model's say-so. extractEntities is the one place they meet
 * the rules, the gazetteer and the tenant's model.
 */

/** The optional extractors: a token-classification model (ONNX) and a chat endpoint. */
export type ExtractorName = 'onnx' | 'llm';

interface ExternalSpan {
  /** UTF-16 offsets into the text given to extractEntities, end exclusive. */
  start: number;
  end: number;
  /** 0..1 */
  confidence: number;
  source: ExtractorName;
}

export interface ExternalName extends ExternalSpan {
  type: 'PER' | 'ORG';
}

export interface ExternalMoney extends ExternalSpan {
  type: 'MONEY';
  money: { amount: number; currency: string };
}

export type ExternalEntity = ExternalName | ExternalMoney;

/** The signal-aware error an extractor throws when it was stopped: never a reason to fall back. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('Extraction was stopped');
}
