import { useRef, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useDispatch } from 'react-redux';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { useGetTenantQuery, useLoginMutation } from '../../api/api';
import { apiErrorMessage, apiFieldErrors, type ApiError } from '../../api/api-error';
import { tenantDisplayName } from '../../api/tenant-name';
import { CenteredCard } from '../../components/CenteredCard';
import type { LoginRedirectState } from '../../lib/route-groups';
import { selectToken, setSession, useSessionSelector } from '../../lib/session';

interface FieldErrors {
  email?: string;
  password?: string;
}

/** The guarded page that sent the visitor here, to return to after signing in; else home. */
function returnPath(state: unknown): string {
  const from = (state as Partial<LoginRedirectState> | null)?.from;
  return typeof from === 'string' && from.startsWith('/') && !from.startsWith('//') ? from : '/';
}

function fieldErrorsFrom(error: ApiError): FieldErrors {
  const errors = apiFieldErrors(error);
  return { email: errors.email?.join(' '), password: errors.password?.join(' ') };
}

export function LoginPage() {
  const dispatch = useDispatch();
  const navigate = useNavigate();
  const location = useLocation();
  const token = useSessionSelector(selectToken);
  const { data: tenant } = useGetTenantQuery();
  const [login, { isLoading }] = useLoginMutation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  if (token !== null) return <Navigate to={returnPath(location.state)} replace />;

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const missing: FieldErrors = {
      email: email.trim() === '' ? 'Enter your email address.' : undefined,
      password: password === '' ? 'Enter your password.' : undefined,
    };
    setFieldErrors(missing);
    setFormError(null);
    if (missing.email || missing.password) {
      (missing.email ? emailRef : passwordRef).current?.focus();
      return;
    }
    try {
      const session = await login({ email: email.trim(), password }).unwrap();
      dispatch(setSession(session));
      await navigate(returnPath(location.state), { replace: true });
    } catch (error) {
      const apiError = error as ApiError;
      setFormError(apiErrorMessage(apiError));
      setFieldErrors(fieldErrorsFrom(apiError));
    }
  };

  // Both fields are required (the inputs say so to assistive technology); the labels carry
  // no asterisk so they read exactly "Email" and "Password".
  return (
    <CenteredCard>
      <Typography variant="h5" component="h1" sx={{ fontWeight: 700, mb: 0.5, overflowWrap: 'anywhere' }}>
        {tenant ? `Sign in to ${tenantDisplayName(tenant)}` : 'Sign in to intelnotes'}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        Use the email address and password of your account.
      </Typography>
      <Box component="form" noValidate onSubmit={(event) => void handleSubmit(event)}>
        <Stack spacing={2.5}>
          {formError && <Alert severity="error">{formError}</Alert>}
          <TextField
            label="Email"
            name="email"
            type="email"
            autoComplete="username"
            required
            fullWidth
            autoFocus
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            error={Boolean(fieldErrors.email)}
            helperText={fieldErrors.email}
            inputRef={emailRef}
            slotProps={{ htmlInput: { maxLength: 254, inputMode: 'email' }, inputLabel: { required: false } }}
          />
          <TextField
            label="Password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            fullWidth
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            error={Boolean(fieldErrors.password)}
            helperText={fieldErrors.password}
            inputRef={passwordRef}
            slotProps={{ htmlInput: { maxLength: 1024 }, inputLabel: { required: false } }}
          />
          <Button type="submit" variant="contained" size="large" fullWidth loading={isLoading} loadingPosition="start">
            Sign in
          </Button>
        </Stack>
      </Box>
    </CenteredCard>
  );
}
