/**
 * A resolver over fixed names, for the parser's tests (phrasings.test.ts): ids are
 * readable ("kw-fintech", "org-acme") so expected queries in the phrasing table read well.
 */
import type { NamedKind, NamedList, NamedRecord, Resolver } from './resolver.ts';
import type { OperatorEntity } from '../../contracts.ts';

const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();

export class FakeResolver implements Resolver {
  constructor(
    private readonly records: Record<NamedKind, Array<NamedRecord & { code?: string }>>,
    /** entity.field → stored values. */
    private readonly categories: Record<string, string[]>,
    private readonly lists: NamedList[] = [],
    /** country code → the cities of it (the database reads them from GeoNames' cities). */
    private readonly cities: Record<string, string[]> = {},
  ) {}

  async citiesIn(entity: OperatorEntity, field: string, countryCode: string): Promise<string[]> {
    const of = (this.cities[countryCode] ?? []).map(fold);
    return (this.categories[`${entity}.${field}`] ?? []).filter((value) => of.includes(fold(value)));
  }

  async record(kind: NamedKind, name: string): Promise<NamedRecord | null> {
    const candidates = this.records[kind];
    const wanted = fold(name);
    const exact = candidates.find((record) => fold(record.name) === wanted || (record.code !== undefined && fold(record.code) === wanted));
    if (exact || kind === 'keyword') return exact ? { id: exact.id, name: exact.name } : null;
    const prefixed = candidates.filter((record) => fold(record.name).startsWith(wanted)).sort((a, b) => a.name.length - b.name.length)[0];
    return prefixed ? { id: prefixed.id, name: prefixed.name } : null;
  }

  /** A record whose name is within two edits of the text (the database uses trigram word similarity). */
  async similarRecord(kind: NamedKind, name: string): Promise<NamedRecord | null> {
    const found = this.records[kind].find((record) => fold(name).length >= 4 && editDistance(fold(record.name), fold(name)) <= 2);
    return found ? { id: found.id, name: found.name } : null;
  }

  async categoryValue(entity: OperatorEntity, field: string, text: string): Promise<string | null> {
    return this.categories[`${entity}.${field}`]?.find((value) => fold(value) === fold(text)) ?? null;
  }

  /** A stored value within one edit of the text (the database uses trigram similarity). */
  async similarValue(entity: OperatorEntity, field: string, text: string): Promise<string | null> {
    return this.categories[`${entity}.${field}`]?.find((value) => editDistance(fold(value), fold(text)) <= 1) ?? null;
  }

  async list(name: string, kinds: string[]): Promise<NamedList | null> {
    return this.lists.find((list) => kinds.includes(list.kind) && fold(list.name) === fold(name)) ?? null;
  }
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const kept = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = kept;
    }
  }
  return row[b.length]!;
}

/** The names the phrasing table's questions use. */
export const PHRASING_RESOLVER = new FakeResolver(
  {
    keyword: [
      { id: 'kw-fintech', name: 'Fintech' }, { id: 'kw-crypto', name: 'Crypto' }, { id: 'kw-ai', name: 'AI' },
      { id: 'kw-lithium', name: 'Lithium' }, { id: 'kw-battery', name: 'Battery' }, { id: 'kw-climate', name: 'Climate' },
      { id: 'kw-healthcare', name: 'Healthcare' },
    ],
    organizations: [{ id: 'org-acme', name: 'Acme Corp' }, { id: 'org-globex', name: 'Globex' }, { id: 'org-initech', name: 'Initech' }],
    people: [{ id: 'per-amelia', name: 'Amelia Hart' }, { id: 'per-jane', name: 'Jane Doe' }, { id: 'per-john', name: 'John Smith' }],
    geos: [{ id: 'geo-de', name: 'Germany', code: 'DE' }, { id: 'geo-fr', name: 'France', code: 'FR' }, { id: 'geo-eu', name: 'European Union', code: 'EU' }],
  },
  {
    'organizations.hq_city': ['Berlin', 'Paris', 'London', 'New York', 'München'],
    'organizations.ownership_type': ['Private', 'Public', 'Non-profit', 'Cooperative', 'Partnership', 'State-owned'],
    'people.current_address_city': ['Berlin', 'Paris', 'London'],
    'people.passport_country': ['Germany', 'France'],
    'library.publisher': ['Financial Times', 'McKinsey'],
  },
  [{ id: '00000000-0000-4000-8000-00000000f124', name: 'Top Fintech 2024', kind: 'OrganizationsList' }, { id: '00000000-0000-4000-8000-0000000000a1', name: 'Key Investors', kind: 'PeopleList' }],
  { DE: ['Berlin', 'Munich', 'München', 'Hamburg'], FR: ['Paris', 'Lyon'], GB: ['London', 'Manchester'], US: ['New York', 'Boston'] },
);
