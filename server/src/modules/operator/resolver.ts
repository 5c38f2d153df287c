/**
 * How the parser turns names into what a list filters by: keyword and record ids, and the
 * stored spelling of category values. The parser only sees this interface (tests give it a
 * fake); `DatabaseResolver` reads the tenant's records as the caller sees them, so a name
 * the caller may not see resolves to nothing, exactly like a name no record has.
 */
import type { EngineContext } from '../../resources/context.ts';
import { visibleTo } from '../../resources/visibility.ts';
import type { Resource } from '../../resources/resource.ts';
import { geos } from '../geos/geos.resource.ts';
import { keywords } from '../keywords/keywords.resource.ts';
import { organizations } from '../organizations/organizations.resource.ts';
import { people } from '../people/people.resource.ts';
import { operatorResource } from './structured-query.ts';
import {
  categoryValue, categoryValuesInCountry, categoryValuesStartingWith, namedList, namedRecord, similarCategoryValue, similarRecord,
} from './operator.repository.ts';
import { allowedEdits, editDistance } from './words.ts';
import { lists } from '../lists/lists.resource.ts';
import type { OperatorEntity } from '../../contracts.ts';

export interface NamedRecord {
  id: string;
  name: string;
}

export type NamedKind = 'keyword' | 'organizations' | 'people' | 'geos';

const NAMED_RESOURCES: Record<NamedKind, Resource> = { keyword: keywords, organizations, people, geos };
/** The declaration of the records a name is looked up among. */
export const namedResource = (kind: NamedKind): Resource => NAMED_RESOURCES[kind];

export interface Resolver {
  /**
   * A record of `kind` the caller may see, by name (ignoring case and accents): one named
   * exactly so, else the first whose name starts with the text (quick search's first tiers).
   * Keywords match whole names only. Geos match their name or code.
   */
  record(kind: NamedKind, name: string): Promise<NamedRecord | null>;
  /** The record of `kind` the caller may see whose name is most like the text (a typo); null when none is close. */
  similarRecord(kind: NamedKind, name: string): Promise<NamedRecord | null>;
  /** The stored value of a category field (a city, a country, a publisher) among rows the caller may see, matching the text ignoring case and accents. */
  categoryValue(entity: OperatorEntity, field: string, text: string): Promise<string | null>;
  /** The stored value of a category field most like the text (a typo), among rows the caller may see; null when none is close. */
  similarValue(entity: OperatorEntity, field: string, text: string): Promise<string | null>;
  /** A list the caller may see, by its name (ignoring case and accents), of one of the list kinds. */
  list(name: string, kinds: string[]): Promise<NamedList | null>;
  /** The stored values of a city field among rows the caller may see that are cities of a country (ISO 3166-1 alpha-2). */
  citiesIn(entity: OperatorEntity, field: string, countryCode: string): Promise<string[]>;
}

export interface NamedList extends NamedRecord {
  /** The list's kind (OrganizationsList, PeopleList, LedgerList, LibraryList). */
  kind: string;
}

/** How alike (trigram similarity, 0–1) a written value and a stored one must be to be read as it. */
export const SIMILAR_VALUE = 0.4;
/** How alike (trigram word similarity) a written name and a record's names must be to be read as it. */
export const SIMILAR_NAME = 0.6;

/** Resolves through the caller's transaction and visibility (row-level security applies too). */
export class DatabaseResolver implements Resolver {
  constructor(private readonly ctx: EngineContext) {}

  record(kind: NamedKind, name: string): Promise<NamedRecord | null> {
    const resource = namedResource(kind);
    return namedRecord(this.ctx.tx, resource, visibleTo(this.ctx.actor.access), name, { prefix: kind !== 'keyword', byCode: kind === 'geos' });
  }

  similarRecord(kind: NamedKind, name: string): Promise<NamedRecord | null> {
    return similarRecord(this.ctx.tx, namedResource(kind), visibleTo(this.ctx.actor.access), name, SIMILAR_NAME);
  }

  categoryValue(entity: OperatorEntity, field: string, text: string): Promise<string | null> {
    return categoryValue(this.ctx.tx, operatorResource(entity), visibleTo(this.ctx.actor.access), field, text);
  }

  async similarValue(entity: OperatorEntity, field: string, text: string): Promise<string | null> {
    const resource = operatorResource(entity);
    const visible = visibleTo(this.ctx.actor.access);
    const similar = await similarCategoryValue(this.ctx.tx, resource, visible, field, text, SIMILAR_VALUE);
    if (similar) return similar;
    // Swapped or doubled letters ("Muncih", "Zuerich") share few trigrams: the closest by edit distance among values with the same initial.
    const fold = (value: string) => value.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
    const wanted = fold(text);
    let best: { value: string; distance: number } | null = null;
    for (const value of await categoryValuesStartingWith(this.ctx.tx, resource, visible, field, text, 500)) {
      const distance = editDistance(fold(value), wanted);
      if (distance <= allowedEdits(Math.min(value.length, wanted.length)) && (!best || distance < best.distance)) best = { value, distance };
    }
    return best?.value ?? null;
  }

  citiesIn(entity: OperatorEntity, field: string, countryCode: string): Promise<string[]> {
    return categoryValuesInCountry(this.ctx.tx, operatorResource(entity), visibleTo(this.ctx.actor.access), field, countryCode);
  }

  list(name: string, kinds: string[]): Promise<NamedList | null> {
    return namedList(this.ctx.tx, lists, visibleTo(this.ctx.actor.access), name, kinds);
  }
}
