import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ContentPasteIcon from '@mui/icons-material/ContentPaste';
import { useSearchParams } from 'react-router';
import type { ResourceMeta } from '@intelnotes/server/contracts';
import { DataTable } from '../../components/DataTable';
import { PageTabs } from '../../components/PageTabs';
import { useCanWrite } from '../../components/resource-view';
import { ResourceMetaGate } from '../../components/ResourceMetaGate';
import { domainEditPath, domainsView, emailEditPath, emailsView } from './emails.view';
import { PasteAddressesDialog } from './PasteAddressesDialog';

const TABS = [
  { value: '1', label: 'Emails' },
  { value: '2', label: 'Domains' },
] as const;

function EmailsTab({ meta }: { meta: ResourceMeta }) {
  const canWrite = useCanWrite(meta);
  const [pasting, setPasting] = useState(false);
  return (
    <Stack spacing={2}>
      {canWrite && (
        <Box>
          <Button variant="contained" startIcon={<ContentPasteIcon />} onClick={() => setPasting(true)}>
            Paste addresses
          </Button>
        </Box>
      )}
      {/* Addresses come in by pasting, the sign-up widget or an import; none is typed in one by one. */}
      <DataTable meta={meta} view={emailsView} rowPath={(row) => emailEditPath(row.id)} />
      {canWrite && <PasteAddressesDialog open={pasting} onClose={() => setPasting(false)} />}
    </Stack>
  );
}

function DomainsTab({ meta }: { meta: ResourceMeta }) {
  // Domains come with the addresses: no upload, and the engine's bulk actions (export) only.
  return <DataTable meta={meta} view={domainsView} rowPath={(row) => domainEditPath(row.id)} spreadsheetUpload={false} />;
}

/** /emails (SPEC §2): ?tab=1 the addresses (the navigation's and launcher's "Emails"), ?tab=2 their domains. */
export function EmailsPage() {
  const [params] = useSearchParams();
  const tab = params.get('tab') === '2' ? '2' : '1';
  return (
    <Stack spacing={2}>
      <Typography variant="h4" component="h1" sx={{ fontWeight: 700 }}>
        {tab === '2' ? 'Email domains' : 'Email list'}
      </Typography>
      <PageTabs tabs={TABS} value={tab} label="Emails and domains" idPrefix="emails">
        {tab === '2' ? (
          <ResourceMetaGate kind={domainsView.kind}>{(meta) => <DomainsTab meta={meta} />}</ResourceMetaGate>
        ) : (
          <ResourceMetaGate kind={emailsView.kind}>{(meta) => <EmailsTab meta={meta} />}</ResourceMetaGate>
        )}
      </PageTabs>
    </Stack>
  );
}
