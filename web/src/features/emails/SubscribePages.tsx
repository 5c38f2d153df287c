import { useRef, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import MarkEmailReadIcon from '@mui/icons-material/MarkEmailReadOutlined';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { useGetTenantQuery } from '../../api/api';
import { apiErrorMessage, apiFieldErrors, type ApiError } from '../../api/api-error';
import { tenantDisplayName } from '../../api/tenant-name';
import { CenteredCard } from '../../components/CenteredCard';
import { StatusMessage } from '../../components/StatusMessage';
import { usePageTitle } from '../../lib/page-title';
import { useConfirmSubscriptionQuery, useSubscribeMutation, useUnsubscribeMutation } from './emails.api';

/** The server refuses a form sent sooner than this after it was shown (a bot's speed). */
const MIN_FILL_MS = 3000;
/** A little more than the least, for clocks that tick differently. */
const FILL_MARGIN_MS = 300;

/** What every visitor is told once the form is sent, whether the address is new, known or refused: no one learns who is on the list. */
export const NEUTRAL_ANSWER =
  'Thank you. If the address can join the list, a message is on its way to it: follow its link to confirm your subscription.';
export const RATE_LIMITED_ANSWER = 'Too many sign-ups from here just now. Please wait a few minutes and try again.';

const isStatus = (error: unknown, status: number) => typeof error === 'object' && error !== null && 'status' in error && error.status === status;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * emails/add (SPEC §2's distribution list widget, public): a visitor leaves an address and,
 * if they like, a name. The form carries a field people never see (`website`: a bot fills it
 * in) and the time it was shown (`started_at`: one sent within 3 s is a bot's); a person quicker
 * than that is held back until the 3 s are up rather than refused. Every answer reads the same
 * (POST dxlist/subscribe/ answers 202 for new and known addresses alike), but for too many
 * sign-ups (429) and a malformed address.
 */
export function SubscribePage() {
  const { data: tenant } = useGetTenantQuery();
  const tenantName = tenant?.exists ? tenantDisplayName(tenant) : null;
  const title = tenantName ? `Join ${tenantName}’s distribution list` : 'Join the distribution list';
  usePageTitle('Join the distribution list');
  const [startedAt] = useState(() => Date.now());
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [website, setWebsite] = useState('');
  const [emailError, setEmailError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [answer, setAnswer] = useState<string | null>(null);
  const [holding, setHolding] = useState(false);
  const [subscribe, subscribeState] = useSubscribeMutation();
  const emailRef = useRef<HTMLInputElement>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const address = email.trim();
    if (address === '' || !address.includes('@')) {
      setEmailError(address === '' ? 'Enter your email address.' : 'Enter an email address, such as name@example.com.');
      emailRef.current?.focus();
      return;
    }
    setEmailError(null);
    const early = startedAt + MIN_FILL_MS + FILL_MARGIN_MS - Date.now();
    if (early > 0) {
      setHolding(true);
      await wait(early);
      setHolding(false);
    }
    try {
      await subscribe({ email: address, ...(name.trim() ? { name: name.trim() } : {}), website, started_at: startedAt }).unwrap();
      setAnswer(NEUTRAL_ANSWER);
    } catch (error) {
      if (isStatus(error, 429)) {
        setFormError(RATE_LIMITED_ANSWER);
        return;
      }
      const fields = apiFieldErrors(error as ApiError);
      if (fields['email']) {
        setEmailError(fields['email'].join(' '));
        emailRef.current?.focus();
        return;
      }
      setFormError(fields['name']?.join(' ') ?? apiErrorMessage(error as ApiError));
    }
  };

  if (answer !== null) {
    return (
      <CenteredCard maxWidth={480}>
        <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center' }} role="status" data-testid="subscribe-answer">
          <MarkEmailReadIcon color="primary" sx={{ fontSize: 48 }} aria-hidden="true" />
          <Typography variant="h5" component="h1" sx={{ fontWeight: 700 }}>
            Check your inbox
          </Typography>
          <Typography>{answer}</Typography>
          <Button component={RouterLink} to="/">
            Back to the home page
          </Button>
        </Stack>
      </CenteredCard>
    );
  }

  return (
    <CenteredCard maxWidth={480}>
      <Typography variant="h5" component="h1" sx={{ fontWeight: 700, mb: 0.5, overflowWrap: 'anywhere' }}>
        {title}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        Leave your address to receive our notes by email. We send a message first: the subscription starts once you follow its link, and
        every message has a link to leave the list.
      </Typography>
      <Box component="form" noValidate onSubmit={(event) => void submit(event)} aria-label="Join the distribution list">
        <Stack spacing={2.5}>
          {formError && <Alert severity={formError === RATE_LIMITED_ANSWER ? 'warning' : 'error'}>{formError}</Alert>}
          <TextField
            label="Email"
            name="email"
            type="email"
            autoComplete="email"
            required
            fullWidth
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            error={emailError !== null}
            helperText={emailError}
            inputRef={emailRef}
            slotProps={{ htmlInput: { maxLength: 320, inputMode: 'email' }, inputLabel: { required: false } }}
          />
          <TextField
            label="Name (optional)"
            name="name"
            autoComplete="name"
            fullWidth
            value={name}
            onChange={(event) => setName(event.target.value)}
            slotProps={{ htmlInput: { maxLength: 200 } }}
          />
          {/* The honeypot: off screen and out of the tab order, so only a bot fills it in. */}
          <Box aria-hidden="true" sx={{ position: 'absolute', left: '-10000px', top: 'auto', width: '1px', height: '1px', overflow: 'hidden' }}>
            <label>
              Website
              <input type="text" name="website" tabIndex={-1} autoComplete="off" value={website} onChange={(event) => setWebsite(event.target.value)} />
            </label>
          </Box>
          <Button type="submit" variant="contained" size="large" fullWidth loading={holding || subscribeState.isLoading} loadingPosition="start">
            Subscribe
          </Button>
        </Stack>
      </Box>
    </CenteredCard>
  );
}

/** The token of a confirmation or unsubscribe link. */
function useToken(): string {
  const [params] = useSearchParams();
  return params.get('token')?.trim() ?? '';
}

function InvalidLink({ what }: { what: string }) {
  return (
    <StatusMessage title="This link does not work" actions={<Button variant="contained" component={RouterLink} to="/">Home page</Button>}>
      <Typography color="text.secondary">
        The {what} link is not complete, or it is not valid any more. Open it again from the message you received, or sign up again.
      </Typography>
    </StatusMessage>
  );
}

/** emails/confirm?token= (public): the double opt-in's link, followed from the message. */
export function ConfirmSubscriptionPage() {
  const token = useToken();
  const confirm = useConfirmSubscriptionQuery(token, { skip: token === '' });
  if (token === '' || isStatus(confirm.error, 404)) return <InvalidLink what="confirmation" />;
  if (confirm.isLoading) return <LinearProgress aria-label="Confirming your subscription" />;
  if (confirm.error) {
    return (
      <StatusMessage title="Your subscription could not be confirmed" actions={<Button variant="contained" onClick={() => void confirm.refetch()}>Try again</Button>}>
        <Typography color="text.secondary">{apiErrorMessage(confirm.error)}</Typography>
      </StatusMessage>
    );
  }
  return (
    <StatusMessage title="Your subscription is confirmed" actions={<Button component={RouterLink} to="/">Home page</Button>}>
      <Typography color="text.secondary">Thank you. Every message has a link to leave the list whenever you wish.</Typography>
    </StatusMessage>
  );
}

/**
 * emails/unsubscribe?token= (public): leaving the list takes a click on the page, so a mail
 * program that opens links ahead of the reader does not unsubscribe them.
 */
export function UnsubscribePage() {
  const token = useToken();
  const [unsubscribe, state] = useUnsubscribeMutation();
  if (token === '' || isStatus(state.error, 404)) return <InvalidLink what="unsubscribe" />;
  if (state.isSuccess) {
    return (
      <StatusMessage title="You have left the list" actions={<Button component={RouterLink} to="/">Home page</Button>}>
        <Typography color="text.secondary">No more messages will be sent to this address.</Typography>
      </StatusMessage>
    );
  }
  return (
    <StatusMessage
      title="Leave the distribution list?"
      actions={
        <Button variant="contained" loading={state.isLoading} loadingPosition="start" onClick={() => void unsubscribe(token)}>
          Unsubscribe
        </Button>
      }
    >
      <Typography color="text.secondary">Messages to your address stop as soon as you unsubscribe.</Typography>
      {state.error && (
        <Alert severity="error" sx={{ mt: 2, maxWidth: 480, mx: 'auto', textAlign: 'left' }}>
          {apiErrorMessage(state.error)}
        </Alert>
      )}
    </StatusMessage>
  );
}
