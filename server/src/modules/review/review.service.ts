/**
 * Review of suggestions (docs/review.md): a reviewed resource's suggestions are served by the
 * engine itself, through a view of the resource that reads and writes its suggested rows
 * (resources/resource.ts `reviewView`), so they are listed, searched, filtered, edited and
 * deleted like records. Here: suggesting (with provenance, never a rejected name again),
 * accepting (the suggestion becomes a record, or is merged into one with link_to) and
 * rejecting (remembered by name and source).
 */
import { ApiError, fieldError } from '../../resources/errors.ts';
import type { Catalog } from '../../resources/catalog.ts';
import { responsibleUser, type EngineContext } from '../../resources/context.ts';
import { MergeService } from '../../resources/merge.ts';
import * as repo from '../../resources/repository.ts';
import type { Resource } from '../../resources/resource.ts';
import { isUuid, type ResourceService } from '../../resources/service.ts';
import type { ResourceServices } from '../../resources/services.ts';
import { normalizeName } from '../../resources/values.ts';
import { visibleTo } from '../../resources/visibility.ts';
import {
  insertProvenance,
  lockSuggestionsNamed,
  rejectedPairs,
  rejectionKey,
  rememberRejection,
  reviewRow,
  sourcesOf,
  type ProvenanceInput,
  type SuggestionSource,
} from './review.repository.ts';

/** The reviewed resource a suggestion type code names (SPEC §3: ORG, PER, anything else → the one without a code). */
export function reviewedResourceOf(catalog: Catalog, typeCode: string): Resource {
  const reviewed = catalog.resources.filter((resource) => resource.review);
  const named = reviewed.find((resource) => resource.review!.typeCode === typeCode.trim().toUpperCase());
  const fallback = reviewed.find((resource) => resource.review!.typeCode === undefined);
  if (!named && !fallback) throw new Error(`No reviewed resource takes suggestion type code "${typeCode}".`);
  return (named ?? fallback)!;
}

/**
 * The names a suggestion is remembered by when rejected: its name keys (normalized names),
 * or — for a resource whose names identify nothing (ledger entries) — its first name, normalized.
 */
function reviewNames(resource: Resource, values: Record<string, unknown>): string[] {
  const keys = Array.isArray(values['name_keys']) ? values['name_keys'].filter((key): key is string => typeof key === 'string' && key !== '') : [];
  if (keys.length > 0) return keys;
  const first = resource.identity?.names.map((name) => values[name]).find((value) => typeof value === 'string' && value.trim() !== '');
  const key = typeof first === 'string' ? normalizeName(first) : '';
  return key ? [key] : [];
}

/** Limits of suggestion_provenance (migration 0083's checks). */
export const SNIPPET_MAX = 2_000;
export const SOURCE_KIND_MAX = 50;
const INT_MAX = 2_147_483_647;

const offset = (value: unknown): number | null =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= INT_MAX ? value : null;

/**
 * Provenance as the table holds it, so that one odd mention never aborts the suggestion: the
 * snippet cut to SNIPPET_MAX characters (whole code points, as length() counts them), offsets
 * that are not a valid range dropped, mentions at least 1. A source the table cannot name (an
 * empty or over-long kind, an id that is no uuid) is the suggester's mistake: a 400 naming it.
 */
export function checkedProvenance(found: ProvenanceInput): ProvenanceInput {
  const kind = typeof found.source?.kind === 'string' ? found.source.kind.trim() : '';
  if (kind === '' || kind.length > SOURCE_KIND_MAX) {
    throw fieldError('provenance', `source kind must be 1 to ${SOURCE_KIND_MAX} characters, got ${JSON.stringify(found.source?.kind ?? null)}.`);
  }
  const id = found.source.id ?? null;
  if (id !== null && !isUuid(id)) throw fieldError('provenance', `source id must be a uuid, got ${JSON.stringify(id)}.`);
  const text = typeof found.snippet === 'string' ? found.snippet : '';
  const snippet = text.length <= SNIPPET_MAX ? text : Array.from(text).slice(0, SNIPPET_MAX).join('');
  const [start, end, snippetStart] = [offset(found.start), offset(found.end), offset(found.snippetStart)];
  const range = start !== null && (end === null || end >= start)
    ? { start, end, snippetStart: snippetStart !== null && snippetStart <= start ? snippetStart : null }
    : { start: null, end: null, snippetStart: null };
  const mentions = typeof found.mentions === 'number' && Number.isFinite(found.mentions) ? Math.min(Math.max(Math.floor(found.mentions), 1), INT_MAX) : 1;
  const confidence = typeof found.confidence === 'number' && Number.isFinite(found.confidence) ? Math.min(Math.max(found.confidence, 0), 1) : null;
  return { source: { kind, id }, snippet, ...range, mentions, confidence };
}

