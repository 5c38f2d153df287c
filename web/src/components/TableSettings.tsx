import { useId, useState } from 'react';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Divider from '@mui/material/Divider';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import ViewColumnIcon from '@mui/icons-material/ViewColumn';
import type { TableDensity, TablePrefsState } from './table-prefs';

interface TableSettingsProps {
  prefs: TablePrefsState;
  /** Every column the table can show, in order. */
  available: string[];
  /** Columns that are always shown (the name). */
  always: string[];
  label: (name: string) => string;
}

const DENSITIES: Array<[TableDensity, string]> = [
  ['comfortable', 'Comfortable'],
  ['compact', 'Compact'],
];

/** The "Columns" menu of a table: which columns it shows and how dense its rows are, remembered per table. */
export function TableSettings({ prefs, available, always, label }: TableSettingsProps) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const toggle = (name: string) =>
    prefs.setShown(prefs.shown.includes(name) ? prefs.shown.filter((entry) => entry !== name) : [...prefs.shown, name]);
  return (
    <>
      <Button
        variant="outlined"
        startIcon={<ViewColumnIcon />}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        aria-controls={anchor ? menuId : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        Columns
      </Button>
      <Menu id={menuId} anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)} slotProps={{ paper: { sx: { maxHeight: 480 } } }}>
        <ListSubheader>Columns</ListSubheader>
        {available.map((name) => {
          const locked = always.includes(name);
          return (
            <MenuItem key={name} role="menuitemcheckbox" aria-checked={prefs.shown.includes(name)} disabled={locked} onClick={() => toggle(name)} dense>
              <ListItemIcon>
                <Checkbox edge="start" size="small" checked={prefs.shown.includes(name)} tabIndex={-1} disableRipple slotProps={{ input: { 'aria-hidden': true } }} />
              </ListItemIcon>
              <ListItemText>{label(name)}</ListItemText>
            </MenuItem>
          );
        })}
        <Divider />
        <ListSubheader>Density</ListSubheader>
        {DENSITIES.map(([value, text]) => (
          <MenuItem key={value} role="menuitemradio" aria-checked={prefs.density === value} onClick={() => prefs.setDensity(value)} dense>
            <ListItemIcon>
              <Radio edge="start" size="small" checked={prefs.density === value} tabIndex={-1} disableRipple slotProps={{ input: { 'aria-hidden': true } }} />
            </ListItemIcon>
            <ListItemText>{text}</ListItemText>
          </MenuItem>
        ))}
        <Divider />
        <MenuItem onClick={() => prefs.reset()} dense>
          <ListItemText inset>Reset to defaults</ListItemText>
        </MenuItem>
      </Menu>
    </>
  );
}
