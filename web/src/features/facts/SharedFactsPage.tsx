import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import PrintIcon from '@mui/icons-material/Print';
import { Link as RouterLink, useParams } from 'react-router';
import { useGetTenantQuery } from '../../api/api';
import { apiErrorMessage } from '../../api/api-error';
import { tenantDisplayName } from '../../api/tenant-name';
import { PageHeading } from '../../components/PageHeading';
import { RetryAlert } from '../../components/RetryAlert';
import { StatusMessage } from '../../components/StatusMessage';
import { INTELBOOKS_PATH } from '../../lib/paths';
import { useSharedSubtreeQuery } from './facts.api';
import { CollapsingProvider, FactTreeList, useCollapsing } from './FactTreeView';
import { LOCKED_NOUNS, LockedOffer } from '../../components/LockedOffer';
import { PrintStyles } from './PrintStyles';

const dateFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });

/**
 * s/:code — a shared subtree, read-only, for anyone who has the link: the facts of it this
 * reader may see (a share code never shows more than the reader's own access allows), the
 * locked count with the tenant's offer, printable. An unknown, revoked or expired code reads
 * "This link is no longer valid".
 */
export function SharedFactsPage() {
  const { code = '' } = useParams();
  const { data, error, isLoading, refetch } = useSharedSubtreeQuery(code);
  const tenant = useGetTenantQuery().data;
  const collapsing = useCollapsing();
  if (isLoading) return <LinearProgress aria-label="Loading the shared facts" />;
  if (error && 'status' in error && error.status === 404) {
    return (
      <StatusMessage
        title="This link is no longer valid"
        actions={
          <Button variant="contained" component={RouterLink} to={INTELBOOKS_PATH}>
            Read the intelbooks
          </Button>
        }
      >
        <Typography color="text.secondary">It may have been revoked or may have expired. Ask whoever shared it for a new one.</Typography>
      </StatusMessage>
    );
  }
  if (!data) return <RetryAlert onRetry={() => refetch()}>{error ? apiErrorMessage(error) : 'The shared facts could not be loaded.'}</RetryAlert>;
  const name = tenant ? tenantDisplayName(tenant) : '';
  return (
    <Stack spacing={3} data-testid="shared-facts">
      <PrintStyles />
      <Stack direction="row" useFlexGap sx={{ gap: 2, alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap' }}>
        <Stack spacing={0.5}>
          <PageHeading>Shared facts</PageHeading>
          <Typography color="text.secondary">
            {name ? `From ${name}'s intelbooks` : 'From the intelbooks'}
            {data.expires_at ? `, shared until ${dateFormat.format(new Date(data.expires_at))}` : ''}.
          </Typography>
        </Stack>
        <Button variant="outlined" startIcon={<PrintIcon />} onClick={() => window.print()} className="facts-no-print">
          Print
        </Button>
      </Stack>
      <LockedOffer count={data.locked_count} noun={LOCKED_NOUNS.facts} className="facts-no-print" />
      {data.root && (
        <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
          <CollapsingProvider value={collapsing.value}>
            <FactTreeList facts={[data.root]} label="Shared facts" />
          </CollapsingProvider>
        </Paper>
      )}
    </Stack>
  );
}
