/**
 * Writes what processing found in an item, in the transaction that completes it
 * (docs/processing.md "Suggestions"):
 *
 * 1. What an earlier processing of the item wrote goes: its entities, and its provenance on
 *    suggestions nobody reviewed yet — a suggestion left with no provenance at all goes too, once
 *    the new findings are written (a name found again joins its suggestion: same id, not
 *    announced again). Reviewed ones (accepted, rejected) keep theirs: a decision is never
 *    undone by reprocessing.
 * 2. Every distinct entity is recorded (raw_data_entities): linked to the record it names, or
 *    to the suggestion made of it.
 * 3. People and organizations that name no record become suggestions — or one more source of
 *    a suggestion of the same name, so repeated mentions across items make one suggestion
 *    with all its provenance. A name rejected from this item is not suggested again from it,
 *    nor one found with less confidence than the tenant's threshold (Findings.minConfidence).
 *    Each kind is one batch for review (ReviewService.suggestMany).
 * 4. A deal (an acquisition, merger, funding round or investment), and money near an organization
 *    and a time, becomes a suggested ledger entry naming its parties: records, or the suggestions
 *    step 3 made — one more batch, under the same threshold.
 * 5. SPEC §4's events announce the new suggestions (on commit).
 */
import { sql } from 'drizzle-orm';
import { query } from '../../db/client.ts';
import { publish } from '../../events/bus.ts';
import type { EngineContext } from '../../resources/context.ts';
import type { Resource } from '../../resources/resource.ts';
import { normalizeName } from '../../resources/values.ts';
import { SNIPPET_MAX, type ReviewServices } from '../review/review.service.ts';
import { dropProvenance, lockTenantSuggestions, removeOrphans } from '../review/forget-source.ts';
import type { ProvenanceInput } from '../review/review.repository.ts';
import type { DealRole, LedgerCandidate, Mention } from '../../processing/entities/index.ts';
import type { Findings, LinkedEntity } from './entity-finding.ts';

/** Entities recorded per item at most (the most mentioned first). */
export const MAX_ENTITIES_PER_ITEM = 2_000;
/** Suggestions made per item at most, per kind: a list of ten thousand names is not reviewable. */
export const MAX_SUGGESTIONS_PER_ITEM = 200;
/** How many ids a batch event lists (event-map.ts MAX_BATCH_ITEMS). */
const EVENT_BATCH = 100;

export interface WrittenFindings {
  summary: { entities: number; linked: number; suggested: { organizations: number; people: number; ledger: number } };
}


export async function writeFindings(ctx: EngineContext, reviews: ReviewServices, itemId: string, text: string, findings: Findings): Promise<WrittenFindings> {
  const source = { kind: 'raw_data', id: itemId };
  const organizations = reviews.byTypeCode('ORG');
  const people = reviews.byTypeCode('PER');
  const ledger = reviews.byTypeCode('LEDGER');
  await lockTenantSuggestions(ctx);
  // Step 1 (see the module comment).
  await query(ctx.tx, sql`DELETE FROM raw_data_entities WHERE raw_data_id = ${itemId}`);
  const unsourced = await dropProvenance(ctx, reviews.services, source);

  const entities = [...findings.entities].sort((a, b) => b.mentions.length - a.mentions.length).slice(0, MAX_ENTITIES_PER_ITEM);
  const sure = (confidence: number) => confidence >= findings.minConfidence;
  const suggested = { organizations: [] as Array<{ id: string; name: string }>, people: [] as string[], ledger: 0 };
  for (const [type, review] of [['ORG', organizations], ['PER', people]] as const) {
    const named = entities.filter((entity) => entity.type === type && !entity.record && normalizeName(entity.text) !== '' && sure(confidenceOf(entity.mentions)));
    const outcomes = await review.suggestMany(ctx, named.map((entity) => ({
      body: suggestionBody(review.resource.kind, entity.text, entity.mentions.find((mention) => mention.role)?.role),
      provenance: provenanceOf(text, entity.mentions, source),
    })), { joinRepeats: true, maxCreated: MAX_SUGGESTIONS_PER_ITEM });
    named.forEach((entity, index) => {
      const outcome = outcomes[index];
      if (!outcome) return;
      entity.suggestion = { kind: type === 'ORG' ? 'organizations' : 'people', id: outcome.id };
      if (!outcome.created) return;
      if (type === 'ORG') suggested.organizations.push({ id: outcome.id, name: entity.text.slice(0, 300) });
      else suggested.people.push(outcome.id);
    });
  }
  // Written after the people and organizations: a ledger suggestion names the records its
  // mentions are, or the suggestions just made of them (reviewed alongside it: docs/review.md).
  const entityOf = new Map<Mention, LinkedEntity>();
  for (const entity of entities) for (const mention of entity.mentions) entityOf.set(mention, entity);
  const deals = findings.ledger.slice(0, MAX_SUGGESTIONS_PER_ITEM).filter((candidate) => sure(ledgerConfidence(candidate)));
  const outcomes = await ledger.suggestMany(ctx, deals.map((candidate) => {
    const at = candidate.money ?? candidate.deal!.trigger;
    return {
      body: ledgerBody(ledger.resource, candidate, (mention) => entityOf.get(mention)),
      provenance: [{ source, snippet: clipSnippet(candidate.snippet), start: at.start, end: at.end, snippetStart: candidate.sentence.start, mentions: 1, confidence: ledgerConfidence(candidate) }],
    };
  }), { joinRepeats: true });
  suggested.ledger = outcomes.filter((outcome) => outcome?.created).length;
  await removeOrphans(ctx, reviews.services, unsourced);
  await recordEntities(ctx, itemId, text, entities);
  await announce(ctx, itemId, suggested.organizations, suggested.people);
  return {
    summary: {
      entities: entities.length,
      linked: entities.filter((entity) => entity.record !== null).length,
      suggested: { organizations: suggested.organizations.length, people: suggested.people.length, ledger: suggested.ledger },
    },
  };
}

