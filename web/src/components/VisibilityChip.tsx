import type { ReactElement } from 'react';
import Chip from '@mui/material/Chip';
import LockIcon from '@mui/icons-material/Lock';
import PublicIcon from '@mui/icons-material/Public';
import VisibilityOffIcon from '@mui/icons-material/VisibilityOff';

/** Who sees a record: admins only, signed-in (paywall) users, or everyone. */
export const VISIBILITY_OPTIONS: ReadonlyArray<{
  value: string;
  label: string;
  description: string;
  icon: ReactElement;
  color: 'default' | 'warning' | 'success';
}> = [
  { value: 'hidden', label: 'Hidden', description: 'Not shown to readers', icon: <VisibilityOffIcon fontSize="small" />, color: 'default' },
  { value: 'paywalled', label: 'Paywalled', description: 'Signed-in readers', icon: <LockIcon fontSize="small" />, color: 'warning' },
  { value: 'public', label: 'Public', description: 'Everyone, signed in or not', icon: <PublicIcon fontSize="small" />, color: 'success' },
];

export function visibilityLabel(value: unknown): string {
  return VISIBILITY_OPTIONS.find((option) => option.value === value)?.label ?? String(value ?? '');
}

/** A record's visibility as a small chip with its icon. */
export function VisibilityChip({ value }: { value: unknown }) {
  const option = VISIBILITY_OPTIONS.find((entry) => entry.value === value);
  if (!option) return null;
  return (
    <Chip
      size="small"
      variant="outlined"
      color={option.color}
      icon={option.icon}
      label={option.label}
      data-testid="visibility-chip"
      title={option.description}
    />
  );
}
