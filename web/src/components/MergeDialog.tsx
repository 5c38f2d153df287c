import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Radio from '@mui/material/Radio';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { FieldMeta, RelatedRef, ResourceMeta } from '@intelnotes/server/contracts';
import { apiErrorMessage, type ApiError } from '../api/api-error';
import { useMergePreviewQuery, useMergeRecordsMutation, useUndoMergeMutation, type MergeChoice } from '../api/merge';
import { useResourcesMetaQuery, type ResourceRecord } from '../api/resources';
import { formatItem, formatScalar } from './field-format';
import { notify } from './notify';
import { RecordPicker, refName } from './RelationField';
import { fieldLabel, recordName, toastName, type ResourceView } from './resource-view';

/** Field kinds whose values are lists: a merge can keep both sides' items. */
const LIST_KINDS: FieldMeta['kind'][] = ['emails', 'phones', 'urls', 'strings'];
const isList = (field: FieldMeta) => LIST_KINDS.includes(field.kind) || (field.kind === 'relation' && field.relation?.many === true);
const isEmpty = (value: unknown) => value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

/** A value as the preview shows it: names for related records, items joined, the rest formatted. */
function describe(field: FieldMeta, value: unknown): string {
  if (isEmpty(value)) return '—';
  const one = (item: unknown) => (item !== null && typeof item === 'object' && 'id' in item ? refName(item as RelatedRef) : formatScalar(field.kind, item));
  return Array.isArray(value) ? value.map((item) => (typeof item === 'string' ? formatItem(field.kind, item) : one(item))).join(', ') : one(value);
}

/** The server's default choice for a field, so the form starts where the API would. */
function defaultChoice(field: FieldMeta, survivor: unknown): MergeChoice {
  if (isList(field)) return 'both';
  return isEmpty(survivor) ? 'other' : 'survivor';
}

interface MergeDialogProps {
  meta: ResourceMeta;
  view: ResourceView;
  record: ResourceRecord;
  open: boolean;
  onClose: () => void;
}

/**
 * "Merge a duplicate into this record": pick the duplicate, compare both field by field,
 * choose whose value to keep (or both, for lists), see which references move, merge —
 * and undo from the toast if it was a mistake.
 */
