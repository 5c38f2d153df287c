/**
 * The optional extractors (docs/processing.md, "Optional extractors"), off unless configured:
 * a token-classification model in ONNX format read from a local folder (./onnx.ts) and an
 * OpenAI-compatible chat endpoint (./llm.ts). Each gives names (and the endpoint amounts)
 * with offsets it computed from the text; extractEntities merges them with the rules'
 * (ExtractOptions.external). Any failure of one — a model that does not load, an endpoint that
 * is slow, down or answers nonsense — leaves the rules (and the other) to do the work, with
 * the reason logged and returned.
 */
import type { ExternalEntity, ExtractorName } from './external.ts';
import { LlmEntityExtractor, type LlmSettings } from './llm.ts';
import { OnnxNameExtractor, readModelFolder } from './onnx.ts';

export interface ExtractorResult {
  entities: ExternalEntity[];
  /** What the extractor was told but did not take, and why ("a name not in the text: …"). */
  dropped?: string[];
}

export interface EntityExtractor {
  readonly name: ExtractorName;
  /** Throws when it cannot answer; stops (throws the signal's reason) when `signal` aborts. */
  extract(text: string, signal?: AbortSignal): Promise<ExtractorResult>;
}

/** What one extractor did for one text: shown with the job. */
export interface ExtractorOutcome {
  extractor: ExtractorName;
  entities: number;
  dropped?: number;
  /** Why it gave nothing and the rules stood alone. */
  fallback?: string;
}

/** pino's shape. */
export interface ExtractorLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export interface OptionalExtractorSettings {
  /** Folder of the ONNX model; null: none. */
  modelDir: string | null;
  /** Characters of a text the model reads (from its start). */
  modelMaxChars: number;
  llm: LlmSettings | null;
}

export class OptionalExtractors {
  constructor(
    readonly extractors: EntityExtractor[],
    private readonly log: ExtractorLog,
  ) {}

  get configured(): boolean {
    return this.extractors.length > 0;
  }

  /**
   * Every configured extractor over the text, side by side. Never fails for an extractor's
   * sake: one that throws gives nothing (the reason is logged and in its outcome). Only an
   * aborted `signal` (the job's time limit) throws.
   */
  async run(text: string, signal?: AbortSignal): Promise<{ entities: ExternalEntity[]; outcomes: ExtractorOutcome[] }> {
    const results = await Promise.all(
      this.extractors.map(async (extractor): Promise<{ entities: ExternalEntity[]; outcome: ExtractorOutcome }> => {
        try {
          const result = await extractor.extract(text, signal);
          const dropped = result.dropped ?? [];
          if (dropped.length > 0) {
            this.log.info({ extractor: extractor.name, dropped: dropped.slice(0, 20), count: dropped.length }, `entities: the ${extractor.name} extractor's answer had parts not taken`);
          }
          return { entities: result.entities, outcome: { extractor: extractor.name, entities: result.entities.length, ...(dropped.length ? { dropped: dropped.length } : {}) } };
        } catch (error) {
          if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : error;
          const reason = error instanceof Error ? error.message : String(error);
          this.log.warn({ extractor: extractor.name, reason }, `entities: the ${extractor.name} extractor failed; the rules stand without it`);
          return { entities: [], outcome: { extractor: extractor.name, entities: 0, fallback: reason } };
        }
      }),
    );
    return { entities: results.flatMap((result) => result.entities), outcomes: results.map((result) => result.outcome) };
  }
}

/**
 * The extractors the settings ask for. The model folder is checked now (its files, labels and
 * vocabulary: throws ModelFolderError naming the problem) but onnxruntime is loaded on the
 * first text; with no settings, nothing is loaded at all.
 */
export function createOptionalExtractors(settings: OptionalExtractorSettings, log: ExtractorLog): OptionalExtractors {
  const extractors: EntityExtractor[] = [];
  if (settings.modelDir) extractors.push(new OnnxNameExtractor(readModelFolder(settings.modelDir), { maxChars: settings.modelMaxChars }));
  if (settings.llm) extractors.push(new LlmEntityExtractor(settings.llm));
  return new OptionalExtractors(extractors, log);
}
