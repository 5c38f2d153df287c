import { useId, useRef, useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { Link as RouterLink, useNavigate } from 'react-router';
import type { User, UserPatch } from '@intelnotes/server/contracts';
import { useCreateUserMutation, useUpdateUserMutation } from './users.api';
import { FormErrorSummary, useFormErrors } from '../../components/FormErrorSummary';
import { notify, truncate } from '../../components/notify';
import { PasswordField } from '../../components/PasswordField';
import { selectSession, useSessionSelector } from '../../lib/session';
import { USER_LABELS } from './user-labels';
import { UnsavedChangesGuard } from '../../components/UnsavedChangesGuard';

interface Values {
  email: string;
  alias: string;
  password: string;
  is_admin: boolean;
  is_research: boolean;
  disabled: boolean;
}

const initialValues = (user: User | undefined): Values => ({
  email: user?.email ?? '',
  alias: user?.alias ?? '',
  password: '',
  is_admin: user?.is_admin ?? false,
  is_research: user?.is_research ?? false,
  disabled: user?.disabled ?? false,
});

/** The fields of an edit that differ from the user as loaded. */
function changes(user: User, values: Values): UserPatch {
  const body: UserPatch = {};
  if (values.email.trim() !== user.email) body.email = values.email.trim();
  if (values.alias.trim() !== (user.alias ?? '')) body.alias = values.alias.trim() === '' ? null : values.alias.trim();
  if (values.is_admin !== user.is_admin) body.is_admin = values.is_admin;
  if (values.is_research !== user.is_research) body.is_research = values.is_research;
  if (values.disabled !== user.disabled) body.disabled = values.disabled;
  return body;
}

/** Creates a user (`user` absent) or edits one; errors from the API show on their fields. */
export function UserForm({ user }: { user?: User }) {
  const formId = useId();
  const navigate = useNavigate();
  const session = useSessionSelector(selectSession);
  const self = user !== undefined && user.id === session.id;
  const [values, setValues] = useState<Values>(() => initialValues(user));
  const { errors, failure, summaryRef, showApiError, clearField } = useFormErrors();
  const [create, createState] = useCreateUserMutation();
  const [update, updateState] = useUpdateUserMutation();
  const saving = createState.isLoading || updateState.isLoading;
  const done = useRef(false);

  const dirty = user ? Object.keys(changes(user, values)).length > 0 : JSON.stringify(values) !== JSON.stringify(initialValues(undefined));

  const inputId = (name: string) => `${formId}-${name}`;
  const set = <K extends keyof Values>(name: K, value: Values[K]) => {
    setValues((current) => ({ ...current, [name]: value }));
    clearField(name);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      if (user) {
        const body = changes(user, values);
        if (Object.keys(body).length === 0) {
          notify.info('Nothing changed.');
        } else {
          const saved = await update({ id: user.id, body }).unwrap();
          notify.success(`User “${truncate(saved.email)}” saved.`);
        }
      } else {
        const saved = await create({
          email: values.email.trim(),
          alias: values.alias.trim() === '' ? null : values.alias.trim(),
          password: values.password,
          is_admin: values.is_admin,
          is_research: values.is_research,
        }).unwrap();
        notify.success(`User “${truncate(saved.email)}” created.`);
      }
      done.current = true;
      navigate('/users');
    } catch (error) {
      const named = showApiError(error);
      notify.error(`Could not save the user${named ? ': please correct the highlighted fields.' : '.'}`);
    }
  };

  const toggle = (name: 'is_admin' | 'is_research' | 'disabled', label: string, help: string, locked: string | null) => (
    <FormControl error={Boolean(errors[name])} disabled={locked !== null}>
      <FormControlLabel
        control={<Switch id={inputId(name)} checked={values[name]} onChange={(event) => set(name, event.target.checked)} />}
        label={label}
      />
      <FormHelperText sx={{ mt: 0, ml: 6 }}>{errors[name] ?? locked ?? help}</FormHelperText>
    </FormControl>
  );

  return (
    <Box component="form" onSubmit={submit} noValidate aria-label={user ? 'Edit user' : 'New user'}>
      <Stack spacing={3}>
        <FormErrorSummary errors={errors} failure={failure} summaryRef={summaryRef} labels={USER_LABELS} inputId={inputId} />
        <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
          <Box sx={{ display: 'grid', gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))' }, gap: 3 }}>
            <TextField
              id={inputId('email')}
              label="Email"
              type="email"
              required
              autoComplete="off"
              value={values.email}
              onChange={(event) => set('email', event.target.value)}
              error={Boolean(errors['email'])}
              helperText={errors['email'] ?? 'The user signs in with this address.'}
              slotProps={{ htmlInput: { maxLength: 254, spellCheck: false } }}
            />
            <TextField
              id={inputId('alias')}
              label="Alias"
              value={values.alias}
              onChange={(event) => set('alias', event.target.value)}
              error={Boolean(errors['alias'])}
              helperText={errors['alias'] ?? 'Optional: the name shown for this user.'}
              slotProps={{ htmlInput: { maxLength: 100 } }}
            />
            {!user && (
              <PasswordField
                id={inputId('password')}
                label="Password"
                required
                value={values.password}
                onChange={(event) => set('password', event.target.value)}
                error={Boolean(errors['password'])}
                helperText={errors['password'] ?? 'At least 10 characters. Give it to the user through a safe channel.'}
              />
            )}
            <Stack spacing={1.5} sx={{ gridColumn: '1 / -1' }}>
              {toggle(
                'is_admin',
                'Admin',
                'Sees hidden items, manages users and settings.',
                self ? 'You cannot remove your own admin access.' : null,
              )}
              {toggle('is_research', 'Research', 'Collects and edits organizations, people and other entries.', null)}
              {user &&
                toggle(
                  'disabled',
                  'Disabled',
                  'A disabled user cannot sign in, and is signed out everywhere at once.',
                  self ? 'You cannot disable your own account.' : null,
                )}
            </Stack>
          </Box>
        </Paper>
        <Stack direction="row" spacing={2} sx={{ justifyContent: 'flex-end' }}>
          <Button component={RouterLink} to="/users" disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={saving}>
            {saving ? 'Saving…' : user ? 'Save changes' : 'Create user'}
          </Button>
        </Stack>
      </Stack>
      <UnsavedChangesGuard dirty={dirty} saved={done} what="this user" />
    </Box>
  );
}
