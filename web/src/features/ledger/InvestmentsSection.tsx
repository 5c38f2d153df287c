import { useId, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import { Link as RouterLink } from 'react-router';
import type { RelatedRef, ResourceMeta } from '@intelnotes/server/contracts';
import { apiErrorMessage, type ApiError } from '../../api/api-error';
import { useGetResourceQuery, useListResourceQuery, useRemoveResourceMutation, useResourceMeta, type ResourceRecord } from '../../api/resources';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EntityForm } from '../../components/EntityForm';
import { formatIncompleteDate } from '../../components/field-format';
import { NotSet } from '../../components/FieldValue';
import { notify } from '../../components/notify';
import { recordHref } from '../../components/record-links';
import { RecordFields } from '../../components/RecordFields';
import { fieldLabel, recordName, toastName, useCanWrite, type ResourceView } from '../../components/resource-view';
import { RetryAlert } from '../../components/RetryAlert';
import { VisibilityChip } from '../../components/VisibilityChip';
import { VisuallyHidden } from '../../components/VisuallyHidden';

/** The records investments hang off, and the investment field that points at each. */
const PARENTS = {
  ledger_entries: { field: 'ledger_entry', omit: ['ledger_entry'], empty: 'No investments in this ledger entry yet.' },
  organizations: { field: 'owner', omit: ['owner', 'owner_person'], empty: 'This organization holds no investments yet.' },
  people: { field: 'owner_person', omit: ['owner', 'owner_person'], empty: 'This person holds no investments yet.' },
} as const;

export type InvestmentParentKind = keyof typeof PARENTS;

const LABELS: Record<string, string> = {
  display_name: 'Investment',
  ledger_entry: 'Ledger entry',
  owner: 'Held by (organization)',
  owner_person: 'Held by (person)',
  owned: 'Owned',
  ownership_percentage: 'Ownership %',
  has_inv_vehicle: 'Has an investment vehicle',
  inv_vehicle_type: 'Vehicle type',
  inv_currency: 'Currency (ISO 4217)',
  inv_date: 'Investment date',
  inv_risk: 'Risk',
  public_url: 'Public URL',
  private_url: 'Private URL',
  admin_notes: 'Admin notes',
};

const PAGE_SIZES = [25, 50, 100];

interface InvestmentsSectionProps {
  /** The kind of record the page shows: a ledger entry, or an organization or person holding investments. */
  parentKind: InvestmentParentKind;
  parentId: string;
}

const refOf = (value: unknown): RelatedRef | null =>
  value !== null && typeof value === 'object' && 'id' in value ? (value as RelatedRef) : null;

function RefLink({ value }: { value: unknown }) {
  const ref = refOf(value);
  if (!ref) return <NotSet />;
  const href = recordHref(ref.kind, ref);
  const name = ref.display_name ?? 'Unnamed';
  return href ? (
    <Link component={RouterLink} to={href}>
      {name}
    </Link>
  ) : (
    <>{name}</>
  );
}

function ownership(record: ResourceRecord): string | null {
  const percentage = record['ownership_percentage'];
  const parts = [typeof percentage === 'number' ? `${percentage.toLocaleString('en-GB', { maximumFractionDigits: 4 })}%` : null, record['owned'] ? 'owned' : null];
  const text = parts.filter(Boolean).join(' · ');
  return text === '' ? null : text;
}

/**
 * The investments of a ledger entry, or those an organization or a person holds: a table with
 * the essentials, every field in a details dialog, and — for research users and admins — add,
 * edit and delete in dialogs built from the shared form. Shown once the page's record has
 * loaded, so a missing or hidden record shows only the page's own message.
 */
export function InvestmentsSection({ parentKind, parentId }: InvestmentsSectionProps) {
  const { meta } = useResourceMeta('investments');
  const { meta: parentMeta } = useResourceMeta(parentKind);
  const parent = useGetResourceQuery({ path: parentMeta?.path ?? '', id: parentId }, { skip: !parentMeta });
  if (!meta || !parentMeta || !parent.data) return null;
  return <InvestmentsTable key={parentId} meta={meta} parentKind={parentKind} parentMeta={parentMeta} parent={parent.data} />;
}

interface InvestmentsTableProps {
  meta: ResourceMeta;
  parentKind: InvestmentParentKind;
  parentMeta: ResourceMeta;
  parent: ResourceRecord;
}

