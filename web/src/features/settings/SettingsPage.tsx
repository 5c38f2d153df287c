import { useId, useState, type FormEvent, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { Settings, SettingsPatch } from '@intelnotes/server/contracts';
import { apiErrorMessage } from '../../api/api-error';
import { useGetSettingsQuery, useUpdateSettingsMutation } from './settings.api';
import { OPEN_DATA_URL } from '../../lib/config';
import { FormErrorSummary, useFormErrors } from '../../components/FormErrorSummary';
import { notify } from '../../components/notify';
import { RetryAlert } from '../../components/RetryAlert';
import { UnsavedChangesGuard } from '../../components/UnsavedChangesGuard';

const FOOTER_TEXT_MAX = 300;

type TextSetting = 'name' | 'payment_access_link' | 'payment_access_message' | 'open_data_link' | 'footer_text';
type SwitchSetting = 'header_show_tenant_name' | 'header_show_access_level' | 'footer_show_open_data_link' | 'footer_show_setup_invite';
/** A number typed as text: sent as a number when it is one, else as typed, for the server to name what is wrong. */
type NumberSetting = 'suggestion_min_confidence';
type Values = Record<TextSetting | NumberSetting, string> & Record<SwitchSetting, boolean>;

const TEXT_SETTINGS: TextSetting[] = ['name', 'payment_access_link', 'payment_access_message', 'open_data_link', 'footer_text'];
const SWITCH_SETTINGS: SwitchSetting[] = ['header_show_tenant_name', 'header_show_access_level', 'footer_show_open_data_link', 'footer_show_setup_invite'];

const LABELS: Record<TextSetting | NumberSetting | SwitchSetting, string> = {
  name: 'Workspace name',
  payment_access_link: 'Payment access link',
  payment_access_message: 'Payment access message',
  open_data_link: 'Open-data link',
  footer_text: 'Footer text',
  header_show_tenant_name: 'Show the workspace name',
  header_show_access_level: 'Show the access level',
  footer_show_open_data_link: 'Show the open-data link',
  footer_show_setup_invite: 'Show the invitation to set up an instance',
  suggestion_min_confidence: 'Lowest confidence suggested',
};

const toValues = (settings: Settings): Values => ({
  name: settings.name,
  payment_access_link: settings.payment_access_link ?? '',
  payment_access_message: settings.payment_access_message ?? '',
  open_data_link: settings.open_data_link ?? '',
  footer_text: settings.footer_text ?? '',
  header_show_tenant_name: settings.header_show_tenant_name,
  header_show_access_level: settings.header_show_access_level,
  footer_show_open_data_link: settings.footer_show_open_data_link,
  footer_show_setup_invite: settings.footer_show_setup_invite,
  suggestion_min_confidence: String(settings.suggestion_min_confidence),
});

function changes(settings: Settings, values: Values): SettingsPatch {
  const body: Record<string, unknown> = {};
  for (const name of TEXT_SETTINGS) {
    const text = values[name].trim();
    const value = name === 'name' ? text : text === '' ? null : text;
    if (value !== settings[name]) body[name] = value;
  }
  for (const name of SWITCH_SETTINGS) if (values[name] !== settings[name]) body[name] = values[name];
  const threshold = values.suggestion_min_confidence.trim();
  const number = threshold === '' ? NaN : Number(threshold);
  if (Number.isNaN(number) || number !== settings.suggestion_min_confidence) body['suggestion_min_confidence'] = Number.isNaN(number) ? threshold : number;
  return body as SettingsPatch;
}

function Section({ title, description, children }: { title: string; description: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <Paper variant="outlined" component="section" aria-labelledby={headingId} sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography id={headingId} variant="h6" component="h2" sx={{ fontWeight: 700 }}>
        {title}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2.5 }}>
        {description}
      </Typography>
      <Stack spacing={2.5}>{children}</Stack>
    </Paper>
  );
}

