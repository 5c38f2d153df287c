/**
 * Intelbooks beyond the engine's CRUD (docs/intelbooks.md): moving a subtree and reordering
 * siblings (each one transaction under the tree lock, with history), a subtree's size before
 * it is deleted, the reader (facts/view) and share codes (s/:code). Every operation takes
 * `{ tx, actor }` (docs/engine.md); writes go through the engine's write, so the declaration's
 * hooks (facts.resource.ts) keep the tree's rules whoever calls.
 */
import { randomBytes } from 'node:crypto';
import type { FactPeriod, FactsView, FactTree, RelatedRef, ShareCode, ShareCodeCreated, SharedFacts } from '../../contracts.ts';
import { atLeast } from '../../auth/access.ts';
import { ApiError, fieldError, itemError, notFound } from '../../http/errors.ts';
import { writeAudit } from '../../resources/audit.ts';
import type { Catalog } from '../../resources/catalog.ts';
import { responsibleUser, type EngineContext } from '../../resources/context.ts';
import type { Visibility } from '../../resources/fields.ts';
import type { ResultPage } from '../../resources/list-query.ts';
import { relatedRefs } from '../../resources/relations.ts';
import { isUuid, ResourceService } from '../../resources/service.ts';
import { formatIncompleteDate } from '../../resources/values.ts';
import { visibleTo } from '../../resources/visibility.ts';
import { facts } from './facts.resource.ts';
import * as repo from './facts.repository.ts';

/** At most this many siblings are reordered by one request. */
export const MAX_REORDER = 2000;
/** Share codes: 10 random bytes (80 bits) as 16 characters of RFC 4648 base32, lower case. */
const CODE_BYTES = 10;
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
const CODE_SHAPE = /^[a-z2-7]{16}$/;

const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());

/** A new share code: 80 bits from the system's CSPRNG. */
export function newShareCode(): string {
  const bytes = randomBytes(CODE_BYTES);
  let bits = 0;
  let value = 0;
  let code = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      code += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return code;
}

export class FactsService {
  readonly facts: ResourceService;

  constructor(private readonly catalog: Catalog) {
    this.facts = new ResourceService(facts, catalog);
  }

  /** GET facts/{id}/subtree-count/: the fact and its descendants the caller sees (shown before a delete). */
  async subtreeCount({ tx, actor }: EngineContext, factId: string): Promise<{ count: number }> {
    const fact = await this.facts.findVisible(tx, actor.access, factId);
    return { count: await repo.subtreeCount(tx, fact.id, visibleTo(actor.access)) };
  }

  /**
   * POST facts/{id}/move/ {parent, position, section?}: the fact (with its subtree) under
   * `parent` (null: a root of `section`, its current one by default) at `position` among its
   * new siblings, who are renumbered, as are the ones it left. One transaction under the tree
   * lock; the engine's write applies the tree's rules and records the move in the history.
   */
  async move(ctx: EngineContext, factId: string, body: unknown): Promise<Record<string, unknown>> {
    const { tx, actor } = ctx;
    this.facts.assertMayWrite(actor);
    const input = parseMove(body);
    await repo.lockTree(tx, actor.tenantId);
    const current = await this.facts.findVisible(tx, actor.access, factId);
    if (input.parent !== null && (await repo.isInSubtree(tx, current.id, input.parent))) {
      throw fieldError('parent', 'A fact cannot be moved under itself or one of its own descendants.');
    }
    const fromParent = str(current['parent']);
    const fromSection = str(current['section']);
    const section = input.parent ? null : (input.section ?? fromSection);
    const siblings = await repo.siblingIds(tx, input.parent, section, current.id);
    const place = Math.min(input.position, siblings.length);
    const values: Record<string, unknown> = { parent: input.parent, position: place };
    if (!input.parent && input.section) values['section'] = input.section;
    await this.facts.write(ctx, current, this.facts.parseInput(values, current, actor.access));
    siblings.splice(place, 0, current.id);
    const userId = responsibleUser(actor)?.id ?? null;
    const renumbered = await repo.renumber(tx, siblings, userId);
    if (fromParent !== input.parent || (!fromParent && fromSection !== section)) {
      renumbered.push(...(await repo.renumber(tx, await repo.siblingIds(tx, fromParent, fromParent ? null : fromSection), userId)));
    }
    await this.auditPositions(ctx, renumbered.filter((change) => change.id !== current.id));
    return this.facts.get(ctx, current.id);
  }