export function MergeDialog({ meta, view, record, open, onClose }: MergeDialogProps) {
  const [other, setOther] = useState<RelatedRef | null>(null);
  const [choices, setChoices] = useState<Record<string, MergeChoice>>({});
  const preview = useMergePreviewQuery({ path: meta.path, id: record.id, other: other?.id ?? '' }, { skip: !open || !other });
  const [merge, merging] = useMergeRecordsMutation();
  const [undo] = useUndoMergeMutation();
  const fields = new Map(meta.fields.map((field) => [field.name, field]));
  const rows = (preview.data?.fields ?? []).filter((row) => fields.has(row.name));
  const differing = rows.filter((row) => row.differs);
  const choiceOf = (name: string, survivorValue: unknown) => choices[name] ?? defaultChoice(fields.get(name)!, survivorValue);
  const references = Object.entries(preview.data?.references ?? {});
  const allMeta = useResourcesMetaQuery().data ?? [];
  /** "2 ledger entries", "1 list": what holds the references, in words. */
  const holders = (kind: string, count: number) => {
    const label = (allMeta.find((resource) => resource.kind === kind)?.label ?? kind.replace(/_/g, ' ')).toLowerCase();
    const plural = label.endsWith('y') ? `${label.slice(0, -1)}ies` : label.endsWith('s') ? label : `${label}s`;
    return `${count} ${count === 1 ? label : plural}`;
  };

  const close = () => {
    setOther(null);
    setChoices({});
    onClose();
  };

  const submit = async () => {
    if (!other) return;
    const chosen = Object.fromEntries(differing.map((row) => [row.name, choiceOf(row.name, row.survivor)]));
    try {
      const result = await merge({ path: meta.path, id: record.id, body: { other: other.id, choices: chosen } }).unwrap();
      close();
      notify.successWithAction(`${refName(other)} was merged into ${toastName(meta, record)}.`, {
        label: 'Undo',
        onClick: () => {
          undo({ path: meta.path, auditId: result.audit_id })
            .unwrap()
            .then(() => notify.success('The merge was undone.'))
            .catch((error: unknown) => notify.error(apiErrorMessage(error as ApiError)));
        },
      });
    } catch (error) {
      notify.error(apiErrorMessage(error as ApiError));
    }
  };

  return (
    <Dialog open={open} onClose={close} maxWidth="md" fullWidth aria-labelledby="merge-title">
      <DialogTitle id="merge-title">Merge a duplicate into “{recordName(meta, record)}”</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Typography variant="body2" color="text.secondary">
            The duplicate is deleted; its lists, ledger entries, library entries and investments move to this {meta.label.toLowerCase()}.
            You can undo the merge right after.
          </Typography>
          <RecordPicker
            multiple={false}
            label={`Duplicate ${meta.label.toLowerCase()}`}
            targets={[{ kind: meta.kind, type: meta.type, label: meta.label, path: meta.path, detail_fields: meta.detail_fields }]}
            // Never the record itself; a second line (city, email) tells same-named records apart.
            exclude={[record.id]}
            value={other}
            onChange={(next) => {
              setOther(next && next.id !== record.id ? next : null);
              setChoices({});
            }}
          />
          {preview.isFetching && <LinearProgress aria-label="Loading the comparison" />}
          {preview.error && <Alert severity="error">{apiErrorMessage(preview.error as ApiError)}</Alert>}
          {other && preview.data && !preview.isFetching && (
            <>
              {differing.length === 0 ? (
                <Alert severity="info">Both records hold the same values.</Alert>
              ) : (
                <Table size="small" aria-label="Values to keep">
                  <TableHead>
                    <TableRow>
                      <TableCell>Field</TableCell>
                      <TableCell>This {meta.label.toLowerCase()}</TableCell>
                      <TableCell>Duplicate</TableCell>
                      <TableCell>Both</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {differing.map((row) => {
                      const field = fields.get(row.name)!;
                      const choice = choiceOf(row.name, row.survivor);
                      const label = fieldLabel(view, row.name);
                      const option = (value: MergeChoice, text: string) => (
                        <Stack direction="row" sx={{ alignItems: 'flex-start' }}>
                          <Radio
                            size="small"
                            checked={choice === value}
                            onChange={() => setChoices((current) => ({ ...current, [row.name]: value }))}
                            slotProps={{ input: { 'aria-label': `${label}: keep ${value === 'survivor' ? 'this' : value === 'other' ? 'the duplicate' : 'both'}` } }}
                          />
                          <Typography variant="body2" sx={{ pt: 1, wordBreak: 'break-word' }}>{text}</Typography>
                        </Stack>
                      );
                      return (
                        <TableRow key={row.name}>
                          <TableCell component="th" scope="row">{label}</TableCell>
                          <TableCell>{option('survivor', describe(field, row.survivor))}</TableCell>
                          <TableCell>{option('other', describe(field, row.other))}</TableCell>
                          <TableCell>{isList(field) ? option('both', 'Keep both') : null}</TableCell>
                        </TableRow>
                      );
                    })}
                  </TableBody>
                </Table>
              )}
              <Typography variant="body2">
                {references.length === 0
                  ? 'Nothing else points at the duplicate.'
                  : `Moves to this ${meta.label.toLowerCase()}: ${references.map(([kind, count]) => holders(kind, count)).join(', ')}.`}
              </Typography>
            </>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>Cancel</Button>
        <Button variant="contained" color="error" disabled={!other || !preview.data || preview.isFetching || merging.isLoading} onClick={() => void submit()}>
          Merge
        </Button>
      </DialogActions>
    </Dialog>
  );
}
