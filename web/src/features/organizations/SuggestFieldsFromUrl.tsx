import { useId, useState } from 'react';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import TravelExploreIcon from '@mui/icons-material/TravelExplore';
import { apiErrorMessage, apiFieldErrors, type ApiError } from '../../api/api-error';
import { useLazySuggestedFieldsFromUrlQuery, type OrganizationSuggestion } from './organizations.api';
import type { EntityFormApi } from '../../components/EntityForm';
import type { FormValues } from '../../components/form-values';
import { notify } from '../../components/notify';
import { fieldLabel } from '../../components/resource-view';
import { organizationsView } from './organizations.view';

const TEXT_FIELDS = ['name_inc', 'notes'] as const;
const LIST_FIELDS = ['emails', 'phones', 'associated_urls'] as const;

/** Fills empty text fields and adds new list values; returns the new values and what changed. */
function applySuggestion(values: FormValues, suggestion: OrganizationSuggestion): { values: FormValues; filled: string[] } {
  const next = { ...values };
  const filled: string[] = [];
  for (const name of TEXT_FIELDS) {
    const suggested = suggestion[name]?.trim();
    if (suggested && String(next[name] ?? '').trim() === '') {
      next[name] = suggested;
      filled.push(name);
    }
  }
  for (const name of LIST_FIELDS) {
    const current = Array.isArray(next[name]) ? (next[name] as string[]) : [];
    const known = new Set(current.map((value) => value.toLowerCase()));
    const added = suggestion[name].filter((value) => !known.has(value.toLowerCase()));
    if (added.length > 0) {
      next[name] = [...current, ...added];
      filled.push(name);
    }
  }
  return { values: next, filled };
}

/**
 * "Suggest fields from URL": the server reads a web page (its meta tags and JSON-LD) and the
 * form's empty fields are filled from it. Nothing is saved until the form is.
 */
export function SuggestFieldsFromUrl({ form }: { form: EntityFormApi }) {
  const inputId = useId();
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [suggest, { isFetching }] = useLazySuggestedFieldsFromUrlQuery();

  const run = async () => {
    if (url.trim() === '') {
      setError('Enter the address of a web page, e.g. https://example.com.');
      return;
    }
    setError(null);
    try {
      const suggestion = await suggest(url.trim()).unwrap();
      const { filled } = applySuggestion(form.values, suggestion);
      // Applied to the latest values: the user may have typed while the page was read.
      form.setValues((current) => applySuggestion(current, suggestion).values);
      if (filled.length === 0) notify.info('The page suggested nothing new for the empty fields.');
      else notify.success(`Filled from the page: ${filled.map((name) => fieldLabel(organizationsView, name)).join(', ')}. Check them, then save.`);
    } catch (failure) {
      const message = apiFieldErrors(failure as ApiError)['url']?.join(' ') ?? apiErrorMessage(failure as ApiError);
      setError(message);
      notify.error(`Could not suggest fields: ${message}`);
    }
  };

  return (
    <Paper variant="outlined" component="section" aria-labelledby={`${inputId}-title`} sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography id={`${inputId}-title`} variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
        Suggest fields from URL
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        Reads the organization's web page and fills the empty name and notes, and adds emails, phones and links it finds.
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'flex-start' } }}>
        <TextField
          id={inputId}
          label="Web page URL"
          type="url"
          value={url}
          onChange={(event) => setUrl(event.target.value)}
          onKeyDown={(event) => {
            // Enter here asks for suggestions; it must not submit the organization form.
            if (event.key === 'Enter') {
              event.preventDefault();
              void run();
            }
          }}
          error={Boolean(error)}
          helperText={error ?? ' '}
          placeholder="https://example.com"
          fullWidth
          slotProps={{ htmlInput: { inputMode: 'url', autoComplete: 'url' } }}
        />
        <Button
          type="button"
          variant="outlined"
          startIcon={<TravelExploreIcon />}
          onClick={run}
          disabled={isFetching}
          sx={{ flexShrink: 0, height: { sm: 56 }, alignSelf: { xs: 'flex-start', sm: 'auto' } }}
        >
          {isFetching ? 'Reading the page…' : 'Suggest fields'}
        </Button>
      </Stack>
    </Paper>
  );
}
