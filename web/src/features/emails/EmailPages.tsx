import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ListIcon from '@mui/icons-material/FormatListBulleted';
import { Link as RouterLink, Navigate, useParams } from 'react-router';
import { apiErrorMessage } from '../../api/api-error';
import { useGetResourceQuery, type RelatedRef, type ResourceRecord } from '../../api/resources';
import { DetailFields, type DetailField } from '../../components/DetailList';
import { formatDateTime } from '../../components/field-format';
import { RelationChips } from '../../components/FieldValue';
import { PanelSection } from '../../components/PanelSection';
import { ResourceEditPage } from '../../components/ResourceFormPage';
import { DOMAINS_PATH, EMAILS_PATH, useEmailHoldersQuery } from './emails.api';
import { domainAddressesPath, domainEditPath, domainEditView, emailEditPath, emailEditView } from './emails.view';

const str = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
const refs = (items: Array<{ id: string; display_name: string | null }>, kind: string): RelatedRef[] =>
  items.map((item) => ({ id: item.id, display_name: item.display_name, kind }));

/** The people and organizations whose records hold the address (those the reader may see). */
function HeldBy({ email }: { email: string }) {
  const holders = useEmailHoldersQuery(email);
  if (holders.isLoading) return <LinearProgress aria-label="Looking up who holds the address" />;
  if (holders.error) {
    return (
      <Alert severity="error" action={<Button color="inherit" size="small" onClick={() => void holders.refetch()}>Retry</Button>}>
        {apiErrorMessage(holders.error)}
      </Alert>
    );
  }
  const people = refs(holders.data?.people ?? [], 'people');
  const organizations = refs(holders.data?.organizations ?? [], 'organizations');
  if (people.length === 0 && organizations.length === 0) {
    return <Typography color="text.secondary">No person or organization has this address.</Typography>;
  }
  return (
    <Stack spacing={1.5} data-testid="held-by">
      {people.length > 0 && (
        <Box>
          <Typography variant="subtitle2" component="h3" sx={{ mb: 0.5 }}>People</Typography>
          <RelationChips refs={people} />
        </Box>
      )}
      {organizations.length > 0 && (
        <Box>
          <Typography variant="subtitle2" component="h3" sx={{ mb: 0.5 }}>Organizations</Typography>
          <RelationChips refs={organizations} />
        </Box>
      )}
    </Stack>
  );
}

const SUBSCRIPTION_SENTENCES: Record<string, string> = {
  none: 'Not subscribed',
  pending: 'Signed up, waiting for the address to confirm',
  confirmed: 'Subscribed',
  unsubscribed: 'Unsubscribed',
};

/** The address's standing on the distribution list, and who holds it (kept current). */
function EmailPanels({ id }: { id: string }) {
  const { data: record } = useGetResourceQuery({ path: EMAILS_PATH, id });
  const email = str(record?.['email']);
  if (!record || !email) return null;
  const subscription = str(record['subscription']) ?? 'none';
  const confirmed = str(record['confirmed_at']);
  const unsubscribed = str(record['unsubscribed_at']);
  return (
    <Stack spacing={2}>
      <PanelSection title="Held by">
        <HeldBy email={email} />
      </PanelSection>
      <PanelSection title="Distribution list">
        <Typography data-testid="subscription">
          {SUBSCRIPTION_SENTENCES[subscription] ?? subscription}
          {confirmed && subscription === 'confirmed' ? ` since ${formatDateTime(confirmed)}` : ''}
          {unsubscribed && subscription === 'unsubscribed' ? ` on ${formatDateTime(unsubscribed)}` : ''}.
        </Typography>
      </PanelSection>
    </Stack>
  );
}

/** emails/:id/edit: an address of the list, its name and notes; who holds it. */
export function EmailEditPage() {
  const { id = '' } = useParams();
  return <ResourceEditPage view={emailEditView} renderBeforeFields={() => <EmailPanels id={id} />} />;
}

/** An address has no read-only page (as the SPEC gives its domain an edit page only): its address opens the edit page. */
export function EmailRecordRedirect() {
  const { id = '' } = useParams();
  return <Navigate to={emailEditPath(id)} replace />;
}

const ENRICHMENT_SENTENCES: Record<string, string> = {
  pending: 'Waiting to be looked into',
  running: 'Being looked into…',
  completed: 'Done',
  error: 'Failed',
};

const yesNo = (value: unknown, unknown: string) => (value === true ? 'Yes' : value === false ? 'No' : unknown);

/**
 * What the server found about the domain (enrichment), updated live when it finishes; the
 * organizations it links are the form's (people may link more).
 */
function domainFindings(record: ResourceRecord): DetailField[] {
  const status = str(record['enrichment_status']) ?? 'pending';
  const title = str(record['site_title']);
  const description = str(record['site_description']);
  const error = str(record['enrichment_error']);
  const enrichedAt = str(record['enriched_at']);
  const unicode = str(record['domain_unicode']);
  const fields: DetailField[] = [
    { name: 'domain_unicode', label: 'As written', empty: unicode === null, value: unicode },
    { name: 'enrichment_status', label: 'Looked into', empty: false, value: `${ENRICHMENT_SENTENCES[status] ?? status}${enrichedAt && status === 'completed' ? `, ${formatDateTime(enrichedAt)}` : ''}` },
    { name: 'enrichment_error', label: 'Why it failed', empty: error === null, value: error },
    { name: 'is_free_mail', label: 'Free mail provider', empty: false, value: yesNo(record['is_free_mail'], 'Unknown') },
    { name: 'is_disposable', label: 'Disposable addresses', empty: false, value: yesNo(record['is_disposable'], 'Unknown') },
    { name: 'mx_found', label: 'Mail server (MX)', empty: false, value: yesNo(record['mx_found'], 'Unknown (not looked up)') },
    { name: 'site_title', label: 'Site title', empty: title === null, value: title },
    { name: 'site_description', label: 'Site description', empty: description === null, value: description },
  ];
  return fields;
}

function DomainPanels({ id }: { id: string }) {
  const { data: record } = useGetResourceQuery({ path: DOMAINS_PATH, id });
  if (!record) return null;
  const addresses = typeof record['cleaned_emails_count'] === 'number' ? record['cleaned_emails_count'] : 0;
  const busy = record['enrichment_status'] === 'pending' || record['enrichment_status'] === 'running';
  return (
    <PanelSection title="About the domain">
      <Stack spacing={2}>
        <Stack direction="row" useFlexGap sx={{ gap: 2, alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography data-testid="domain-addresses">
            <Box component="span" sx={{ fontWeight: 700 }}>{addresses.toLocaleString('en-GB')}</Box>
            {addresses === 1 ? ' address' : ' addresses'} in the list
          </Typography>
          {addresses > 0 && (
            <Button size="small" variant="outlined" startIcon={<ListIcon />} component={RouterLink} to={domainAddressesPath(id)}>
              Show them
            </Button>
          )}
        </Stack>
        {busy && <LinearProgress aria-label="Looking into the domain" />}
        <DetailFields framed={false} fields={domainFindings(record)} />
      </Stack>
    </PanelSection>
  );
}

/** emails/domains/:id/edit (SPEC §2): the domain's notes and flags; what was found about it, kept current. */
export function DomainEditPage() {
  const { id = '' } = useParams();
  return <ResourceEditPage view={domainEditView} renderBeforeFields={() => <DomainPanels id={id} />} />;
}

export function DomainRecordRedirect() {
  const { id = '' } = useParams();
  return <Navigate to={domainEditPath(id)} replace />;
}