/** Whether `name` was rejected as a suggestion of `resource` from `source` (null: suggested without a source). */
export async function isRejected(ctx: EngineContext, resource: Resource, name: string, source: SuggestionSource | null): Promise<boolean> {
  const key = normalizeName(name);
  return key !== '' && (await rejectedPairs(ctx.tx, resource.kind, [{ nameKey: key, source }])).size > 0;
}

/** One suggestion of a batch (ReviewService.suggestMany): its fields, as a create takes them, and where it was found. */
export interface SuggestionInput {
  body: unknown;
  provenance: ProvenanceInput[];
}

/** What became of it: the suggestion it made (`created`) or joined, or null when its name was rejected from all its sources. */
export type SuggestionOutcome = { id: string; created: boolean } | null;

export interface SuggestManyOptions {
  /** Join an unreviewed suggestion of the same name (a name key; for a resource without any, its first name) instead of making another. */
  joinRepeats: boolean;
  /** Make at most this many new suggestions; the rest are left out (null), joins are not counted. */
  maxCreated?: number;
}

export class ReviewService {
  /** The curated records. */
  readonly records: ResourceService;
  /** The suggestions, served at suggested-entities/{segment}/. */
  readonly suggestions: ResourceService;
  private readonly merges: MergeService;

  constructor(
    readonly resource: Resource,
    services: ResourceServices,
  ) {
    this.records = services.get(resource.kind);
    this.suggestions = services.suggestions(resource.kind);
    this.merges = new MergeService(this.records);
  }

  private get label() {
    return this.resource.label.toLowerCase();
  }

  /**
   * Creates a suggestion with where it was found. Sources from which one of its names was
   * rejected before are left out; when none is left (or it has no source and was rejected
   * without one), nothing is suggested and the answer is null.
   */
  async suggest(ctx: EngineContext, body: unknown, provenance: ProvenanceInput[] = []): Promise<Record<string, unknown> | null> {
    const [made] = await this.suggestMany(ctx, [{ body, provenance }], { joinRepeats: false });
    return made ? this.suggestions.get(ctx, made.id) : null;
  }

  /**
   * A suggester's whole batch in one pass (processing an item: docs/processing.md): every
   * body checked, the rejections of every name and source read in one statement, the repeats
   * (unreviewed suggestions of the same name) found and locked in one, new suggestions written
   * through the engine (history, counters, hooks), and all the provenance inserted in one.
   * Answers each input's outcome, in order. A name twice in the batch is one suggestion.
   */
  async suggestMany(ctx: EngineContext, inputs: SuggestionInput[], options: SuggestManyOptions): Promise<SuggestionOutcome[]> {
    const parsed = inputs.map((one) => {
      const input = this.suggestions.parseInput(one.body, null, ctx.actor.access);
      return { input, names: reviewNames(this.resource, input.values), provenance: one.provenance.map(checkedProvenance) };
    });
    const rejected = await rejectedPairs(ctx.tx, this.resource.kind, parsed.flatMap(({ names, provenance }) =>
      names.flatMap((nameKey) => (provenance.length > 0 ? provenance.map((found): SuggestionSource | null => found.source) : [null]).map((source) => ({ nameKey, source })))));
    const isRejectedFrom = (names: string[], source: SuggestionSource | null) => names.some((nameKey) => rejected.has(rejectionKey(nameKey, source)));
    const repeats = options.joinRepeats ? await this.lockRepeats(ctx, parsed.map(({ input }) => input.values)) : null;

    const outcomes: SuggestionOutcome[] = [];
    const provenance: Array<{ recordId: string; provenance: ProvenanceInput }> = [];
    let created = 0;
    for (const { input, names, provenance: found } of parsed) {
      const kept = found.filter((one) => !isRejectedFrom(names, one.source));
      if (found.length > 0 ? kept.length === 0 : isRejectedFrom(names, null)) {
        outcomes.push(null);
        continue;
      }
      let outcome: SuggestionOutcome = repeats ? (repeats.find(input.values) ?? null) : null;
      if (!outcome && created < (options.maxCreated ?? Infinity)) {
        const row = await this.suggestions.write(ctx, null, input);
        created += 1;
        outcome = { id: row.id, created: true };
        repeats?.add(input.values, row.id);
      }
      outcomes.push(outcome);
      if (outcome) provenance.push(...kept.map((one) => ({ recordId: outcome.id, provenance: one })));
    }
    await insertProvenance(ctx.tx, ctx.actor.tenantId, this.resource.kind, provenance);
    return outcomes;
  }