function SettingsForm({ settings }: { settings: Settings }) {
  const formId = useId();
  const [values, setValues] = useState<Values>(() => toValues(settings));
  const { errors, failure, summaryRef, showApiError, clearField } = useFormErrors();
  const [save, { isLoading }] = useUpdateSettingsMutation();
  const dirty = Object.keys(changes(settings, values)).length > 0;

  const inputId = (name: string) => `${formId}-${name}`;
  const text = (name: TextSetting | NumberSetting, props: Partial<TextFieldProps> = {}) => (
    <TextField
      id={inputId(name)}
      label={LABELS[name]}
      value={values[name]}
      onChange={(event) => {
        setValues((current) => ({ ...current, [name]: event.target.value }));
        clearField(name);
      }}
      error={Boolean(errors[name])}
      fullWidth
      {...props}
      helperText={errors[name] ?? props.helperText}
    />
  );
  const toggle = (name: SwitchSetting, help: string) => (
    <Box>
      <FormControlLabel
        control={
          <Switch
            id={inputId(name)}
            checked={values[name]}
            onChange={(event) => {
              setValues((current) => ({ ...current, [name]: event.target.checked }));
              clearField(name);
            }}
          />
        }
        label={LABELS[name]}
      />
      <FormHelperText error={Boolean(errors[name])} sx={{ mt: 0, ml: 6 }}>
        {errors[name] ?? help}
      </FormHelperText>
    </Box>
  );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = changes(settings, values);
    if (Object.keys(body).length === 0) {
      notify.info('Nothing changed.');
      return;
    }
    try {
      // The saved settings replace the cached ones, which starts this form afresh from them.
      await save(body).unwrap();
      notify.success('Settings saved.');
    } catch (error) {
      const named = showApiError(error);
      notify.error(`Could not save the settings${named ? ': please correct the highlighted fields.' : '.'}`);
    }
  };

  return (
    <Box component="form" onSubmit={submit} noValidate aria-label="Settings">
      <Stack spacing={3}>
        <FormErrorSummary errors={errors} failure={failure} summaryRef={summaryRef} labels={LABELS} inputId={inputId} />
        <Section title="Workspace" description="How this workspace is named in the header and on the sign-in button.">
          {text('name', { required: true, slotProps: { htmlInput: { maxLength: 100 } } })}
        </Section>
        <Section title="Paywall" description="What signed-out visitors are offered to read the paywalled notes.">
          {text('payment_access_link', {
            type: 'url',
            placeholder: 'https://',
            helperText: 'Where visitors subscribe. Leave empty for none.',
            slotProps: { htmlInput: { maxLength: 2048, spellCheck: false } },
          })}
          {text('payment_access_message', {
            multiline: true,
            minRows: 2,
            helperText: `${values.payment_access_message.length} / 1000`,
            slotProps: { htmlInput: { maxLength: 1000 } },
          })}
        </Section>
        <Section title="Header" description="What the bar at the top of every page shows besides the logo, search and menu.">
          {toggle('header_show_tenant_name', 'The workspace name next to the logo.')}
          {toggle('header_show_access_level', 'Public, paywall, research or admin, next to the search button.')}
        </Section>
        <Section title="Footer" description="The line at the bottom of every page, after the copyright and version.">
          {text('footer_text', {
            multiline: true,
            minRows: 2,
            helperText: `A line of your own, e.g. who runs this workspace and how to reach them. ${values.footer_text.length} / ${FOOTER_TEXT_MAX}`,
            slotProps: { htmlInput: { maxLength: FOOTER_TEXT_MAX } },
          })}
          {text('open_data_link', {
            type: 'url',
            placeholder: OPEN_DATA_URL,
            helperText: `Where “Open data” leads. Leave empty for ${OPEN_DATA_URL}.`,
            slotProps: { htmlInput: { maxLength: 2048, spellCheck: false } },
          })}
          {toggle('footer_show_open_data_link', 'The “Open data” link.')}
          {toggle('footer_show_setup_invite', '“Want intel notes for your own team? Set up your own instance.”')}
        </Section>
        <Section title="Processing" description="What processing raw data suggests for review.">
          {text('suggestion_min_confidence', {
            type: 'number',
            helperText: 'From 0 to 1. Names, organizations and ledger entries processing is less sure of are not suggested; the review lists show the surest first.',
            slotProps: { htmlInput: { min: 0, max: 1, step: 0.05, inputMode: 'decimal' } },
          })}
        </Section>
        <Stack direction="row" spacing={2} sx={{ justifyContent: 'flex-end' }}>
          <Button disabled={isLoading || !dirty} onClick={() => setValues(toValues(settings))}>
            Discard changes
          </Button>
          <Button type="submit" variant="contained" disabled={isLoading}>
            {isLoading ? 'Saving…' : 'Save settings'}
          </Button>
        </Stack>
      </Stack>
      <UnsavedChangesGuard dirty={dirty} what="the settings" />
    </Box>
  );
}

/** /settings: this workspace's name, paywall, header and footer, and what processing suggests (admins). */
export function SettingsPage() {
  const { data, error, isLoading, refetch } = useGetSettingsQuery(undefined, { refetchOnMountOrArgChange: true });
  return (
    <Stack spacing={3} sx={{ maxWidth: 960 }}>
      <Typography variant="h4" component="h1" sx={{ fontWeight: 700 }}>
        Settings
      </Typography>
      {data ? (
        // Keyed by the saved values: a save (or a change made elsewhere) restarts the form from them.
        <SettingsForm key={JSON.stringify(data)} settings={data} />
      ) : error && !isLoading ? (
        <RetryAlert onRetry={() => void refetch()}>{apiErrorMessage(error)}</RetryAlert>
      ) : (
        <LinearProgress aria-label="Loading the settings" />
      )}
    </Stack>
  );
}
