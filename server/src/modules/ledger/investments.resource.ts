/**
 * Investment (SPEC §3 "Investment defaults"): a stake in a ledger entry, held
 * by an organization (`owner`) or a person (`owner_person`) — never both.
 * Served at /api/v1/assets/investments/. Deleting the ledger entry deletes its
 * investments in the same transaction. `admin_notes` is read and written by
 * admins only; `private_url` is read by research users and admins only.
 */
import { codes } from 'currency-codes';
import { fieldError } from '../../resources/errors.ts';
import { boolean, category, choice, decimal, incompleteDate, relation, restricted, text, url, visibility, flag } from '../../resources/fields.ts';
import { defineResource, type SaveContext } from '../../resources/resource.ts';

export const VEHICLE_TYPES = ['VC', 'FA', 'PE'] as const;
/** ISO 4217 alphabetic codes (the `currency-codes` package's table). */
export const CURRENCIES: readonly string[] = codes();

/** An investment is held by an organization or by a person, not by both. */
async function oneOwner({ record }: SaveContext): Promise<void> {
  if (record['owner'] && record['owner_person']) {
    throw fieldError('owner_person', 'An investment is held by an organization or a person, not both: clear owner or owner_person.');
  }
}

export const investments = defineResource({
  kind: 'investments',
  type: 'Investment',
  path: '/assets/investments',
  table: 'investments',
  label: 'Investment',
  summary: ['ledger_entry', 'owner', 'owner_person', 'inv_date'],
  writeAccess: 'research',
  search: { fields: { inv_vehicle_type: 'A', inv_currency: 'A', inv_risk: 'C', public_url: 'C' } },
  fields: {
    ledger_entry: relation('ledger_entries', { many: false, required: true, onDelete: 'cascade' }),
    owner: relation('organizations', { many: false, inverseLabel: 'Investments held' }),
    owner_person: relation('people', { many: false, inverseLabel: 'Investments held' }),
    owned: boolean(false),
    ownership_percentage: decimal({ min: 0, max: 100, scale: 4 }),
    has_inv_vehicle: boolean(false),
    inv_vehicle_type: choice(VEHICLE_TYPES),
    inv_currency: choice(CURRENCIES),
    inv_date: incompleteDate(),
    inv_risk: category({ max: 100 }),
    public_url: url(),
    private_url: restricted(url(), { read: 'research' }),
    keywords: relation('keyword'),
    show_on_dashboard: flag(),
    visibility: visibility('hidden'),
    admin_notes: restricted(text({ max: 20_000, multiline: true }), { read: 'admin', write: 'admin' }),
  },
  ordering: ['inv_date', 'ownership_percentage', 'inv_vehicle_type', 'inv_currency'],
  filters: ['ledger_entry', 'owner', 'owner_person', 'inv_vehicle_type', 'inv_currency', 'owned', 'has_inv_vehicle'],
  beforeSave: [oneOwner],
  headerAliases: {
    'ledger entry': 'ledger_entry',
    entry: 'ledger_entry',
    organization: 'owner',
    'owner organization': 'owner',
    person: 'owner_person',
    'owner person': 'owner_person',
    currency: 'inv_currency',
    'vehicle type': 'inv_vehicle_type',
    vehicle: 'inv_vehicle_type',
    date: 'inv_date',
    risk: 'inv_risk',
    percentage: 'ownership_percentage',
    ownership: 'ownership_percentage',
    keyword: 'keywords',
    tags: 'keywords',
  },
});
