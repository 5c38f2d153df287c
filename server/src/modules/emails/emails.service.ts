/**
 * The email list's calls beyond the engine's CRUD (SPEC §7 "Email list", docs/emails.md):
 * adding every address of a pasted text, the typeahead, and who holds an address.
 */
import type { RelatedRef } from '../../contracts.ts';
import { fieldError } from '../../resources/errors.ts';
import { diff, writeAudits } from '../../resources/audit.ts';
import { responsibleUser, type EngineContext } from '../../resources/context.ts';
import type { ResourceService } from '../../resources/service.ts';
import type { ResourceServices } from '../../resources/services.ts';
import { visibleTo } from '../../resources/visibility.ts';
import { organizations } from '../organizations/organizations.resource.ts';
import { people } from '../people/people.resource.ts';
import { addressVariants, isRoleLocalPart, normalizeAddress } from './email-address.ts';
import type { Extraction, FoundAddress, InvalidAddress } from './email-extract.ts';
import { emailList, type EmailSource } from './emails.resource.ts';
import { ensureDomains, existingItems, holdersOf, insertItems, typeahead, type Holder, type NewItem } from './emails.repository.ts';

/** The largest pasted text, in UTF-8 bytes (SPEC §7: up to 1 MB). */
export const RAW_TEXT_MAX_BYTES = 1_048_576;
/** Addresses and invalid candidates one paste may hold: the answer lists each of them. */
export const PARSE_MAX_CANDIDATES = 20_000;
/** Typeahead results (search_input_form). */
export const TYPEAHEAD_LIMIT = 10;

export const DUPLICATE_REASONS = { inList: 'already in the list', repeated: 'repeated in the text' } as const;

interface Position {
  start: number;
  end: number;
  line: number;
}

export interface DuplicateAddress extends Position {
  email: string;
  name: string | null;
  existing_id: string | null;
  reason: (typeof DUPLICATE_REASONS)[keyof typeof DUPLICATE_REASONS];
}

export interface ParseTextResult {
  created: Array<Record<string, unknown> & Position>;
  duplicates: DuplicateAddress[];
  invalid: InvalidAddress[];
  counts: { found: number; created: number; duplicates: number; invalid: number };
}

export class EmailListService {
  readonly items: ResourceService;

  constructor(services: ResourceServices) {
    this.items = services.get(emailList.kind);
  }

  /**
   * Adds the addresses found in a text (email-extract.ts, run before the transaction) in the
   * caller's transaction: new domains and their enrichment jobs, the new items (audited), and
   * for every address found, whether it was created or was a duplicate — of an item in the
   * list or of an earlier place in the text. The name kept for an address is the first one
   * found beside it anywhere in the text.
   */
  async addFound(ctx: EngineContext, extraction: Extraction, source: EmailSource = 'pasted'): Promise<ParseTextResult> {
    this.items.assertMayWrite(ctx.actor);
    const { tx, actor } = ctx;
    const userId = responsibleUser(actor)?.id ?? null;

    const firstOf = new Map<string, FoundAddress>();
    const nameOf = new Map<string, string>();
    for (const found of extraction.found) {
      if (!firstOf.has(found.email)) firstOf.set(found.email, found);
      if (found.name && !nameOf.has(found.email)) nameOf.set(found.email, found.name);
    }
    const domains = await ensureDomains(tx, [...firstOf.values()], userId);
    const wanted: NewItem[] = [...firstOf.values()].map((found) => {
      const domain = domains.get(found.domain)!;
      return {
        email: found.email,
        name: nameOf.get(found.email) ?? null,
        domain: domain.id,
        source,
        is_role: isRoleLocalPart(found.local),
        is_free_mail: domain.isFreeMail,
        is_disposable: domain.isDisposable,
      };
    });
    const rows = await insertItems(tx, emailList, wanted, userId);
    const createdByEmail = new Map(rows.map((row) => [String(row['email']), row]));
    const existing = await existingItems(tx, [...firstOf.keys()].filter((email) => !createdByEmail.has(email)));

    const presented = await this.items.presentRows(tx, actor.access, rows);
    const presentedById = new Map(presented.map((record) => [String(record['id']), record]));
    await writeAudits(tx, actor, presented.map((record) => ({
      resource: emailList.kind,
      recordId: String(record['id']),
      action: 'create' as const,
      displayName: record['display_name'],
      changes: diff(null, record),
    })));

    const created: ParseTextResult['created'] = [];
    const duplicates: DuplicateAddress[] = [];
    const seen = new Set<string>();
    for (const found of extraction.found) {
      const position = { start: found.start, end: found.end, line: found.line };
      const row = createdByEmail.get(found.email);
      if (!seen.has(found.email)) {
        seen.add(found.email);
        if (row) {
          created.push({ ...presentedById.get(row.id)!, ...position });
          continue;
        }
        duplicates.push({ email: found.email, name: found.name, existing_id: existing.get(found.email) ?? null, reason: DUPLICATE_REASONS.inList, ...position });
        continue;
      }
      duplicates.push({
        email: found.email,
        name: found.name,
        existing_id: row?.id ?? existing.get(found.email) ?? null,
        reason: DUPLICATE_REASONS.repeated,
        ...position,
      });
    }
    return {
      created,
      duplicates,
      invalid: extraction.invalid,
      counts: { found: extraction.found.length, created: created.length, duplicates: duplicates.length, invalid: extraction.invalid.length },
    };
  }

  /** Up to ten items whose address starts with the text, then whose address or name holds it. */
  async searchInputForm({ tx }: EngineContext, text: string): Promise<{ results: Array<{ id: string; email: string; name: string | null; domain: RelatedRef | null }> }> {
    const needle = text.trim();
    if (needle === '') return { results: [] };
    const rows = await typeahead(tx, needle, TYPEAHEAD_LIMIT);
    return {
      results: rows.map((row) => ({
        id: row.id,
        email: row.email,
        name: row.name,
        domain: row.domain_id ? { id: row.domain_id, display_name: row.domain, kind: 'domains' } : null,
      })),
    };
  }

  /** The organizations and people holding an address, as the caller may see them. */
  async assetLookup({ tx, actor }: EngineContext, input: string): Promise<{ email: string; organizations: Holder[]; people: Holder[] }> {
    const parsed = normalizeAddress(input);
    if (!parsed.ok) throw fieldError('email', parsed.reason);
    const forms = addressVariants(parsed.value);
    const visible = visibleTo(actor.access);
    return {
      email: parsed.value.email,
      organizations: await holdersOf(tx, organizations, visible, forms),
      people: await holdersOf(tx, people, visible, forms),
    };
  }
}
