import { useId, useState } from 'react';
import Button from '@mui/material/Button';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import SegmentIcon from '@mui/icons-material/Segment';

interface GroupByMenuProps {
  /** The fields the table can be grouped by (the resource's `group_by` the reader may read). */
  fields: string[];
  value: string | null;
  onChange: (field: string | null) => void;
  label: (name: string) => string;
}

/** The "Group" menu of a table: no grouping, or one field whose values head groups of rows. */
export function GroupByMenu({ fields, value, onChange, label }: GroupByMenuProps) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  if (fields.length === 0) return null;
  const choose = (field: string | null) => {
    onChange(field);
    setAnchor(null);
  };
  const option = (field: string | null, text: string) => (
    <MenuItem key={field ?? ''} role="menuitemradio" aria-checked={value === field} onClick={() => choose(field)} dense>
      <ListItemIcon>
        <Radio edge="start" size="small" checked={value === field} tabIndex={-1} disableRipple slotProps={{ input: { 'aria-hidden': true } }} />
      </ListItemIcon>
      <ListItemText>{text}</ListItemText>
    </MenuItem>
  );
  return (
    <>
      <Button
        variant="outlined"
        sx={{ whiteSpace: 'nowrap' }}
        startIcon={<SegmentIcon />}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        aria-controls={anchor ? menuId : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        {value ? `Group: ${label(value)}` : 'Group'}
      </Button>
      <Menu id={menuId} anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        <ListSubheader>Group rows by</ListSubheader>
        {option(null, 'No grouping')}
        {fields.map((field) => option(field, label(field)))}
      </Menu>
    </>
  );
}