function InvestmentsTable({ meta, parentKind, parentMeta, parent }: InvestmentsTableProps) {
  const headingId = useId();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const canWrite = useCanWrite(meta);
  const { field, omit, empty } = PARENTS[parentKind];
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState(PAGE_SIZES[0]!);
  const params = { [field]: parent.id, ordering: '-updated_at', limit: String(pageSize), offset: String(page * pageSize) };
  // Always fresh on arrival: deleting a ledger entry elsewhere deletes its investments too.
  const { data, error, isLoading, isFetching, refetch } = useListResourceQuery({ path: meta.path, params }, { refetchOnMountOrArgChange: true });
  const [remove, removeState] = useRemoveResourceMutation();
  const [shown, setShown] = useState<ResourceRecord | null>(null);
  const [editing, setEditing] = useState<ResourceRecord | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ResourceRecord | null>(null);

  const view: ResourceView = {
    kind: meta.kind,
    basePath: recordHref(parentKind, parent) ?? '/',
    title: 'Investments',
    columns: [],
    labels: LABELS,
    omit: [...omit],
  };
  const label = (name: string) => fieldLabel(view, name);
  const rows = data?.results ?? [];
  const count = data?.count ?? 0;

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await remove({ path: meta.path, id: deleting.id }).unwrap();
      notify.success(`${toastName(meta, deleting)} deleted.`);
      setDeleting(null);
      setShown(null);
      // The last row of a later page: show the page before it.
      if (rows.length === 1 && page > 0) setPage(page - 1);
    } catch (failure) {
      notify.error(`Could not delete the investment: ${apiErrorMessage(failure as ApiError)}`);
    }
  };

  const actions = (record: ResourceRecord) =>
    canWrite && (
      <Stack direction="row" spacing={0.5} sx={{ justifyContent: 'flex-end' }}>
        <Tooltip title="Edit">
          <IconButton size="small" aria-label={`Edit ${recordName(meta, record)}`} onClick={() => setEditing(record)}>
            <EditIcon fontSize="small" />
          </IconButton>
        </Tooltip>
        <Tooltip title="Delete">
          <IconButton size="small" color="error" aria-label={`Delete ${recordName(meta, record)}`} onClick={() => setDeleting(record)}>
            <DeleteIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      </Stack>
    );

  return (
    <Paper variant="outlined" component="section" aria-labelledby={headingId} data-testid="investments-section" sx={{ p: { xs: 2, sm: 3 } }}>
      <Stack direction="row" useFlexGap sx={{ gap: 2, alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', mb: 2 }}>
        <Box>
          <Typography id={headingId} variant="h5" component="h2" sx={{ fontWeight: 700 }}>
            Investments
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {parentKind === 'ledger_entries' ? 'Stakes in this ledger entry and who holds them.' : `Stakes held by ${recordName(parentMeta, parent)}.`}
          </Typography>
        </Box>
        {canWrite && (
          <Button variant="outlined" startIcon={<AddIcon />} onClick={() => setEditing('new')}>
            Add investment
          </Button>
        )}
      </Stack>

      {isLoading ? (
        <LinearProgress aria-label="Loading investments" />
      ) : error ? (
        <RetryAlert onRetry={() => refetch()}>{apiErrorMessage(error)}</RetryAlert>
      ) : rows.length === 0 ? (
        <Typography color="text.secondary">{empty}</Typography>
      ) : (
        <>
          {isFetching && <LinearProgress aria-label="Refreshing investments" />}
          {phone ? (
            <Stack component="ul" divider={<Box component="li" aria-hidden="true" sx={{ borderTop: 1, borderColor: 'divider' }} />} sx={{ m: 0, p: 0, listStyle: 'none' }}>
              {rows.map((record) => (
                <Stack component="li" key={record.id} data-investment={record.id} direction="row" spacing={1} sx={{ py: 1.5, alignItems: 'flex-start' }}>
                  <Box sx={{ flex: 1, minWidth: 0 }}>
                    <Link component="button" type="button" onClick={() => setShown(record)} sx={{ textAlign: 'left', fontWeight: 600 }}>
                      {recordName(meta, record)}
                    </Link>
                    <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'break-word' }}>
                      {parentKind === 'ledger_entries' ? 'Held by ' : 'In '}
                      {parentKind === 'ledger_entries' ? <RefLink value={record['owner'] ?? record['owner_person']} /> : <RefLink value={record['ledger_entry']} />}
                      {typeof record['inv_date'] === 'string' && ` · ${formatIncompleteDate(record['inv_date'])}`}
                      {ownership(record) && ` · ${ownership(record)}`}
                    </Typography>
                    <Box sx={{ mt: 0.5 }}>
                      <VisibilityChip value={record['visibility']} />
                    </Box>
                  </Box>
                  {actions(record)}
                </Stack>
              ))}
            </Stack>
          ) : (
            <TableContainer sx={{ overflowX: 'auto' }}>
              <Table size="small" aria-labelledby={headingId}>
                <TableHead>
                  <TableRow>
                    <TableCell>{label('display_name')}</TableCell>
                    {parentKind === 'ledger_entries' ? <TableCell>Held by</TableCell> : <TableCell>{label('ledger_entry')}</TableCell>}
                    <TableCell>{label('inv_date')}</TableCell>
                    <TableCell>{label('ownership_percentage')}</TableCell>
                    <TableCell>Visibility</TableCell>
                    {canWrite && (
                      <TableCell align="right">
                        <VisuallyHidden>Actions</VisuallyHidden>
                      </TableCell>
                    )}
                  </TableRow>
                </TableHead>
                <TableBody>
                  {rows.map((record) => (
                    <TableRow key={record.id} hover data-investment={record.id}>
                      <TableCell>
                        <Link component="button" type="button" onClick={() => setShown(record)} sx={{ textAlign: 'left', fontWeight: 600 }}>
                          {recordName(meta, record)}
                        </Link>
                      </TableCell>
                      <TableCell>
                        {parentKind === 'ledger_entries' ? <RefLink value={record['owner'] ?? record['owner_person']} /> : <RefLink value={record['ledger_entry']} />}
                      </TableCell>
                      <TableCell sx={{ whiteSpace: 'nowrap' }}>
                        {typeof record['inv_date'] === 'string' ? formatIncompleteDate(record['inv_date']) : <NotSet />}
                      </TableCell>
                      <TableCell sx={{ whiteSpace: 'nowrap' }}>{ownership(record) ?? <NotSet />}</TableCell>
                      <TableCell>
                        <VisibilityChip value={record['visibility']} />
                      </TableCell>
                      {canWrite && <TableCell align="right">{actions(record)}</TableCell>}
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          )}
          {count > PAGE_SIZES[0]! && (
            <TablePagination
              component="div"
              count={count}
              page={page}
              rowsPerPage={pageSize}
              rowsPerPageOptions={PAGE_SIZES}
              onPageChange={(_event, next) => setPage(next)}
              onRowsPerPageChange={(event) => {
                setPageSize(Number(event.target.value));
                setPage(0);
              }}
            />
          )}
        </>
      )}

      <Dialog open={shown !== null} onClose={() => setShown(null)} fullWidth maxWidth="sm" fullScreen={phone} aria-labelledby={`${headingId}-details`}>
        {shown && (
          <>
            <DialogTitle id={`${headingId}-details`}>{recordName(meta, shown)}</DialogTitle>
            <DialogContent dividers>
              <Box sx={{ mb: 2 }}>
                <VisibilityChip value={shown['visibility']} />
              </Box>
              <RecordFields meta={meta} view={view} record={shown} framed={false} />
            </DialogContent>
            <DialogActions>
              {canWrite && (
                <>
                  <Button color="error" startIcon={<DeleteIcon />} onClick={() => setDeleting(shown)}>
                    Delete
                  </Button>
                  <Button
                    startIcon={<EditIcon />}
                    onClick={() => {
                      setEditing(shown);
                      setShown(null);
                    }}
                  >
                    Edit
                  </Button>
                </>
              )}
              <Button variant="contained" onClick={() => setShown(null)}>
                Close
              </Button>
            </DialogActions>
          </>
        )}
      </Dialog>

      <Dialog
        open={editing !== null}
        // A stray click beside the form must not throw away what was typed; Escape and Cancel close it.
        onClose={(_event, reason) => reason !== 'backdropClick' && setEditing(null)}
        fullWidth
        maxWidth="md"
        fullScreen={phone}
        aria-labelledby={`${headingId}-form`}
      >
        <DialogTitle id={`${headingId}-form`}>
          {editing === 'new' ? 'Add investment' : editing ? `Edit ${recordName(meta, editing)}` : ''}
        </DialogTitle>
        <DialogContent dividers>
          {editing !== null && (
            <EntityForm
              meta={meta}
              view={view}
              record={editing === 'new' ? undefined : editing}
              createWith={{ [field]: parent.id }}
              onSaved={() => setEditing(null)}
              onCancel={() => setEditing(null)}
            />
          )}
        </DialogContent>
      </Dialog>

      <ConfirmDialog
        open={deleting !== null}
        title="Delete this investment?"
        confirmLabel="Delete"
        danger
        busy={removeState.isLoading}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      >
        “{deleting ? recordName(meta, deleting) : ''}” will be deleted for everyone. This cannot be undone.
      </ConfirmDialog>
    </Paper>
  );
}
