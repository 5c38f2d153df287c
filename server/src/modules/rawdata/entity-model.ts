/**
 * Each tenant's learnt entity model (processing/entities TenantModel), kept in entity_models.
 *
 * Its training data are the tenant's review decisions, read from what review already keeps:
 * every suggested organization or person carries its provenance (the snippet and where the
 * mention is in it); once reviewed, the record is `active` (accepted — or merged into a
 * record, which takes the provenance) or `rejected`. An accepted record whose name differs
 * from the mention is an edit: the model learns the name as corrected. Nothing extra is
 * recorded at review time, so no decision is ever missed.
 *
 * The model is retrained when processing finds the decisions changed since it was trained
 * (a digest of them); each engine (TenantModels, engine.ts) looks at the decisions at most every
 * MODEL_RECHECK_MS per tenant, so the items processed half a minute after a review benefit from it.
 */
import { sql } from 'drizzle-orm';
import { query } from '../../db/client.ts';
import type { EngineContext } from '../../resources/context.ts';
import type { ReviewDecision, TenantModel } from '../../processing/entities/model.ts';

/** The most recent decisions a model is trained on. */
export const MAX_TRAINING_DECISIONS = 5_000;

interface DecisionRow {
  type: 'PER' | 'ORG';
  snippet: string;
  start: number;
  end: number;
  status: 'active' | 'rejected';
  name: string | null;
}

/** The tenant's decisions, newest first (a reviewed suggestion's provenance from raw data). */
async function reviewDecisions(ctx: EngineContext): Promise<DecisionRow[]> {
  const reviewed = (table: 'organizations' | 'people', type: 'ORG' | 'PER') => sql`
    SELECT ${type}::text AS type, p.snippet, p.start_offset - p.snippet_start AS start, p.end_offset - p.snippet_start AS "end",
           r.status, r.display_name AS name, p.created_at, p.id
    FROM suggestion_provenance p JOIN ${sql.identifier(table)} r ON r.id = p.record_id
    WHERE p.resource = ${table} AND p.source_kind = 'raw_data' AND p.snippet_start IS NOT NULL
      AND p.start_offset >= p.snippet_start AND p.end_offset <= p.snippet_start + length(p.snippet)
      AND r.status IN ('active', 'rejected')`;
  return query<DecisionRow>(ctx.tx, sql`
    SELECT type, snippet, start, "end", status, name FROM (${reviewed('organizations', 'ORG')} UNION ALL ${reviewed('people', 'PER')}) decisions
    ORDER BY created_at DESC, id LIMIT ${MAX_TRAINING_DECISIONS}`);
}

/** What the model is trained from: a decision per reviewed mention. */
export function toTrainingDecisions(rows: DecisionRow[]): ReviewDecision[] {
  return rows.map((row) => {
    const mention = row.snippet.slice(row.start, row.end);
    const corrected = row.status === 'active' && row.name && row.name.trim() !== mention.trim() ? row.name.trim() : undefined;
    return { text: row.snippet, start: row.start, end: row.end, type: row.type, accepted: row.status === 'active', ...(corrected ? { correctedName: corrected } : {}) };
  });
}

/** A digest of the decisions: the model is stale when it was trained on others. */
function digestOf(rows: DecisionRow[]): string {
  let hash = 0x811c9dc5;
  for (const row of rows) {
    for (const part of [row.type, row.status, row.name ?? '', String(row.start), String(row.end), row.snippet]) {
      for (let i = 0; i < part.length; i += 1) hash = Math.imul(hash ^ part.charCodeAt(i), 0x01000193) >>> 0;
      hash = Math.imul(hash ^ 0x1f, 0x01000193) >>> 0;
    }
  }
  return `${rows.length}:${hash.toString(16)}`;
}

/**
 * The tenants' models an engine used lately, each reused for MODEL_RECHECK_MS. One per engine
 * (engine.ts): it holds what one database says, and two databases may hold the same tenant id.
 */
export class TenantModels {
  private readonly recent = new Map<string, { model: TenantModel | null; until: number }>();

  /**
   * The tenant's model, retrained first when its decisions changed; null while the tenant has
   * reviewed nothing (the rules work alone).
   */
  async load(ctx: EngineContext): Promise<TenantModel | null> {
    const tenantId = ctx.actor.tenantId;
    const now = Date.now();
    const cached = this.recent.get(tenantId);
    if (cached && cached.until > now) return cached.model;
    const model = await freshModel(ctx);
    this.recent.delete(tenantId);
    this.recent.set(tenantId, { model, until: now + MODEL_RECHECK_MS });
    // Maps keep insertion order: the first key is the longest unchecked.
    if (this.recent.size > MAX_CACHED_MODELS) this.recent.delete(this.recent.keys().next().value!);
    return model;
  }
}

/**
 * How long a process reuses a tenant's model before reading its decisions again. Reading them
 * joins the tenant's raw-data provenance with its records — unreviewed suggestions included — so
 * doing it for every item made processing quadratic (docs/BENCHMARKS.md, "Processing 1,000
 * documents": 800 s instead of 227 s); a review now reaches the model within this time.
 */
export const MODEL_RECHECK_MS = 30_000;
const MAX_CACHED_MODELS = 1_000;

/** The tenant's model as its decisions say now (retrained and stored when they changed). */
export async function freshModel(ctx: EngineContext): Promise<TenantModel | null> {
  const rows = await reviewDecisions(ctx);
  if (rows.length === 0) return null;
  // Loaded here, in the process that processes (the API only keeps the engine's cache of models).
  const { MODEL_VERSION, TenantModel } = await import('../../processing/entities/model.ts');
  const digest = digestOf(rows);
  const [stored] = await query<{ model: unknown; decisions_digest: string }>(ctx.tx, sql`SELECT model, decisions_digest FROM entity_models`);
  // A model saved by an earlier version reads features differently: trained again.
  if (stored && stored.decisions_digest === digest && savedVersion(stored.model) === MODEL_VERSION) return TenantModel.fromJSON(stored.model);
  const model = new TenantModel();
  model.train(toTrainingDecisions(rows));
  await query(ctx.tx, sql`
    INSERT INTO entity_models (tenant_id, model, decisions, decisions_digest, trained_at)
    VALUES (app_tenant_id(), ${JSON.stringify(model.toJSON())}::jsonb, ${rows.length}, ${digest}, now())
    ON CONFLICT (tenant_id) DO UPDATE SET model = EXCLUDED.model, decisions = EXCLUDED.decisions,
      decisions_digest = EXCLUDED.decisions_digest, trained_at = EXCLUDED.trained_at`);
  return model;
}

const savedVersion = (model: unknown) => (model && typeof model === 'object' ? (model as { version?: unknown }).version : undefined);
