import LockIcon from '@mui/icons-material/Lock';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import type { ShownCount } from '../api/counts';
import { VisuallyHidden } from './VisuallyHidden';

interface EntityCountProps {
  count: ShownCount | null;
  /** Shows "—" instead of 0 (SPEC §2: a list count shows a dash if zero). */
  dashIfZero?: boolean;
}

const formatter = new Intl.NumberFormat('en-US');

/**
 * A count as the audience may see it: a total when signed in; for visitors the public count,
 * a separator and the paywalled count behind a lock.
 */
export function EntityCount({ count, dashIfZero = false }: EntityCountProps) {
  if (count === null) return <Skeleton variant="text" width={56} aria-label="Loading count" />;

  const empty = count.signedIn ? count.total === 0 : count.public + count.paywall === 0;
  if (dashIfZero && empty) {
    return (
      <Box component="span" data-testid="entity-count">
        <span aria-hidden="true">—</span>
        <VisuallyHidden>none</VisuallyHidden>
      </Box>
    );
  }

  if (count.signedIn) {
    return (
      <Box component="span" data-testid="entity-count">
        {formatter.format(count.total)}
      </Box>
    );
  }

  return (
    <Box component="span" data-testid="entity-count">
      <Box
        component="span"
        aria-hidden="true"
        sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.75, whiteSpace: 'nowrap' }}
      >
        <span>{formatter.format(count.public)}</span>
        <Box component="span" sx={{ color: 'text.disabled' }}>
          |
        </Box>
        <LockIcon data-testid="paywall-lock" sx={{ fontSize: '1em', color: 'text.secondary' }} />
        <span>{formatter.format(count.paywall)}</span>
      </Box>
      <VisuallyHidden>
        {`${formatter.format(count.public)} public, ${formatter.format(count.paywall)} for signed-in readers`}
      </VisuallyHidden>
    </Box>
  );
}