/**
 * A suggestion's fields from a name: an organization's legal name; a person's given and family
 * names, and — found in a table's role column — the role and the row's organization as their
 * `professional_profile` ("CEO, Orion Freight Holdings": a person has no organization relation).
 */
export function suggestionBody(kind: string, name: string, role?: Mention['role']): Record<string, unknown> {
  const clean = name.replace(/\s+/g, ' ').trim();
  if (kind === 'organizations') return { name_inc: clean.slice(0, 300) };
  const words = clean.split(' ');
  const profile = role ? { professional_profile: [role.title, role.organization].filter(Boolean).join(', ').slice(0, 2000) } : {};
  if (words.length === 1) return { name_family: clean.slice(0, 200), ...profile };
  return { name_given: words.slice(0, -1).join(' ').slice(0, 200), name_family: words.at(-1)!.slice(0, 200), ...profile };
}

/**
 * A ledger suggestion. A deal: "Acquisition of Baltic Rail Logistics by Orion Freight Holdings —
 * USD 420,000,000 (Q2 2025)", its parties as its organizations. Other money: "Org — EUR
 * 45,000,000 (Q2 2024)". Both: the sentence as data, year and quarter, the money as amount and
 * currency (each when the entry can hold it), the people of the sentence; each party and person
 * is the record it names or the suggestion made of it (an entity neither — over the per-item
 * limit, or rejected from this item — is left out).
 */
function ledgerBody(resource: Resource, candidate: LedgerCandidate, entityOf: (mention: Mention) => LinkedEntity | undefined): Record<string, unknown> {
  const money = candidate.money?.money;
  const amount = money ? `${money.currency} ${formatAmount(money.amount)}${money.period ? ` ${money.period}` : ''}` : candidate.money?.text;
  const nameOf = (mention: Mention) => entityOf(mention)?.text ?? mention.text;
  const what = candidate.deal ? dealTitle(candidate.deal, nameOf) : (candidate.organizations[0] ?? candidate.people[0]) && nameOf((candidate.organizations[0] ?? candidate.people[0])!);
  const when = [candidate.quarter ? `Q${candidate.quarter}` : null, candidate.year ?? null].filter(Boolean).join(' ');
  const caption = [what, amount].filter(Boolean).join(' — ') + (when ? ` (${when})` : '');
  const idsOf = (mentions: Mention[]) => [...new Set(mentions.map((mention) => {
    const entity = entityOf(mention);
    return (entity?.record ?? entity?.suggestion)?.id ?? null;
  }).filter((id): id is string => id !== null))];
  const organizations = idsOf(candidate.organizations);
  const people = idsOf(candidate.people);
  return {
    caption: caption.slice(0, 300),
    data: candidate.snippet.slice(0, 20_000),
    ...(candidate.year ? { year: candidate.year } : {}),
    ...(candidate.quarter ? { quarter: `Q${candidate.quarter}` } : {}),
    ...ledgerMoney(resource, money),
    ...(organizations.length > 0 ? { organizations } : {}),
    ...(people.length > 0 ? { people } : {}),
  };
}

/** "Acquisition of T by A", "Merger of A and B", "Funding of R by I and J", "Investment in E by I". */
function dealTitle(deal: NonNullable<LedgerCandidate['deal']>, nameOf: (mention: Mention) => string): string {
  const named = (...roles: DealRole[]) => {
    const names = [...new Set(deal.parties.filter((party) => roles.includes(party.role)).map((party) => nameOf(party.mention)))];
    return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  };
  const phrase = (kind: string, object: string, objectWord: string, subject: string) =>
    [kind, object ? `${objectWord} ${object}` : '', subject ? `by ${subject}` : ''].filter(Boolean).join(' ');
  switch (deal.kind) {
    case 'acquisition':
      return phrase('Acquisition', named('target') || named('seller'), named('target') ? 'of' : 'from', named('acquirer'));
    case 'merger':
      return phrase('Merger', named('party'), 'of', '');
    case 'funding':
      return phrase('Funding', named('recipient'), 'of', named('investor'));
    case 'investment':
      return phrase('Investment', named('investee'), 'in', named('investor'));
  }
}

/**
 * The entry's amount (to the cent) and currency from the money found, each as its field takes
 * it, and left out when the field would refuse it (an amount past its maximum, a currency
 * that is no ISO 4217 code): the suggestion is made without it.
 */
