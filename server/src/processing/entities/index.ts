/**
 * The offline entity extractor: people, organizations, money, dates,
 * e-mails, phones, URLs, and the tenant's geos and keywords, from plain text.
 * A pure library: the caller brings the tenant's gazetteer and model, and the
 * optional extractors' findings (extractors.ts), off unless configured.
 * How it works: docs/processing.md, "Entities from text".
 */
export { extractEntities, DEFAULT_MAX_CHARS } from './extract.ts';
export { RULE_THRESHOLD } from './names.ts';
export type { ExtractOptions, LedgerCandidate, Mention, MentionType } from './extract.ts';
export type { DealKind, DealRole } from './deals.ts';
export { Gazetteer, buildGazetteer } from './gazetteer.ts';
export type { GazetteerEntry, GazetteerMatch, GazetteerType } from './gazetteer.ts';
export { TenantModel, MIN_EXAMPLES, MODEL_VERSION } from './model.ts';
export type { ReviewDecision, TenantModelJSON } from './model.ts';
export { foldName, normalizeName, normalizeOrganizationName, normalizePersonName } from './normalize.ts';
export { normalizeUrl } from './patterns.ts';
export { OptionalExtractors, createOptionalExtractors } from './extractors.ts';
export type { EntityExtractor, ExtractorLog, ExtractorOutcome, ExtractorResult, OptionalExtractorSettings } from './extractors.ts';
export type { ExternalEntity, ExternalMoney, ExternalName, ExtractorName } from './external.ts';
export { LlmEntityExtractor } from './llm.ts';
export type { LlmSettings } from './llm.ts';
export { ModelFolderError, OnnxNameExtractor, readModelFolder } from './onnx.ts';
