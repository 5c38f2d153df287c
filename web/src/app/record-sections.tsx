import { lazy } from 'react';
import type { RecordSectionsByKind } from '../lib/record-sections';

/**
 * What fills the record pages' slots (lib/record-sections.tsx): the investments an
 * organization or a person holds come from the ledger feature; the relationship graph of an
 * organization, a person, a ledger entry or a library entry from the graph feature, and their
 * notes and activity from the notes feature. Loaded with the page that shows them, as the
 * ledger's own pages are, so the home page does not carry them.
 */
const loadInvestments = () => import('../features/ledger/InvestmentsSection');

const OrganizationInvestments = lazy(async () => {
  const { InvestmentsSection } = await loadInvestments();
  return { default: ({ id }: { id: string }) => <InvestmentsSection parentKind="organizations" parentId={id} /> };
});

const PersonInvestments = lazy(async () => {
  const { InvestmentsSection } = await loadInvestments();
  return { default: ({ id }: { id: string }) => <InvestmentsSection parentKind="people" parentId={id} /> };
});

/** The relationship graph (features/graph), and cytoscape with it, loads only with a record page that shows it. */
const loadGraph = () => import('../features/graph/GraphSection');
const graphOf = (kind: string) =>
  lazy(async () => {
    const { GraphSection } = await loadGraph();
    return { default: ({ id }: { id: string }) => <GraphSection kind={kind} id={id} /> };
  });

/** Notes and activity (features/notes) on every record page that has the slot; research users and admins only. */
const activityOf = (kind: string) =>
  lazy(async () => {
    const { ActivitySection } = await import('../features/notes/ActivitySection');
    return { default: ({ id }: { id: string }) => <ActivitySection kind={kind} id={id} /> };
  });

export const recordSections: RecordSectionsByKind = {
  organizations: [OrganizationInvestments, graphOf('organizations'), activityOf('organizations')],
  people: [PersonInvestments, graphOf('people'), activityOf('people')],
  ledger_entries: [graphOf('ledger_entries'), activityOf('ledger_entries')],
  library: [graphOf('library'), activityOf('library')],
};
