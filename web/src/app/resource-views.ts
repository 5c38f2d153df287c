import { keywordsView } from '../features/keywords/keywords.view';
import { ledgerView } from '../features/ledger/ledger.view';
import { libraryView } from '../features/library/library.view';
import { listsView } from '../features/lists/lists.view';
import { organizationsView } from '../features/organizations/organizations.view';
import { peopleView } from '../features/people/people.view';
import type { ResourceViewsByKind } from '../lib/resource-views';

/**
 * The resource views screens of other features may show (lib/resource-views.tsx): the kinds
 * the Operator answers with (/search?tab=1), organizations for /organizations/subquery, and
 * every result type of the advanced search (/search), whose filters, orderings and matches
 * take their fields' labels from these.
 */
export const resourceViews: ResourceViewsByKind = {
  organizations: organizationsView,
  people: peopleView,
  ledger_entries: ledgerView,
  library: libraryView,
  keyword: keywordsView,
  lists: listsView,
};
