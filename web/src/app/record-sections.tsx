import { lazy } from 'react';
import type { RecordSectionsByKind } from '../lib/record-sections';

/**
 * What fills the record pages' slots (lib/record-sections.tsx): the investments an
 * organization or a person holds come from the ledger feature. Loaded with the page that
 * shows them, as the ledger's own pages are, so the home page does not carry them.
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

/** Notes and activity (features/notes) on every record page that has the slot; research users and admins only. */
const activityOf = (kind: string) =>
  lazy(async () => {
    const { ActivitySection } = await import('../features/notes/ActivitySection');
    return { default: ({ id }: { id: string }) => <ActivitySection kind={kind} id={id} /> };
  });

export const recordSections: RecordSectionsByKind = {
  organizations: [OrganizationInvestments, activityOf('organizations')],
  people: [PersonInvestments, activityOf('people')],
  ledger_entries: [activityOf('ledger_entries')],
  library: [activityOf('library')],
};