  /**
   * POST facts/reorder/ {parent, section?, ids}: the children of `parent` (or the roots of
   * `section`) in the order of `ids`, which must name exactly those facts.
   */
  async reorder(ctx: EngineContext, body: unknown): Promise<{ ids: string[] }> {
    const { tx, actor } = ctx;
    this.facts.assertMayWrite(actor);
    const input = parseReorder(body);
    await repo.lockTree(tx, actor.tenantId);
    if (input.parent && !(await repo.factNode(tx, input.parent))) throw fieldError('parent', `Unknown fact id ${input.parent}.`);
    const siblings = await repo.siblingIds(tx, input.parent, input.parent ? null : input.section);
    const known = new Set(siblings);
    const stranger = input.ids.findIndex((value) => !known.has(value));
    if (stranger >= 0) throw itemError('ids', stranger, `${input.ids[stranger]} is not one of the facts being ordered.`);
    const missing = siblings.filter((value) => !input.ids.includes(value));
    if (missing.length > 0) {
      throw fieldError('ids', `Name every one of the ${siblings.length} facts being ordered; missing: ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? '…' : ''}.`);
    }
    await this.auditPositions(ctx, await repo.renumber(tx, input.ids, responsibleUser(actor)?.id ?? null));
    return { ids: input.ids };
  }

  private async auditPositions(ctx: EngineContext, changes: repo.PositionChange[]): Promise<void> {
    for (const change of changes) {
      await writeAudit(ctx.tx, {
        actor: ctx.actor, resource: facts.kind, recordId: change.id, action: 'update', displayName: change.display_name,
        changes: { position: { from: change.from, to: change.to } }, bulkOperationId: ctx.bulkOperationId,
      });
    }
  }

  /** GET facts/view/: the reader (see repo.readTree), grouped by section and category. */
  async view(ctx: EngineContext, query: repo.TreeQuery): Promise<FactsView> {
    const { trees, locked } = await this.trees(ctx, query);
    const { tx } = ctx;
    const sections = await repo.headings(tx, 'fact_sections', [...new Set(trees.map((tree) => tree.section).filter((id): id is string => id !== null))]);
    const categories = await repo.headings(tx, 'fact_categories', [...new Set(trees.map((tree) => tree.category).filter((id): id is string => id !== null))]);
    const result: FactsView['sections'] = [];
    for (const section of sections) {
      const inSection = trees.filter((tree) => tree.section === section.id);
      const groups = [...categories, { id: null, name: null, description: null }]
        .map((category) => ({ ...category, facts: inSection.filter((tree) => tree.category === category.id).map((tree) => tree.node) }))
        .filter((group) => group.facts.length > 0);
      if (groups.length > 0) result.push({ ...section, categories: groups });
    }
    return { sections: result, locked_count: locked };
  }

  /**
   * GET facts/shared/{code}/: the code's subtree as the viewer's own audience sees it (a code
   * never shows more), counted as a view. Unknown, revoked and expired codes are a 404, as are
   * codes of another tenant (the host's tenant is the transaction's) and a fact hidden from
   * the viewer; behind the paywall the root is null and `locked_count` says how much is there.
   */
  async shared(ctx: EngineContext, code: string): Promise<SharedFacts> {
    const gone = () => notFound('This share code does not exist, was revoked or has expired.');
    if (!CODE_SHAPE.test(code)) throw gone();
    const opened = await repo.openShareCode(ctx.tx, code);
    if (!opened) throw gone();
    const { trees, locked } = await this.trees(ctx, { root: opened.fact_id });
    const root = trees[0]?.node ?? null;
    // Nothing at all for this audience (a hidden fact): the view is not counted (rolled back).
    if (!root && locked === 0) throw gone();
    return { root, locked_count: locked, expires_at: iso(opened.expires_at) };
  }

