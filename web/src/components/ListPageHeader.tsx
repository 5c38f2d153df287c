import type { ReactNode } from 'react';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import { Link as RouterLink } from 'react-router';

interface ListPageHeaderProps {
  title: string;
  /** What the list holds, under the title. */
  description?: ReactNode;
  /** The "New …" button: its label and where it leads; left out for callers who may not create. */
  create?: { label: string; to: string };
}

/**
 * A list page's heading row: its h1 (no page part in the tab's title: a list page's title is its
 * section's, lib/page-title.tsx), what it holds, and the button to create a new entry.
 */
export function ListPageHeader({ title, description, create }: ListPageHeaderProps) {
  const heading = (
    <Typography variant="h4" component="h1" sx={{ fontWeight: 700 }}>
      {title}
    </Typography>
  );
  return (
    <Stack direction="row" useFlexGap sx={{ gap: 2, alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap' }}>
      {description === undefined ? (
        heading
      ) : (
        <Stack spacing={0.5}>
          {heading}
          <Typography color="text.secondary">{description}</Typography>
        </Stack>
      )}
      {create && (
        <Button variant="contained" startIcon={<AddIcon />} component={RouterLink} to={create.to}>
          {create.label}
        </Button>
      )}
    </Stack>
  );
}