  /**
   * The unreviewed suggestions the batch's names repeat, locked, and a lookup of each body's
   * (the oldest first), which the suggestions the batch makes join. A resource whose names
   * identify nothing (no name keys: ledger entries) is repeated by the same first name.
   */
  private async lockRepeats(ctx: EngineContext, bodies: Array<Record<string, unknown>>) {
    const keysOf = (values: Record<string, unknown>) => (Array.isArray(values['name_keys']) ? (values['name_keys'] as string[]) : []);
    const nameColumn = this.resource.identity?.names[0];
    const byName = !bodies.some((values) => keysOf(values).length > 0) && nameColumn;
    const rows = byName
      ? await lockSuggestionsNamed(ctx.tx, this.resource, { column: nameColumn, values: bodies.map((values) => values[nameColumn]).filter((value): value is string => typeof value === 'string') })
      : await lockSuggestionsNamed(ctx.tx, this.resource, { nameKeys: [...new Set(bodies.flatMap(keysOf))] });
    const known = new Map<string, string>();
    const remember = (values: Record<string, unknown>, id: string) => {
      const keys = byName ? [String(values[nameColumn] ?? '')] : keysOf(values);
      for (const key of keys) if (key && !known.has(key)) known.set(key, id);
    };
    for (const row of rows) remember(row, row.id);
    return {
      find: (values: Record<string, unknown>): SuggestionOutcome => {
        const keys = byName ? [String(values[nameColumn] ?? '')] : keysOf(values);
        const id = keys.map((key) => known.get(key)).find((one) => one !== undefined);
        return id ? { id, created: false } : null;
      },
      add: remember,
    };
  }

  /**
   * POST assets/{segment}/{id}/accept_suggestion/: the suggestion becomes a record, with its
   * provenance — or, with `link_to`, is merged into that record (its empty fields filled, its
   * lists joined, the provenance moved; undoable like any merge). Answers the record.
   */
  async accept(ctx: EngineContext, suggestionId: string, linkTo: string | null): Promise<Record<string, unknown>> {
    const { tx, actor } = ctx;
    const suggestion = await this.suggestions.findVisible(tx, actor.access, suggestionId);
    if (linkTo !== null) {
      const target = isUuid(linkTo) ? await repo.selectOne(tx, this.resource, visibleTo(actor.access), linkTo) : null;
      if (!target) throw fieldError('link_to', `Unknown ${this.label} id ${linkTo}.`);
      return (await this.merges.merge(ctx, target.id, { other: suggestion.id }, { others: this.suggestions })).record;
    }
    await this.setStatus(ctx, suggestion, 'active');
    return this.records.get(ctx, suggestion.id);
  }

  /** POST assets/{segment}/{id}/reject_suggestion/: rejected, and its names never suggested again from its sources. */
  async reject(ctx: EngineContext, suggestionId: string): Promise<void> {
    const { tx, actor } = ctx;
    const suggestion = await this.suggestions.findVisible(tx, actor.access, suggestionId);
    const sources = await sourcesOf(tx, this.resource.kind, suggestion.id);
    // Name keys are not read with the row: derived again, as a write derives them.
    const names = reviewNames(this.resource, { ...suggestion, ...this.suggestions.parseInput({}, suggestion).values });
    await rememberRejection(tx, actor.tenantId, this.resource.kind, names, sources.length > 0 ? sources : [null], suggestion.id, responsibleUser(actor)?.id ?? null);
    await this.setStatus(ctx, suggestion, 'rejected');
  }

  /** Moves a suggestion to another status: it leaves the suggestions (counters follow), and its history says so. */
  private async setStatus(ctx: EngineContext, suggestion: repo.Row, status: 'active' | 'rejected'): Promise<void> {
    // Accepted or rejected concurrently: the other decision stands.
    if (!(await reviewRow(ctx.tx, this.resource, suggestion.id, status, responsibleUser(ctx.actor)?.id ?? null))) {
      throw new ApiError(409, 'conflict', `This suggested ${this.label} was just reviewed; reload.`);
    }
    await this.records.audit(ctx, 'update', suggestion.id, suggestion['display_name'], { status: { from: 'suggested', to: status } });
  }
}

/** One ReviewService per reviewed resource, built once (by the engine) on its resource services. */
export class ReviewServices {
  private readonly byKind = new Map<string, ReviewService>();

  constructor(readonly services: ResourceServices) {
    for (const resource of services.catalog.resources) if (resource.review) this.byKind.set(resource.kind, new ReviewService(resource, services));
  }

  /** Every reviewed resource's, in catalog order. */
  all(): ReviewService[] {
    return [...this.byKind.values()];
  }

  /** The service of the reviewed resource a suggestion type code names (reviewedResourceOf). */
  byTypeCode(typeCode: string): ReviewService {
    return this.byKind.get(reviewedResourceOf(this.services.catalog, typeCode).kind)!;
  }
}