  /** The trees the reader sees (tops in order, each with its section and category), and the facts the paywall hides. */
  private async trees({ tx, actor }: EngineContext, query: repo.TreeQuery): Promise<{ trees: Array<{ node: FactTree; section: string | null; category: string | null }>; locked: number }> {
    const access = actor.access;
    const visible = visibleTo(access);
    // A public visitor's walk goes on through paywalled facts, to count what the paywall hides.
    const reach: Visibility[] = access === 'public' ? ['public', 'paywalled'] : visible;
    const targets = {
      keyword: this.catalog.get('keyword'),
      organization: this.catalog.get('organizations'),
      person: this.catalog.get('people'),
      ledgerEntry: this.catalog.get('ledger_entries'),
    };
    const rows = await repo.readTree(tx, targets, visible, reach, query);
    const readsRawData = atLeast(access, 'research');
    const shown = rows.filter((row) => !row.locked);
    const related = await relatedRefs(tx, this.catalog, facts, access, shown.map((row) => ({
      keywords: row.keywords, organizations: row.organizations, people: row.people, ledger_entries: row.ledger_entries,
      sources_library: row.sources_library, sources_raw_data: readsRawData ? row.sources_raw_data : [],
    })));
    const refs = (ids: string[]): RelatedRef[] => ids.map((id) => related.get(String(id))).filter((ref): ref is RelatedRef => ref !== undefined);
    const nodes = new Map<string, FactTree>();
    for (const row of shown) {
      const node: FactTree = {
        id: row.id,
        text: row.text ?? '',
        visibility: row.visibility,
        position: row.position,
        ...period(row),
        keywords: refs(row.keywords),
        organizations: refs(row.organizations),
        people: refs(row.people),
        ledger_entries: refs(row.ledger_entries),
        sources_library: refs(row.sources_library),
        ...(readsRawData ? { sources_raw_data: refs(row.sources_raw_data) } : {}),
        source_urls: row.source_urls ?? [],
        locked_children: 0,
        children: [],
      };
      nodes.set(row.id, node);
    }
    const trees: Array<{ node: FactTree; section: string | null; category: string | null }> = [];
    let locked = 0;
    const read = new Set(rows.map((row) => row.id));
    // Rows come in sibling order, so children are appended in order.
    for (const row of rows) {
      const parent = row.parent ? nodes.get(row.parent) : undefined;
      if (row.locked) {
        locked += 1;
        if (parent) parent.locked_children += 1;
        continue;
      }
      if (parent) parent.children.push(nodes.get(row.id)!);
      else if (!row.parent || !read.has(row.parent)) trees.push({ node: nodes.get(row.id)!, section: row.section, category: row.category });
    }
    return { trees, locked };
  }

  /** POST facts/{id}/share/ {expires_at?}: a new code for the fact's subtree (a fact may have several). */
  async share(ctx: EngineContext, factId: string, body: unknown): Promise<ShareCodeCreated> {
    const { tx, actor } = ctx;
    this.facts.assertMayWrite(actor);
    const expiresAt = parseExpiry(body);
    const fact = await this.facts.findVisible(tx, actor.access, factId);
    const row = await repo.insertShareCode(tx, actor.tenantId, { factId: fact.id, code: newShareCode(), userId: responsibleUser(actor)?.id ?? null, expiresAt });
    await this.auditShareLink(ctx, fact.id, null, row);
    return { id: row.id, code: row.code, url_path: `/s/${row.code}`, expires_at: iso(row.expires_at) };
  }

  /** GET facts/share-codes/: the tenant's share codes, newest first, with their view counts (one fact's with `fact`). */
  async shareCodes({ tx, actor }: EngineContext, page: { limit: number; offset: number; factId?: string }): Promise<ResultPage<ShareCode>> {
    this.facts.assertMayWrite(actor);
    const { rows, count } = await repo.shareCodes(tx, page);
    return { count, offset: page.offset, limit: page.limit, results: rows.map(presentShareCode) };
  }

  /** DELETE facts/share-codes/{id}/: the code stops working (it stays listed, revoked). */
  async revoke(ctx: EngineContext, codeId: string): Promise<void> {
    this.facts.assertMayWrite(ctx.actor);
    const revoked = isUuid(codeId) ? await repo.revokeShareCode(ctx.tx, codeId) : null;
    if (!revoked) throw notFound('Share code not found.');
    if (revoked.newly_revoked) await this.auditShareLink(ctx, revoked.fact_id, revoked, null);
  }

  /**
   * A share link made or revoked is in the shared fact's history (`share_link`: its path, and
   * when it expires). The code raises nothing — a viewer sees what their own audience may — so
   * the history's readers learn nothing they could not see already.
   */
  private async auditShareLink(ctx: EngineContext, factId: string, from: repo.ShareCodeRow | null, to: repo.ShareCodeRow | null): Promise<void> {
    const link = (row: repo.ShareCodeRow | null) => (row ? `/s/${row.code}${row.expires_at ? ` (expires ${iso(row.expires_at)})` : ''}` : null);
    await writeAudit(ctx.tx, {
      actor: ctx.actor, resource: facts.kind, recordId: factId, action: 'update', displayName: await repo.factDisplayName(ctx.tx, factId),
      changes: { share_link: { from: link(from), to: link(to) } }, bulkOperationId: ctx.bulkOperationId,
    });
  }
}