function ledgerMoney(resource: Resource, money: { amount: number; currency: string } | null | undefined): Record<string, unknown> {
  if (!money) return {};
  const taken = (name: string, value: unknown) => {
    const parsed = resource.fields[name]!.parse(value, name);
    return parsed.ok ? parsed.value : {};
  };
  return { ...taken('amount', Math.round(money.amount * 100) / 100), ...taken('currency', money.currency) };
}

function formatAmount(amount: number): string {
  return amount.toLocaleString('en-US', { maximumFractionDigits: 2 });
}

/**
 * Provenance of an entity in one item: its first mention's sentence, how often it is mentioned,
 * and how sure the extractor was of it — of its surest mention (a short form is less sure than
 * the full name it repeats).
 */
function provenanceOf(text: string, mentions: Mention[], source: { kind: string; id: string }): ProvenanceInput[] {
  const first = mentions[0]!;
  const { snippet, snippetStart } = snippetAround(text, first);
  return [{ source, snippet, start: first.start, end: first.end, snippetStart, mentions: mentions.length, confidence: confidenceOf(mentions) }];
}

/** An entity's confidence: its surest mention's (docs/processing.md "Confidence"). */
export const confidenceOf = (mentions: Mention[]): number => Math.max(...mentions.map((mention) => mention.confidence));

/**
 * A ledger suggestion's confidence: a deal's own (its trigger, parties, amount and date); other
 * money near an organization, the less sure of the money and the organization it is about.
 */
function ledgerConfidence(candidate: LedgerCandidate): number {
  if (candidate.deal) return candidate.deal.confidence;
  return Math.min(...[candidate.money, candidate.organizations[0] ?? candidate.people[0]].filter((mention) => mention !== undefined).map((mention) => mention.confidence));
}

/** The mention's sentence, cut to SNIPPET_MAX characters around the mention when longer. */
export function snippetAround(text: string, mention: Mention): { snippet: string; snippetStart: number } {
  let { start, end } = mention.sentence;
  if (end - start > SNIPPET_MAX) {
    start = Math.max(start, mention.start - Math.floor((SNIPPET_MAX - (mention.end - mention.start)) / 2));
    end = Math.min(end, start + SNIPPET_MAX);
  }
  // Never split a surrogate pair at either end.
  if (start > 0 && /[\uDC00-\uDFFF]/.test(text[start]!)) start += 1;
  if (end < text.length && /[\uDC00-\uDFFF]/.test(text[end]!)) end -= 1;
  return { snippet: text.slice(start, end), snippetStart: start };
}

function clipSnippet(snippet: string): string {
  return snippet.length <= SNIPPET_MAX ? snippet : snippet.slice(0, SNIPPET_MAX);
}

/** Step 2: one row per entity, with the record it names or became. */
async function recordEntities(ctx: EngineContext, itemId: string, text: string, entities: LinkedEntity[]): Promise<void> {
  const BATCH = 200;
  for (let i = 0; i < entities.length; i += BATCH) {
    const rows = entities.slice(i, i + BATCH).map((entity) => {
      const first = entity.mentions[0]!;
      const { snippet } = snippetAround(text, first);
      const value = first.money ?? first.date ?? null;
      return sql`(app_tenant_id(), ${itemId}::uuid, ${entity.type}, ${entity.text.slice(0, 500)}, ${entity.normalized.slice(0, 500)}, ${entity.mentions.length}::integer,
                  ${first.start}::integer, ${first.end}::integer, ${snippet}, ${first.confidence}::real, ${value === null ? null : JSON.stringify(value)}::jsonb,
                  ${(entity.record ?? entity.suggestion)?.kind ?? null}, ${(entity.record ?? entity.suggestion)?.id ?? null}::uuid, ${entity.record !== null})`;
    });
    await query(ctx.tx, sql`
      INSERT INTO raw_data_entities (tenant_id, raw_data_id, type, text, normalized, mentions, start_offset, end_offset, snippet, confidence, value, record_kind, record_id, linked)
      VALUES ${sql.join(rows, sql`, `)}`);
  }
}

/** Step 5: new_suggested_organization(s), new_suggested_person/people (SPEC §4). */
async function announce(ctx: EngineContext, itemId: string, organizations: Array<{ id: string; name: string }>, people: string[]): Promise<void> {
  const now = new Date().toISOString();
  if (organizations.length === 1) {
    await publish(ctx, 'new_suggested_organization', { id: organizations[0]!.id, name: organizations[0]!.name, raw_data_id: itemId, updated_at: now });
  } else if (organizations.length > 1) {
    await publish(ctx, 'new_suggested_organizations', { raw_data_id: itemId, count: organizations.length, items: organizations.slice(0, EVENT_BATCH) });
  }
  if (people.length === 1) await publish(ctx, 'new_suggested_person', { id: people[0]!, raw_data_id: itemId, updated_at: now });
  else if (people.length > 1) await publish(ctx, 'new_suggested_people', { raw_data_id: itemId, count: people.length, ids: people.slice(0, EVENT_BATCH) });
}
