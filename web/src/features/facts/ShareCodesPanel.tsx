import { useState } from 'react';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { apiErrorMessage, type ApiError } from '../../api/api-error';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { notify, truncate } from '../../components/notify';
import { RetryAlert } from '../../components/RetryAlert';
import { VisuallyHidden } from '../../components/VisuallyHidden';
import { useRevokeShareCodeMutation, useShareCodesQuery, type ShareCode } from './facts.api';
import { plainText } from './markdown';
import { copyText, shareUrl } from './ShareDialog';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' }) : '—');

function status(code: ShareCode): { label: string; color: 'success' | 'default' | 'warning' } {
  if (code.revoked) return { label: 'Revoked', color: 'default' };
  if (code.expired) return { label: 'Expired', color: 'warning' };
  return { label: 'Active', color: 'success' };
}

/** The tenant's share codes (admins): which facts, how often opened, until when; copy or revoke. */
export function ShareCodesPanel() {
  const { data: page, error, isLoading, refetch } = useShareCodesQuery();
  const data = page?.results;
  const [revoke, revokeState] = useRevokeShareCodeMutation();
  const [revoking, setRevoking] = useState<ShareCode | null>(null);
  const confirmRevoke = async () => {
    if (!revoking) return;
    try {
      await revoke(revoking.id).unwrap();
      notify.success('Link revoked: it no longer opens.');
      setRevoking(null);
    } catch (failure) {
      notify.error(`Could not revoke the link: ${apiErrorMessage(failure as ApiError)}`);
    }
  };
  return (
    <Paper variant="outlined" component="section" aria-labelledby="share-codes-heading" sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography id="share-codes-heading" variant="h6" component="h2" sx={{ fontWeight: 700, mb: 1 }}>
        Share codes
      </Typography>
      {isLoading && <LinearProgress aria-label="Loading the share codes" />}
      {error && <RetryAlert onRetry={() => refetch()}>{apiErrorMessage(error)}</RetryAlert>}
      {data && data.length === 0 && <Typography color="text.secondary">No facts shared yet: share one from its menu (⋮) above.</Typography>}
      {data && data.length > 0 && (
        <TableContainer>
          <Table size="small" aria-labelledby="share-codes-heading" data-testid="share-codes">
            <TableHead>
              <TableRow>
                <TableCell>Facts</TableCell>
                <TableCell>Link</TableCell>
                <TableCell align="right">Views</TableCell>
                <TableCell>Created</TableCell>
                <TableCell>Valid until</TableCell>
                <TableCell>Status</TableCell>
                <TableCell>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data.map((code) => {
                const state = status(code);
                const path = code.url_path;
                return (
                  <TableRow key={code.id} data-testid="share-code-row">
                    <TableCell sx={{ maxWidth: 320, overflowWrap: 'anywhere' }}>{truncate(plainText(code.fact.text), 100)}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>
                      <Link href={path} target="_blank" rel="noopener" sx={{ fontFamily: 'monospace' }}>
                        {code.code}
                      </Link>
                      <Tooltip title="Copy the link">
                        <IconButton size="small" aria-label={`Copy the link of code ${code.code}`} onClick={() => void copyText(shareUrl(path), 'Link')}>
                          <ContentCopyIcon fontSize="inherit" />
                        </IconButton>
                      </Tooltip>
                    </TableCell>
                    <TableCell align="right" data-testid="share-code-views">
                      {code.view_count.toLocaleString('en-GB')}
                    </TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{when(code.created_at)}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{code.revoked ? when(code.revoked_at) : code.expires_at ? when(code.expires_at) : 'Until revoked'}</TableCell>
                    <TableCell>
                      <Chip size="small" variant="outlined" color={state.color} label={state.label} />
                    </TableCell>
                    <TableCell align="right">
                      {!code.revoked && (
                        <Button size="small" color="error" onClick={() => setRevoking(code)}>
                          Revoke
                        </Button>
                      )}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      <ConfirmDialog
        open={revoking !== null}
        title="Revoke this link?"
        confirmLabel="Revoke"
        danger
        busy={revokeState.isLoading}
        onConfirm={() => void confirmRevoke()}
        onCancel={() => setRevoking(null)}
      >
        Whoever has the link{revoking ? ` (code ${revoking.code})` : ''} will be told it is no longer valid. A new link can be shared at any time.
      </ConfirmDialog>
    </Paper>
  );
}
