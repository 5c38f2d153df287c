import CloudOffIcon from '@mui/icons-material/CloudOff';
import FiberManualRecordIcon from '@mui/icons-material/FiberManualRecord';
import SyncIcon from '@mui/icons-material/Sync';
import Box from '@mui/material/Box';
import Tooltip from '@mui/material/Tooltip';
import { useAppSelector } from '../hooks';
import { selectLiveStatus, type LiveStatus } from '../events/live.slice';

/** What each state reads as, to screen readers and in the tooltip. */
export const LIVE_STATUS_LABELS: Record<LiveStatus, string> = {
  connecting: 'Live updates: connecting',
  connected: 'Live updates: connected',
  reconnecting: 'Live updates: reconnecting',
  offline: 'Live updates: offline (reload the page to try again)',
};

// Each state has its own shape as well as its colour, so colour is not the only cue.
const LOOKS: Record<LiveStatus, { Icon: typeof SyncIcon; color: string }> = {
  connecting: { Icon: SyncIcon, color: 'text.secondary' },
  connected: { Icon: FiberManualRecordIcon, color: 'success.main' },
  reconnecting: { Icon: SyncIcon, color: 'warning.main' },
  offline: { Icon: CloudOffIcon, color: 'text.disabled' },
};

/** The header's live indicator: whether the session's event stream is open (signed-in users only). */
export function LiveIndicator() {
  const status = useAppSelector(selectLiveStatus);
  const { Icon, color } = LOOKS[status];
  return (
    <Tooltip title={LIVE_STATUS_LABELS[status]}>
      <Box
        data-testid="live-status"
        data-status={status}
        role="img"
        aria-label={LIVE_STATUS_LABELS[status]}
        sx={{ display: 'inline-flex', alignItems: 'center', color }}
      >
        <Icon fontSize="small" sx={{ fontSize: status === 'connected' ? 12 : 18 }} aria-hidden />
      </Box>
    </Tooltip>
  );
}
