import { useEffect, useId, useState, type ChangeEvent, type FormEvent } from 'react';
import { skipToken } from '@reduxjs/toolkit/query/react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import type { ImportFailedBody, ImportReport, Job, ResourceMeta } from '@intelnotes/server/contracts';
import { apiErrorMessage, type ApiError } from '../api/api-error';
import { isImportJob, useImportJobQuery, useRefreshAfterImport, useUploadResourceMutation } from '../api/resources';
import { notify } from './notify';
import { fieldLabel, type ResourceView } from './resource-view';

interface SpreadsheetUploadDialogProps {
  meta: ResourceMeta;
  view: ResourceView;
  open: boolean;
  onClose: () => void;
}

/** The report of a refused import (400 import_failed), when the error carries one. */
function failedImportReport(error: ApiError): ImportReport | null {
  if (!('status' in error) || typeof error.data !== 'object' || error.data === null) return null;
  const body = error.data as Partial<ImportFailedBody>;
  return body.code === 'import_failed' && body.report ? body.report : null;
}

/** How often a running import job is asked where it is. */
const JOB_POLL_MS = 1_000;

/** What a job's stage means to the person waiting for it. */
function jobStageText(job: Job | undefined): string {
  if (!job || job.status === 'queued') return 'Waiting to start';
  if (job.stage === 'reading') return 'Reading the file';
  if (job.stage === 'importing') return 'Importing rows';
  return job.stage ?? 'Starting';
}

function notifyReport(report: ImportReport) {
  const summary = `${report.created} created, ${report.updated} updated`;
  if (report.rolled_back) notify.error(`Import failed: ${report.failed} ${report.failed === 1 ? 'row has' : 'rows have'} errors; nothing was imported.`);
  else if (report.failed > 0) notify.warning(`Import finished: ${summary}, ${report.failed} failed.`);
  else notify.success(`Import finished: ${summary}.`);
}

/**
 * Imports rows from an .xlsx or .csv file and shows what was created, updated and refused.
 * A big file is imported by a job on the server (the upload answers 202): the dialog polls
 * it and shows its stage and percent, then the same report. Closing the dialog leaves the job
 * running; this component stays mounted with the table, so it still refreshes the table and
 * tells when the job ends.
 */
export function SpreadsheetUploadDialog({ meta, view, open, onClose }: SpreadsheetUploadDialogProps) {
  const inputId = useId();
  const hintId = useId();
  const fullScreen = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const [upload, { isLoading }] = useUploadResourceMutation();
  const [file, setFile] = useState<File | null>(null);
  const [partial, setPartial] = useState(false);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [inputKey, setInputKey] = useState(0);
  const [jobId, setJobId] = useState<string | null>(null);
  const { data: job, error: jobError } = useImportJobQuery(jobId ?? skipToken, {
    pollingInterval: jobId ? JOB_POLL_MS : 0,
    skipPollingIfUnfocused: false,
  });
  const refreshAfterImport = useRefreshAfterImport();
  const jobRunning = jobId !== null;

  useEffect(() => {
    if (!jobId || !job || job.id !== jobId) return;
    if (job.status === 'succeeded') {
      const result = job.result as ImportReport;
      setJobId(null);
      setReport(result);
      refreshAfterImport(meta.path);
      notifyReport(result);
    } else if (job.status === 'failed') {
      setJobId(null);
      setFailure(`The import stopped: ${job.error ?? 'unknown reason'}. Rows written before it stopped are kept when “Keep good rows” was ticked.`);
      refreshAfterImport(meta.path);
      notify.error('Import failed.');
    }
  }, [job, jobId, meta.path, refreshAfterImport]);

  useEffect(() => {
    if (!jobId || !jobError) return;
    setJobId(null);
    setFailure(`The import's progress could not be read: ${apiErrorMessage(jobError as ApiError)}`);
  }, [jobError, jobId]);

  const reset = () => {
    setFile(null);
    setReport(null);
    setFailure(null);
    setInputKey((key) => key + 1);
  };
  const close = () => {
    if (isLoading) return;
    if (jobRunning) {
      // The job is the server's: it goes on, and this component (mounted with the table) still follows it.
      notify.info('The import goes on in the background; the table refreshes when it ends.');
      onClose();
      return;
    }
    reset();
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) {
      setFailure('Choose an .xlsx or .csv file first.');
      return;
    }
    setFailure(null);
    setReport(null);
    try {
      const result = await upload({ path: meta.path, file, partial }).unwrap();
      if (isImportJob(result)) {
        setJobId(result.job_id);
        return;
      }
      setReport(result);
      notifyReport(result);
    } catch (error) {
      const refused = failedImportReport(error as ApiError);
      const message = apiErrorMessage(error as ApiError);
      if (refused) setReport(refused);
      else setFailure(message);
      notify.error(`Import failed: ${message}`);
    }
  };

  return (
    <Dialog open={open} onClose={close} fullScreen={fullScreen} fullWidth maxWidth="md" aria-labelledby={`${inputId}-title`}>
      <DialogTitle id={`${inputId}-title`}>Upload {view.title.toLowerCase()} from a spreadsheet</DialogTitle>
      <Box component="form" onSubmit={submit} noValidate sx={{ display: 'contents' }}>
        <DialogContent dividers>
          <Stack spacing={2}>
            <Typography variant="body2" color="text.secondary">
              The first row holds the column names, e.g. {meta.fields.filter((field) => field.kind !== 'object').slice(0, 4).map((field) => field.name).join(', ')}.
              Rows matching an existing {meta.label.toLowerCase()} by name, email or URL update it; the others are created.
              Lists go in one cell, separated by semicolons.
            </Typography>
            <Box>
              <FormLabel htmlFor={inputId} sx={{ display: 'block', mb: 0.5 }}>
                Spreadsheet file
              </FormLabel>
              <Box
                key={inputKey}
                component="input"
                id={inputId}
                type="file"
                accept=".xlsx,.csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,text/csv"
                aria-describedby={hintId}
                onChange={(event: ChangeEvent<HTMLInputElement>) => {
                  setFile(event.target.files?.[0] ?? null);
                  setReport(null);
                  setFailure(null);
                }}
                sx={{
                  display: 'block',
                  maxWidth: '100%',
                  font: 'inherit',
                  '&::file-selector-button': {
                    font: 'inherit',
                    fontWeight: 600,
                    mr: 1.5,
                    px: 2,
                    py: 0.75,
                    borderRadius: 1,
                    border: 1,
                    borderColor: 'primary.main',
                    bgcolor: 'background.paper',
                    color: 'primary.dark',
                    cursor: 'pointer',
                  },
                  '&:focus-visible': { outline: 2, outlineColor: 'primary.dark', outlineOffset: 2, borderRadius: 1 },
                }}
              />
              <FormHelperText id={hintId}>An .xlsx or .csv file.</FormHelperText>
            </Box>
            <FormControlLabel
              control={<Checkbox checked={partial} onChange={(event) => setPartial(event.target.checked)} />}
              label="Keep good rows (import the valid rows even when some rows have errors)"
            />
            {isLoading && <LinearProgress aria-label="Uploading" />}
            {jobRunning && <ImportJobProgress job={job?.id === jobId ? job : undefined} />}
            {failure && (
              <Alert severity="error" role="alert">
                {failure}
              </Alert>
            )}
            {report && <ImportReportView report={report} view={view} />}
          </Stack>
        </DialogContent>
        <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
          {report && (
            <Button onClick={reset} disabled={isLoading || jobRunning}>
              Upload another file
            </Button>
          )}
          <Button onClick={close} disabled={isLoading}>
            Close
          </Button>
          {!report && (
            <Button type="submit" variant="contained" disabled={isLoading || jobRunning}>
              Upload
            </Button>
          )}
        </DialogActions>
      </Box>
    </Dialog>
  );
}

