import { useMemo } from 'react';
import AutoAwesomeIcon from '@mui/icons-material/AutoAwesome';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ResourceMeta } from '@intelnotes/server/contracts';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { apiErrorMessage } from '../../../api/api-error';
import { useAvailableFiltersQuery } from '../../../api/resources';
import { DataTable } from '../../../components/DataTable';
import { PageHeading } from '../../../components/PageHeading';
import type { ResourceView } from '../../../components/resource-view';
import { ResourceMetaGate } from '../../../components/ResourceMetaGate';
import { RetryAlert } from '../../../components/RetryAlert';
import { useResourceView } from '../../../lib/resource-views';
import { ConditionChips } from './ConditionChips';
import { filterLookups, type QueryFilter } from './query-fields';
import { conditionParams, conditionsFromParams, withConditions } from './query-model';

/**
 * /organizations/subquery?<list parameters>: the organizations matching every condition of
 * the URL (an Operator answer opened here, or conditions built by hand), as chips to add,
 * edit and remove; the table pages, orders, searches and exports them. Everything is in the
 * URL, so the address is the query to share.
 */
export function OrganizationsSubqueryPage() {
  const view = useResourceView('organizations');
  return (
    <Stack spacing={3}>
      <Stack direction="row" useFlexGap sx={{ gap: 2, alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap' }}>
        <Stack spacing={0.5}>
          <PageHeading>Organizations subquery</PageHeading>
          <Typography color="text.secondary">Organizations matching every condition below. Share this page’s address to share the query.</Typography>
        </Stack>
        <Button variant="outlined" startIcon={<AutoAwesomeIcon />} component={RouterLink} to="/search?tab=1">
          Ask the Operator
        </Button>
      </Stack>
      {view ? <ResourceMetaGate kind={view.kind}>{(meta) => <Subquery meta={meta} view={view} />}</ResourceMetaGate> : null}
    </Stack>
  );
}

function Subquery({ meta, view }: { meta: ResourceMeta; view: ResourceView }) {
  const filtersQuery = useAvailableFiltersQuery(meta.path);
  const filters = filtersQuery.data?.filters;
  if (filtersQuery.error) return <RetryAlert onRetry={() => filtersQuery.refetch()}>{apiErrorMessage(filtersQuery.error)}</RetryAlert>;
  if (!filters) return <LinearProgress aria-label="Loading the filters" />;
  return <SubqueryTable meta={meta} view={view} filters={filters} />;
}

function SubqueryTable({ meta, view, filters }: { meta: ResourceMeta; view: ResourceView; filters: QueryFilter[] }) {
  const [params, setParams] = useSearchParams();
  const { conditions, ignored } = useMemo(() => conditionsFromParams(params, (field) => filterLookups(filters, field)), [params, filters]);
  const fixedParams = useMemo(() => conditionParams(conditions), [conditions]);
  const tableView = useMemo<ResourceView>(() => ({ ...view, title: 'Organizations', emptyText: 'No organizations match these conditions.' }), [view]);
  return (
    <>
      <Paper variant="outlined" component="section" aria-labelledby="subquery-conditions" sx={{ p: { xs: 2, sm: 2.5 } }}>
        <Typography id="subquery-conditions" variant="overline" component="h2" color="text.secondary" sx={{ display: 'block', lineHeight: 1.5, mb: 1 }}>
          Conditions
        </Typography>
        {conditions.length === 0 && (
          <Typography color="text.secondary" sx={{ mb: 1.5 }}>
            No conditions yet: every organization you may see is listed.
          </Typography>
        )}
        <ConditionChips meta={meta} view={view} filters={filters} conditions={conditions} onChange={(next) => setParams(withConditions(params, next))} />
        {ignored.length > 0 && (
          <Alert severity="warning" sx={{ mt: 2 }}>
            Left out, since organizations cannot be filtered that way here: {ignored.join(', ')}.
          </Alert>
        )}
      </Paper>
      <DataTable meta={meta} view={tableView} fixedParams={fixedParams} filterable={false} spreadsheetUpload={false} />
    </>
  );
}
