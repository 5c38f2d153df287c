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

export const recordSections: RecordSectionsByKind = {
  organizations: [OrganizationInvestments],
  people: [PersonInvestments],
};
