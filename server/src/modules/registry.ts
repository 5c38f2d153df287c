/**
 * Every resource the engine serves. Search, entity counts and the API are
 * derived from this one list; adding an entity means adding it here. Every
 * resource with keywords and text gets the tagging-rules hook
 * (tagging/apply-tagging-rules.ts) here, not in its own declaration.
 *
 * At run time the resources are reached through the engine's catalog (createCatalog, built once
 * by createEngine in engine.ts); the list itself is for the schema the declarations imply
 * (search indexes at start-up, the test databases' template, the conformance check).
 */
import { emailDomains, emailList } from './emails/emails.resource.ts';
import { factCategories, facts, factSections } from './facts/facts.resource.ts';
import { cities, geos } from './geos/geos.resource.ts';
import { keywords } from './keywords/keywords.resource.ts';
import { investments } from './ledger/investments.resource.ts';
import { ledgerEntries } from './ledger/ledger.resource.ts';
import { library } from './library/library.resource.ts';
import { listsExtension } from './lists/lists.extension.ts';
import { notes } from './notes/notes.resource.ts';
import { lists } from './lists/lists.resource.ts';
import { organizations } from './organizations/organizations.resource.ts';
import { people } from './people/people.resource.ts';
import { buckets, rawData } from './rawdata/rawdata.resource.ts';
import { reviewExtension } from './review/review.extension.ts';
import { withTaggingRules } from './tagging/apply-tagging-rules.ts';
import { taggingRules } from './tagging/tagging-rules.resource.ts';
import { terminology } from './terminology/terminology.resource.ts';
import { sourceUrls } from './urls/urls.resource.ts';
import { savedViews } from './views/views.resource.ts';
import { Catalog } from '../resources/catalog.ts';
import type { Resource } from '../resources/resource.ts';

export const RESOURCES: Resource[] = withTaggingRules([
  organizations, people, keywords, library, ledgerEntries, investments,
  terminology, geos, cities, sourceUrls, taggingRules, lists, buckets, rawData, emailDomains, emailList,
  factSections, factCategories, facts, notes, savedViews,
]);

/** The resources by kind, with who references whom (relations, merges, deletes), and the engine's extensions. */
export const createCatalog = (): Catalog => new Catalog(RESOURCES, [listsExtension, reviewExtension]);

/** Kinds of SPEC §3's entity counts that no resource serves yet report zeros. */
export const COUNTED_KINDS = [
  'users', 'domains', 'raw_data', 'buckets', 'source', 'keyword', 'terminology', 'facts', 'library',
  'ledger_entries', 'organizations', 'people', 'emails', 'library_lists', 'organizations_lists',
  'people_lists', 'ledger_lists',
] as const;

/** Counter kinds whose key in entity counts differs from the counter's own name. */
export const COUNTER_KIND_OF: Partial<Record<(typeof COUNTED_KINDS)[number], string>> = {
  library_lists: 'LibraryList',
  organizations_lists: 'OrganizationsList',
  people_lists: 'PeopleList',
  ledger_lists: 'LedgerList',
};
