import { useId, useState, type ReactNode } from 'react';
import Badge from '@mui/material/Badge';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import Stack from '@mui/material/Stack';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import FilterListIcon from '@mui/icons-material/FilterList';

interface CollapsibleFiltersProps {
  /** How many filters are set now: shown on the button, so a closed panel still tells. */
  active: number;
  children: ReactNode;
}

/**
 * A list's filters: inline beside the search box from the sm breakpoint up; on a phone behind
 * a "Filters" button, closed at first, so the table starts under the search box instead of
 * below a screen or two of filter fields (issue 28: /rawdata at 390 px).
 */
export function CollapsibleFilters({ active, children }: CollapsibleFiltersProps) {
  const narrow = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true });
  const [open, setOpen] = useState(false);
  const panelId = useId();
  if (!narrow) return <>{children}</>;
  return (
    <>
      <Button
        variant="outlined"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((shown) => !shown)}
        startIcon={
          <Badge color="primary" badgeContent={active} invisible={active === 0}>
            <FilterListIcon />
          </Badge>
        }
        sx={{ alignSelf: 'flex-start' }}
      >
        {open ? 'Hide filters' : 'Filters'}
      </Button>
      <Collapse in={open} unmountOnExit>
        <Stack id={panelId} role="group" aria-label="Filters" useFlexGap sx={{ gap: 1.5 }}>
          {children}
        </Stack>
      </Collapse>
    </>
  );
}
