import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { VISIBILITY_OPTIONS } from './VisibilityChip';

interface VisibilityFieldProps {
  /** Given to the radio of the current value, so a link to the field lands on it. */
  id?: string;
  label?: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
}

/** Hidden, paywalled or public as labelled radio buttons with icons (arrow keys move between them). */
export function VisibilityField({ id, label = 'Visibility', value, onChange, error }: VisibilityFieldProps) {
  const labelId = useId();
  const helperId = useId();
  return (
    <FormControl error={Boolean(error)} component="fieldset">
      <FormLabel id={labelId} component="legend">
        {label}
      </FormLabel>
      <RadioGroup
        row
        aria-labelledby={labelId}
        aria-describedby={error ? helperId : undefined}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        sx={{ columnGap: 2 }}
      >
        {VISIBILITY_OPTIONS.map((option) => (
          <FormControlLabel
            key={option.value}
            value={option.value}
            control={<Radio id={option.value === value ? id : undefined} />}
            label={
              <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center' }}>
                {option.icon}
                <span>{option.label}</span>
                <Typography component="span" variant="caption" color="text.secondary" sx={{ display: { xs: 'none', sm: 'inline' } }}>
                  ({option.description.toLowerCase()})
                </Typography>
              </Stack>
            }
          />
        ))}
      </RadioGroup>
      {error && <FormHelperText id={helperId}>{error}</FormHelperText>}
    </FormControl>
  );
}
