import { useId, useRef, useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useNavigate } from 'react-router';
import type { Client, ClientPatch } from '@intelnotes/server/contracts';
import { useCreateClientMutation, useUpdateClientMutation } from './clients.api';
import { FormErrorSummary, useFormErrors } from '../../components/FormErrorSummary';
import { notify, truncate } from '../../components/notify';
import { PasswordField } from '../../components/PasswordField';
import { CLIENT_LABELS, tenantAddress } from './tenant-address';
import { UnsavedChangesGuard } from '../../components/UnsavedChangesGuard';

interface Values {
  code: string;
  name: string;
  payment_access_link: string;
  payment_access_message: string;
  admin_email: string;
  admin_password: string;
}

const EMPTY: Values = { code: '', name: '', payment_access_link: '', payment_access_message: '', admin_email: '', admin_password: '' };

const initialValues = (client: Client | undefined): Values =>
  client
    ? {
        ...EMPTY,
        code: client.code,
        name: client.name,
        payment_access_link: client.payment_access_link ?? '',
        payment_access_message: client.payment_access_message ?? '',
      }
    : EMPTY;

const orNull = (text: string) => (text.trim() === '' ? null : text.trim());

function changes(client: Client, values: Values): ClientPatch {
  const body: ClientPatch = {};
  if (values.name.trim() !== client.name) body.name = values.name.trim();
  if (orNull(values.payment_access_link) !== client.payment_access_link) body.payment_access_link = orNull(values.payment_access_link);
  if (orNull(values.payment_access_message) !== client.payment_access_message) {
    body.payment_access_message = orNull(values.payment_access_message);
  }
  return body;
}

const SECTION = { p: { xs: 2, sm: 3 } };
const GRID = { display: 'grid', gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))' }, gap: 3 };

/**
 * Creates a tenant with its first admin (`client` absent), or edits a tenant's name and paywall
 * link and message. The code is the tenant's subdomain and cannot change once created.
 */
