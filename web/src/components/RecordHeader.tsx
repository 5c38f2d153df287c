import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { PageHeading } from './PageHeading';
import { VisibilityChip } from './VisibilityChip';

interface RecordHeaderProps {
  /** The list the record belongs to, linked above the heading. */
  back: { to: string; label: string };
  /** The record's name (the page's h1 and part of the tab's title). */
  title: string;
  /** What kind of record it is, e.g. "Organization" or "Organization list". */
  kindLabel: string;
  visibility: unknown;
  /** The writers' buttons (edit, merge, delete), beside the heading on wide screens. */
  actions?: ReactNode;
}

/** The top of every record page: back to its list, its name, kind and visibility, and what writers may do. */
export function RecordHeader({ back, title, kindLabel, visibility, actions }: RecordHeaderProps) {
  return (
    <Box>
      <Button component={RouterLink} to={back.to} startIcon={<ArrowBackIcon />} size="small" sx={{ mb: 1, ml: -1 }}>
        {back.label}
      </Button>
      <Stack direction={{ xs: 'column', sm: 'row' }} useFlexGap sx={{ gap: 2, alignItems: { sm: 'flex-start' } }}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <PageHeading>{title}</PageHeading>
          <Stack direction="row" useFlexGap sx={{ mt: 1, gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
            <Typography variant="body2" color="text.secondary">
              {kindLabel}
            </Typography>
            <VisibilityChip value={visibility} />
          </Stack>
        </Box>
        {actions && (
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexShrink: 0, flexWrap: 'wrap' }}>
            {actions}
          </Stack>
        )}
      </Stack>
    </Box>
  );
}
