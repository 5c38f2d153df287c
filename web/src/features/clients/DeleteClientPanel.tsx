import { useId, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import DeleteForeverOutlinedIcon from '@mui/icons-material/DeleteForeverOutlined';
import { useNavigate } from 'react-router';
import type { Client, ClientDeletion } from '@intelnotes/server/contracts';
import { apiErrorMessage, type ApiError } from '../../api/api-error';
import { useDeleteClientMutation } from './clients.api';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { notify, truncate } from '../../components/notify';
import { selectSession, useSessionSelector } from '../../lib/session';

/** "3 users, 12 organizations and 40 other rows": the largest kinds of data removed, in words. */
export function deletionSummary(deletion: ClientDeletion): string {
  const entries = Object.entries(deletion.deleted).sort(([, a], [, b]) => b - a);
  if (entries.length === 0) return 'it held no data';
  const words = (table: string) => table.replace(/_/g, ' ');
  const shown = entries.slice(0, 4).map(([table, count]) => `${count.toLocaleString('en-GB')} ${words(table)}`);
  const rest = entries.slice(4).reduce((sum, [, count]) => sum + count, 0);
  if (rest > 0) shown.push(`${rest.toLocaleString('en-GB')} other rows`);
  return `removed ${shown.length > 1 ? `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}` : shown[0]}`;
}

/** Deleting a tenant and all of its data, after the manager types its code. */
export function DeleteClientPanel({ client }: { client: Client }) {
  const headingId = useId();
  const navigate = useNavigate();
  const ownTenant = useSessionSelector(selectSession).tenant_id === client.id;
  const [open, setOpen] = useState(false);
  const [remove, { isLoading }] = useDeleteClientMutation();
  const protectedReason = client.is_default
    ? 'The default tenant cannot be deleted.'
    : ownTenant
      ? 'You cannot delete the tenant you are signed in to.'
      : null;

  const confirm = async () => {
    try {
      const deletion = await remove({ id: client.id, confirm: client.code }).unwrap();
      setOpen(false);
      notify.success(`Tenant “${truncate(client.name)}” deleted: ${deletionSummary(deletion)}.`);
      navigate('/clients');
    } catch (error) {
      notify.error(`Could not delete the tenant: ${apiErrorMessage(error as ApiError)}`);
    }
  };

  return (
    <Paper variant="outlined" component="section" aria-labelledby={headingId} sx={{ p: { xs: 2, sm: 3 }, borderColor: 'error.light' }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between' }}>
        <Box>
          <Typography id={headingId} variant="h6" component="h2" sx={{ fontWeight: 700 }}>
            Delete tenant
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {protectedReason ?? 'Removes the tenant with all of its users and data. This cannot be undone.'}
          </Typography>
        </Box>
        <Button
          variant="outlined"
          color="error"
          startIcon={<DeleteForeverOutlinedIcon />}
          disabled={protectedReason !== null}
          onClick={() => setOpen(true)}
          sx={{ flexShrink: 0 }}
        >
          Delete tenant
        </Button>
      </Stack>
      <ConfirmDialog
        open={open}
        title={`Delete ${client.name}?`}
        confirmLabel="Delete tenant and all its data"
        danger
        busy={isLoading}
        typeToConfirm={client.code}
        onConfirm={() => void confirm()}
        onCancel={() => setOpen(false)}
      >
        Every user, session, organization, person, list and other record of the tenant “{client.code}” will be deleted
        for good, and its address will stop working. Type the tenant’s code to confirm.
      </ConfirmDialog>
    </Paper>
  );
}