export function ClientForm({ client }: { client?: Client }) {
  const formId = useId();
  const navigate = useNavigate();
  const [values, setValues] = useState<Values>(() => initialValues(client));
  const { errors, failure, summaryRef, showApiError, clearField, reset } = useFormErrors();
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({});
  const [create, createState] = useCreateClientMutation();
  const [update, updateState] = useUpdateClientMutation();
  const saving = createState.isLoading || updateState.isLoading;
  const done = useRef(false);

  const dirty = client ? Object.keys(changes(client, values)).length > 0 : JSON.stringify(values) !== JSON.stringify(EMPTY);

  const shown = { ...errors, ...localErrors };
  const inputId = (name: string) => `${formId}-${name}`;
  const set = (name: keyof Values, value: string) => {
    setValues((current) => ({ ...current, [name]: value }));
    clearField(name);
    setLocalErrors(({ [name]: _dropped, ...rest }) => rest);
  };
  const text = (name: keyof Values, props: Partial<Parameters<typeof TextField>[0]> = {}) => (
    <TextField
      id={inputId(name)}
      label={CLIENT_LABELS[name]}
      value={values[name]}
      onChange={(event) => set(name, event.target.value)}
      error={Boolean(shown[name])}
      {...props}
      helperText={shown[name] ?? props.helperText}
    />
  );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // Every required field is checked in one round, so all that is missing shows at once. The API
    // allows a tenant without an admin, but nobody could ever sign in to it: the form asks for one.
    const missing: Record<string, string> = {};
    if (!client && values.code.trim() === '') missing['code'] = 'Choose the tenant’s code (its address).';
    if (values.name.trim() === '') missing['name'] = 'This field is required.';
    if (!client && values.admin_email.trim() === '') missing['admin_email'] = 'A new tenant needs its first admin to be usable.';
    if (!client && values.admin_password === '') missing['admin_password'] = 'Choose the first admin’s password.';
    if (Object.keys(missing).length > 0) {
      reset();
      setLocalErrors(missing);
      requestAnimationFrame(() => document.getElementById(inputId(Object.keys(missing)[0]!))?.focus());
      return;
    }
    try {
      if (client) {
        const body = changes(client, values);
        if (Object.keys(body).length === 0) {
          notify.info('Nothing changed.');
        } else {
          const saved = await update({ id: client.id, body }).unwrap();
          notify.success(`Tenant “${truncate(saved.name)}” saved.`);
        }
      } else {
        const saved = await create({
          code: values.code.trim(),
          name: values.name.trim(),
          payment_access_link: orNull(values.payment_access_link),
          payment_access_message: orNull(values.payment_access_message),
          admin_email: values.admin_email.trim(),
          admin_password: values.admin_password,
        }).unwrap();
        notify.success(`Tenant “${truncate(saved.name)}” created at ${tenantAddress(saved).replace(/^https?:\/\//, '')}.`);
      }
      done.current = true;
      navigate('/clients');
    } catch (error) {
      const named = showApiError(error);
      notify.error(`Could not save the tenant${named ? ': please correct the highlighted fields.' : '.'}`);
    }
  };

  const address = values.code.trim() ? tenantAddress({ code: values.code.trim(), is_default: client?.is_default ?? false }) : null;
  return (
    <Box component="form" onSubmit={submit} noValidate aria-label={client ? 'Edit tenant' : 'New tenant'}>
      <Stack spacing={3}>
        <FormErrorSummary errors={shown} failure={failure} summaryRef={summaryRef} labels={CLIENT_LABELS} inputId={inputId} />
        <Paper variant="outlined" sx={SECTION}>
          <Box sx={GRID}>
            {client
              ? text('code', { disabled: true, helperText: "The code is the tenant's address and cannot change." })
              : text('code', {
                  required: true,
                  autoComplete: 'off',
                  onChange: (event) => set('code', event.target.value.toLowerCase()),
                  helperText: address
                    ? `Lowercase letters, digits and hyphens. Address: ${address.replace(/^https?:\/\//, '')}`
                    : 'Lowercase letters, digits and hyphens; it becomes the subdomain.',
                  slotProps: { htmlInput: { maxLength: 63, spellCheck: false, autoCapitalize: 'none' } },
                })}
            {text('name', { required: true, helperText: 'Shown in the header.', slotProps: { htmlInput: { maxLength: 100 } } })}
            {text('payment_access_link', {
              type: 'url',
              helperText: 'Where signed-out visitors subscribe to read paywalled notes.',
              slotProps: { htmlInput: { maxLength: 2048, spellCheck: false } },
              sx: { gridColumn: '1 / -1' },
            })}
            {text('payment_access_message', {
              multiline: true,
              minRows: 2,
              helperText: `${values.payment_access_message.length} / 1000`,
              slotProps: { htmlInput: { maxLength: 1000 } },
              sx: { gridColumn: '1 / -1' },
            })}
          </Box>
        </Paper>
        {!client && (
          <Paper variant="outlined" component="section" sx={SECTION}>
            <Typography variant="h6" component="h2" sx={{ fontWeight: 700 }}>
              First admin
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
              The tenant’s first admin signs in at its address and adds the other users.
            </Typography>
            <Box sx={GRID}>
              {text('admin_email', { type: 'email', required: true, autoComplete: 'off', slotProps: { htmlInput: { maxLength: 254, spellCheck: false } } })}
              <PasswordField
                id={inputId('admin_password')}
                label={CLIENT_LABELS['admin_password']}
                required
                value={values.admin_password}
                onChange={(event) => set('admin_password', event.target.value)}
                error={Boolean(shown['admin_password'])}
                helperText={shown['admin_password'] ?? 'At least 10 characters.'}
              />
            </Box>
          </Paper>
        )}
        <Stack direction="row" spacing={2} sx={{ justifyContent: 'flex-end' }}>
          <Button component={RouterLink} to="/clients" disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={saving}>
            {saving ? 'Saving…' : client ? 'Save changes' : 'Create tenant'}
          </Button>
        </Stack>
      </Stack>
      <UnsavedChangesGuard dirty={dirty} saved={done} what="this tenant" />
    </Box>
  );
}