function presentShareCode(row: repo.ShareCodeRow & { fact_text: string }): ShareCode {
  const expiresAt = iso(row.expires_at);
  return {
    id: row.id,
    code: row.code,
    url_path: `/s/${row.code}`,
    fact: { id: row.fact_id, text: row.fact_text },
    view_count: row.view_count,
    last_viewed_at: iso(row.last_viewed_at),
    created_at: iso(row.created_at)!,
    created_by: row.created_by,
    expires_at: expiresAt,
    expired: expiresAt !== null && new Date(expiresAt).getTime() <= Date.now(),
    revoked: row.revoked_at !== null,
    revoked_at: iso(row.revoked_at),
  };
}

/** The period a fact is true for, as the engine presents incomplete dates ("2019-03" and the flags). */
function period(row: repo.TreeRow): FactPeriod {
  const one = (name: 'valid_from' | 'valid_to') => {
    const day = Boolean(row[`${name}_incomplete_day`]);
    const month = Boolean(row[`${name}_incomplete_month`]);
    const year = Boolean(row[`${name}_incomplete_year`]);
    const date = row[name] ? String(row[name]).slice(0, 10) : null;
    return { value: formatIncompleteDate({ date, incomplete_day: day, incomplete_month: month, incomplete_year: year }), day, month, year };
  };
  const from = one('valid_from');
  const to = one('valid_to');
  return {
    valid_from: from.value, valid_from_incomplete_day: from.day, valid_from_incomplete_month: from.month, valid_from_incomplete_year: from.year,
    valid_to: to.value, valid_to_incomplete_day: to.day, valid_to_incomplete_month: to.month, valid_to_incomplete_year: to.year,
  };
}

function objectBody(body: unknown, example: string): Record<string, unknown> {
  if (body === null || body === undefined) return {};
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError(400, 'invalid', 'The request body must be a JSON object.', { non_field_errors: [`Expected a JSON object like ${example}.`] });
  }
  return body as Record<string, unknown>;
}

function optionalId(value: unknown, name: string): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string' || !isUuid(value.trim())) throw fieldError(name, 'Must be the id of a record or null.');
  return value.trim().toLowerCase();
}

function parseMove(body: unknown): { parent: string | null; position: number; section: string | null } {
  const input = objectBody(body, '{"parent": "…" or null, "position": 0}');
  if (!('parent' in input)) throw fieldError('parent', 'This field is required (null for a top-level fact).');
  const parent = optionalId(input['parent'], 'parent');
  const position = input['position'] ?? 0;
  if (typeof position !== 'number' || !Number.isInteger(position) || position < 0) throw fieldError('position', 'Must be a whole number, 0 or more.');
  return { parent, position, section: optionalId(input['section'], 'section') };
}

function parseReorder(body: unknown): { parent: string | null; section: string | null; ids: string[] } {
  const input = objectBody(body, '{"parent": "…" or null, "section": "…", "ids": ["…"]}');
  const parent = optionalId(input['parent'], 'parent');
  const section = optionalId(input['section'], 'section');
  if (!parent && !section) throw fieldError('section', 'Top-level facts are ordered within a section: name it.');
  const ids = input['ids'];
  if (!Array.isArray(ids) || ids.length === 0) throw fieldError('ids', 'Must be a list of fact ids.');
  if (ids.length > MAX_REORDER) throw fieldError('ids', `Ensure this list has no more than ${MAX_REORDER} items.`);
  const parsed: string[] = [];
  for (const [index, value] of ids.entries()) {
    if (typeof value !== 'string' || !isUuid(value.trim())) throw itemError('ids', index, 'Must be the id of a fact.');
    const id = value.trim().toLowerCase();
    if (parsed.includes(id)) throw itemError('ids', index, `${id} is named twice.`);
    parsed.push(id);
  }
  return { parent, section, ids: parsed };
}

function parseExpiry(body: unknown): Date | null {
  const value = objectBody(body, '{"expires_at": "2030-01-01T00:00:00Z"}')['expires_at'];
  if (value === undefined || value === null || value === '') return null;
  const at = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value.trim()) ? new Date(value.trim()) : null;
  if (!at || Number.isNaN(at.getTime())) throw fieldError('expires_at', 'Must be an ISO 8601 date or date-time.');
  if (at.getTime() <= Date.now()) throw fieldError('expires_at', 'Must be in the future.');
  return at;
}
