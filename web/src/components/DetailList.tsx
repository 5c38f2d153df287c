import { useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { NotSet } from './FieldValue';

const LIST_SX = {
  m: 0,
  display: 'grid',
  gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'minmax(10rem, 14rem) minmax(0, 1fr)' },
  columnGap: 3,
  rowGap: { xs: 0.5, sm: 2 },
  '& dt': { color: 'text.secondary', fontWeight: 600, mt: { xs: 1.5, sm: 0 } },
  '& > div:first-of-type > dt': { mt: 0 },
  '& dd': { m: 0, minWidth: 0 },
} as const;

/**
 * A record's fields as a description list: labels beside values, stacked on phones. Framed on
 * a page; `framed={false}` inside a dialog, which has its own frame.
 */
export function DetailList({ children, framed = true }: { children: ReactNode; framed?: boolean }) {
  const list = (
    <Box component="dl" sx={LIST_SX}>
      {children}
    </Box>
  );
  return framed ? (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
      {list}
    </Paper>
  ) : (
    list
  );
}

/** One field of a DetailList; `name` marks the value (data-field) for tests and styling. */
export function DetailItem({ label, name, children }: { label: string; name: string; children: ReactNode }) {
  return (
    <Box sx={{ display: 'contents' }}>
      <Typography component="dt">{label}</Typography>
      <Typography component="dd" data-field={name}>
        {children}
      </Typography>
    </Box>
  );
}

/** One field to read: its value as shown, and whether it holds nothing (then shown as "Not set"). */
export interface DetailField {
  name: string;
  label: string;
  empty: boolean;
  value: ReactNode;
}

/**
 * The fields of a record to read, empty ones hidden until "Show empty fields" is switched on
 * (every detail page and dialog reads the same way). Nothing but the switch when all are empty.
 */
export function DetailFields({ fields, framed = true }: { fields: DetailField[]; framed?: boolean }) {
  const [showEmpty, setShowEmpty] = useState(false);
  const emptyCount = fields.filter((field) => field.empty).length;
  const shown = showEmpty ? fields : fields.filter((field) => !field.empty);
  return (
    <>
      {shown.length > 0 && (
        <DetailList framed={framed}>
          {shown.map((field) => (
            <DetailItem key={field.name} label={field.label} name={field.name}>
              {field.empty ? <NotSet /> : field.value}
            </DetailItem>
          ))}
        </DetailList>
      )}
      {emptyCount > 0 && (
        <FormControlLabel
          sx={{ alignSelf: 'flex-start', mt: framed ? (shown.length > 0 ? -1.5 : 0) : 2 }}
          control={<Switch size="small" checked={showEmpty} onChange={(event) => setShowEmpty(event.target.checked)} />}
          label={`Show empty fields (${emptyCount})`}
        />
      )}
    </>
  );
}
