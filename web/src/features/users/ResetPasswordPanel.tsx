import { useId, useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { User } from '@intelnotes/server/contracts';
import { apiErrorMessage, apiFieldErrors, type ApiError } from '../../api/api-error';
import { useResetUserPasswordMutation } from './users.api';
import { notify, truncate } from '../../components/notify';
import { PasswordField } from '../../components/PasswordField';

/** Sets a password chosen by the admin; the API signs the user out everywhere. */
export function ResetPasswordPanel({ user, self }: { user: User; self: boolean }) {
  const headingId = useId();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [reset, { isLoading }] = useResetUserPasswordMutation();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await reset({ id: user.id, password }).unwrap();
      setPassword('');
      setError(null);
      notify.success(
        self
          ? 'Your password was changed. Your other sessions have been signed out.'
          : `Password of “${truncate(user.email)}” changed. They have been signed out everywhere.`,
      );
    } catch (failure) {
      const message = apiFieldErrors(failure as ApiError)['password']?.join(' ') ?? apiErrorMessage(failure as ApiError);
      setError(message);
      notify.error(`Could not change the password: ${message}`);
    }
  };

  return (
    <Paper variant="outlined" component="section" aria-labelledby={headingId} sx={{ p: { xs: 2, sm: 3 } }}>
      <Stack spacing={2}>
        <Box>
          <Typography id={headingId} variant="h6" component="h2" sx={{ fontWeight: 700 }}>
            Reset password
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {self
              ? 'Sets a new password for your account. Your other sessions are signed out; this one stays.'
              : 'Sets a new password and signs the user out of every device. Give them the new password through a safe channel.'}
          </Typography>
        </Box>
        <Box component="form" onSubmit={submit} noValidate aria-label="Reset password">
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
            <PasswordField
              label="New password"
              value={password}
              onChange={(event) => {
                setPassword(event.target.value);
                setError(null);
              }}
              error={error !== null}
              helperText={error ?? 'At least 10 characters.'}
              sx={{ flex: '1 1 auto', maxWidth: { sm: 420 } }}
            />
            <Button type="submit" variant="outlined" disabled={isLoading || password === ''} sx={{ mt: { sm: 1 } }}>
              {isLoading ? 'Saving…' : 'Set new password'}
            </Button>
          </Stack>
        </Box>
      </Stack>
    </Paper>
  );
}
