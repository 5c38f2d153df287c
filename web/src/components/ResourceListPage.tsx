import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { Navigate, useLocation, useSearchParams } from 'react-router';
import type { ResourceMeta } from '@intelnotes/server/contracts';
import { useSuggestionCountQuery } from '../api/review';
import { ALLOWED, useGroupAllowed, type LoginRedirectState } from '../lib/route-groups';
import { selectToken, useSessionSelector } from '../lib/session';
import { AccessDeniedPage } from './AccessDeniedPage';
import { DataTable } from './DataTable';
import { ListPageHeader } from './ListPageHeader';
import { ListLockedOffer } from './LockedOffer';
import { NotAvailableYet } from './NotAvailableYet';
import { useCanWrite, type ResourceView } from './resource-view';
import { ResourceMetaGate } from './ResourceMetaGate';
import { SuggestionsTab, SUGGESTIONS_TAB } from './SuggestionsTab';

/** The `tab` that shows the list; the navigation links to it as ?tab=1. */
const LIST_TAB = '1';

interface ResourceListPageProps {
  view: ResourceView;
  /** What other tabs are for, by tab value; they are not built yet. */
  otherTabs?: Record<string, string>;
  /** The `tab` values that show the list (the launcher links some lists as ?tab=0). */
  listTabs?: string[];
  /** Whether ?tab=2 reviews the resource's suggestions (docs/review.md), for research users and admins. */
  reviewed?: boolean;
}

function ListHeader({ meta, view }: { meta: ResourceMeta; view: ResourceView }) {
  const canWrite = useCanWrite(meta);
  return <ListPageHeader title={view.title} create={canWrite ? { label: `New ${meta.label.toLowerCase()}`, to: `${view.basePath}/create` } : undefined} />;
}

/** The records and the suggestions, as tabs: only research users and admins see them. */
function ReviewTabs({ meta, view, tab }: { meta: ResourceMeta; view: ResourceView; tab: string }) {
  const [, setParams] = useSearchParams();
  // Only the path: the whole metadata would be the query's cache key.
  const count = useSuggestionCountQuery({ path: meta.path }).data?.count;
  const id = (value: string) => `${meta.kind}-tab-${value}`;
  return (
    <>
      <Tabs
        value={tab}
        // A tab starts from its own first page: the other tab's search, ordering and paging are dropped.
        onChange={(_event, next: string) => setParams({ tab: next })}
        aria-label={`${view.title} and suggestions`}
        textColor="inherit"
        sx={{ borderBottom: 1, borderColor: 'divider', '& .Mui-selected': { color: 'primary.dark' } }}
      >
        <Tab value={LIST_TAB} label={view.title} id={id(LIST_TAB)} aria-controls={`${id(LIST_TAB)}-panel`} />
        <Tab
          value={SUGGESTIONS_TAB}
          label={count === undefined ? 'Suggestions' : `Suggestions (${count.toLocaleString('en-GB')})`}
          id={id(SUGGESTIONS_TAB)}
          aria-controls={`${id(SUGGESTIONS_TAB)}-panel`}
        />
      </Tabs>
      <Box role="tabpanel" id={`${id(tab)}-panel`} aria-labelledby={id(tab)}>
        {tab === SUGGESTIONS_TAB ? <SuggestionsTab meta={meta} view={view} /> : <DataTable meta={meta} view={view} inlineEdit />}
      </Box>
    </>
  );
}

/** ?tab=2 for someone who may not review: signed-out visitors sign in first, others are told who may. */
function SuggestionsRefused() {
  const location = useLocation();
  const signedIn = useSessionSelector(selectToken) !== null;
  if (!signedIn) {
    const state: LoginRedirectState = { from: `${location.pathname}${location.search}` };
    return <Navigate to="/login" replace state={state} />;
  }
  return <AccessDeniedPage allowed={ALLOWED.research} />;
}

/**
 * A resource's list page: the table for ?tab=1 (or no tab); for a reviewed resource, research
 * users and admins also get the suggestions at ?tab=2, as a second tab; an honest note for tabs
 * not built yet.
 */
export function ResourceListPage({ view, otherTabs = {}, listTabs = [LIST_TAB], reviewed = false }: ResourceListPageProps) {
  const [params] = useSearchParams();
  const canReview = useGroupAllowed()('research') && reviewed;
  const tab = params.get('tab');
  if (reviewed && tab === SUGGESTIONS_TAB && !canReview) return <SuggestionsRefused />;
  const isSuggestions = reviewed && tab === SUGGESTIONS_TAB;
  if (tab !== null && !listTabs.includes(tab) && !isSuggestions) return <NotAvailableYet feature={otherTabs[tab] ?? view.title} />;
  return (
    <ResourceMetaGate kind={view.kind}>
      {(meta) => (
        <Stack spacing={3}>
          <ListHeader meta={meta} view={view} />
          <ListLockedOffer kind={meta.kind} />
          {canReview ? <ReviewTabs meta={meta} view={view} tab={isSuggestions ? SUGGESTIONS_TAB : LIST_TAB} /> : <DataTable meta={meta} view={view} inlineEdit />}
        </Stack>
      )}
    </ResourceMetaGate>
  );
}