/** A running import job: its stage and percent, and that closing the dialog leaves it running. */
function ImportJobProgress({ job }: { job: Job | undefined }) {
  const percent = job?.status === 'running' ? (job.percent ?? 0) : 0;
  const stage = jobStageText(job);
  return (
    <Stack spacing={1} data-testid="import-progress">
      <Typography variant="body2" role="status">
        {stage} — {percent}%
      </Typography>
      <LinearProgress variant="determinate" value={percent} aria-label={`Import: ${stage}`} />
      <Typography variant="body2" color="text.secondary">
        This is a big file, so it is imported in the background. You can close this dialog: the import goes on, and the
        table refreshes when it ends.
      </Typography>
    </Stack>
  );
}

function ImportReportView({ report, view }: { report: ImportReport; view: ResourceView }) {
  const severity = report.rolled_back || (report.failed > 0 && report.created + report.updated === 0)
    ? 'error'
    : report.failed > 0
      ? 'warning'
      : 'success';
  return (
    <Stack spacing={2} data-testid="import-report">
      <Alert severity={severity} role="status">
        <strong>
          {report.created} created · {report.updated} updated · {report.failed} failed
        </strong>
        {report.rolled_back && (
          <Typography variant="body2" sx={{ mt: 0.5 }}>
            Nothing was saved because some rows have errors. Fix them and upload again, or tick “Keep good rows”
            to import the valid rows.
          </Typography>
        )}
      </Alert>
      {report.unmatched_columns.length > 0 && (
        <Alert severity="info">Columns not recognised and ignored: {report.unmatched_columns.join(', ')}</Alert>
      )}
      {report.errors.length > 0 && (
        <TableContainer sx={{ maxHeight: 320, border: 1, borderColor: 'divider', borderRadius: 1 }}>
          <Table size="small" stickyHeader aria-label="Rows with errors">
            <TableHead>
              <TableRow>
                <TableCell>Row</TableCell>
                <TableCell>Field</TableCell>
                <TableCell>Message</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {report.errors.map((entry, index) => (
                <TableRow key={`${entry.row}-${entry.field ?? ''}-${index}`}>
                  <TableCell>{entry.row}</TableCell>
                  <TableCell>{entry.field ? fieldLabel(view, entry.field) : '—'}</TableCell>
                  <TableCell sx={{ overflowWrap: 'anywhere' }}>{entry.message}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Stack>
  );
}
