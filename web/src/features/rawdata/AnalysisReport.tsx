/**
 * The raw data analysis report on screen (docs/processing.md "Analysis report"): a button starts
 * the report — of the selected rows, or of what the list shows (its search and filters) — and a
 * dialog follows it (polling its status) until the workbook and the page can be downloaded, or
 * says why it failed.
 */
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AssessmentIcon from '@mui/icons-material/Assessment';
import { apiErrorMessage, type ApiError } from '../../api/api-error';
import { notify } from '../../components/notify';
import { useAnalysisReportStatusQuery, useDownloadAnalysisReportMutation, useStartAnalysisReportMutation } from './rawdata.api';

/** How often a running report is asked about. */
const POLL_MS = 1_500;

function ReportProgress({ taskId }: { taskId: string }) {
  const [polling, setPolling] = useState(true);
  const { data } = useAnalysisReportStatusQuery(taskId, { pollingInterval: polling ? POLL_MS : 0 });
  const [download, downloadState] = useDownloadAnalysisReportMutation();
  if (polling && (data?.status === 'completed' || data?.status === 'error')) setPolling(false);
  const save = async (url: string, fallbackName: string) => {
    try {
      const { filename } = await download({ url, fallbackName }).unwrap();
      notify.success(`Downloaded ${filename}.`);
    } catch (error) {
      notify.error(`Download failed: ${apiErrorMessage(error as ApiError)}`);
    }
  };
  if (data?.status === 'error') return <Alert severity="error">The report failed: {data.reason}</Alert>;
  if (data?.status !== 'completed') {
    return (
      <Stack spacing={1}>
        <Typography>{data?.status === 'running' ? 'Writing the report…' : 'Waiting to start…'}</Typography>
        <LinearProgress variant="determinate" value={data?.percent ?? 0} aria-label="Report progress" />
      </Stack>
    );
  }
  return (
    <Stack spacing={1.5} data-testid="report-ready">
      <Typography>
        The report of {data.items} item{data.items === 1 ? '' : 's'} is ready.
      </Typography>
      <Stack direction="row" spacing={1}>
        <Button variant="contained" disabled={downloadState.isLoading} onClick={() => void save(data.links.xlsx, 'raw_data_report.xlsx')}>
          Workbook (.xlsx)
        </Button>
        <Button variant="outlined" disabled={downloadState.isLoading} onClick={() => void save(data.links.html, 'raw_data_report.html')}>
          Page with charts (.html)
        </Button>
      </Stack>
    </Stack>
  );
}

/** Starts a report of `ids` when given (selected rows), else of the list's `filters`. */
export function AnalysisReportButton({ ids, filters, size = 'medium' }: { ids?: string[]; filters?: Record<string, string>; size?: 'small' | 'medium' }) {
  const [start, startState] = useStartAnalysisReportMutation();
  const [taskId, setTaskId] = useState<string | null>(null);
  const onStart = async () => {
    try {
      const { task_id } = await start(ids ? { ids } : { filters: filters ?? {} }).unwrap();
      setTaskId(task_id);
    } catch (error) {
      notify.error(`The report could not start: ${apiErrorMessage(error as ApiError)}`);
    }
  };
  return (
    <>
      <Button variant="outlined" size={size} startIcon={<AssessmentIcon />} disabled={startState.isLoading || (ids !== undefined && ids.length === 0)}
        onClick={() => void onStart()}>
        Analysis report
      </Button>
      <Dialog open={taskId !== null} onClose={() => setTaskId(null)} fullWidth maxWidth="sm" aria-labelledby="analysis-report-title">
        <DialogTitle id="analysis-report-title">Analysis report</DialogTitle>
        <DialogContent>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {ids ? `Of the ${ids.length} selected item${ids.length === 1 ? '' : 's'}.` : 'Of the items the list shows (its search and filters).'} Counts by type, bucket
            and month, the most mentioned organizations, people, places and keywords, the years mentioned and the sources.
          </Typography>
          {taskId && <ReportProgress taskId={taskId} />}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setTaskId(null)}>Close</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
