import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import LockIcon from '@mui/icons-material/Lock';
import { Link as RouterLink, useLocation } from 'react-router';
import { useEntityCounts } from '../api/counts';
import { useGetTenantQuery } from '../api/api';
import { usePageTitle } from '../lib/page-title';
import type { LoginRedirectState } from '../lib/route-groups';
import { selectToken, useSessionSelector } from '../lib/session';

const formatter = new Intl.NumberFormat('en-US');

/** What is locked, in the singular and the plural: ['fact', 'facts']. */
export type LockedNoun = readonly [one: string, other: string];

/** The nouns of the counted kinds (GET tools/entities-count/) with a locked count somewhere. */
export const LOCKED_NOUNS = {
  organizations: ['organization', 'organizations'],
  people: ['person', 'people'],
  library: ['library entry', 'library entries'],
  ledger_entries: ['ledger entry', 'ledger entries'],
  facts: ['fact', 'facts'],
} as const satisfies Record<string, LockedNoun>;

interface LockedOfferProps {
  /** How many records the paywall hides from this reader; nothing shows at 0. */
  count: number;
  noun: LockedNoun;
  /** E.g. a print stylesheet's class that leaves the offer out of print. */
  className?: string;
}

/**
 * The "unlock" offer on a locked count (SPEC §2: paywalled records counted behind a lock): how
 * many records the paywall hides from this reader, the tenant's payment_access_message, an
 * Unlock button to its payment_access_link (the payment provider, which sends the reader back
 * to /checkout), and Login for signed-out visitors, who come back here after signing in.
 */
export function LockedOffer({ count, noun, className }: LockedOfferProps) {
  const offer = useUnlockOffer('them');
  if (count <= 0) return null;
  const { link, signedIn, message, from } = offer;
  const [one, other] = noun;
  return (
    <Alert
      severity="info"
      icon={<LockIcon />}
      data-testid="locked-offer"
      // An offer, not an alert: announced where it is read, not the moment a page opens.
      role="note"
      className={className}
      action={
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          {link && (
            <Button variant="contained" size="small" href={link} target="_blank" rel="noopener noreferrer">
              Unlock
            </Button>
          )}
          {!signedIn && (
            <Button variant={link ? 'outlined' : 'contained'} size="small" component={RouterLink} to="/login" state={from}>
              Login
            </Button>
          )}
        </Stack>
      }
      // On a narrow screen the buttons go below the text instead of squeezing it.
      sx={{ alignItems: 'center', flexWrap: 'wrap', '& .MuiAlert-message': { flex: '1 1 220px' }, '& .MuiAlert-action': { pt: 0, ml: 'auto', mr: 0 } }}
    >
      <AlertTitle sx={{ mb: 0.25 }}>
        {formatter.format(count)} more {count === 1 ? `${one} is` : `${other} are`} locked
      </AlertTitle>
      <span style={{ whiteSpace: 'pre-line' }}>{message}</span>
    </Alert>
  );
}

/**
 * What every unlock offer says and where it leads: the tenant's payment link and message (or
 * a sentence about `what` is locked: "them", "it"), whether the reader is signed in, and the
 * Login button's way back here.
 */
function useUnlockOffer(what: 'them' | 'it') {
  const { data: tenant } = useGetTenantQuery();
  const location = useLocation();
  const signedIn = useSessionSelector(selectToken) !== null;
  const link = tenant?.payment_access_link?.trim() || null;
  const message =
    tenant?.payment_access_message?.trim() ||
    (signedIn ? `Your account does not include ${what}.` : `Sign in with an account that includes ${what} to read ${what}.`);
  const from: LoginRedirectState = { from: `${location.pathname}${location.search}` };
  return { link, signedIn, message, from };
}

/**
 * The page of a paywalled record opened by a signed-out visitor (a shared link): the record
 * stays locked — the server sends nothing of it (403 `paywalled`) — and the page says so the
 * way the lists' offer does ("2 more organizations are locked — Login"), with the tenant's
 * message, Login (back to this page after signing in), Unlock when the tenant sells access,
 * and the way back to the list.
 */
export function LockedRecord({ label, back }: { label: string; back: { to: string; label: string } }) {
  const { link, signedIn, message, from } = useUnlockOffer('it');
  const noun = label.toLowerCase();
  usePageTitle(`Locked ${noun}`);
  return (
    <Box data-testid="locked-record" sx={{ py: { xs: 5, sm: 8 }, px: 2, textAlign: 'center' }}>
      <LockIcon color="primary" sx={{ fontSize: 48, mb: 1 }} aria-hidden />
      <Typography variant="h4" component="h1" sx={{ fontWeight: 700, mb: 1.5 }}>
        This {noun} is locked
      </Typography>
      <Typography color="text.secondary" sx={{ whiteSpace: 'pre-line', maxWidth: 560, mx: 'auto' }}>
        {message}
      </Typography>
      <Stack direction="row" useFlexGap sx={{ gap: 2, justifyContent: 'center', mt: 3, flexWrap: 'wrap' }}>
        {!signedIn && (
          <Button variant="contained" component={RouterLink} to="/login" state={from}>
            Login
          </Button>
        )}
        {link && (
          <Button variant={signedIn ? 'contained' : 'outlined'} href={link} target="_blank" rel="noopener noreferrer">
            Unlock
          </Button>
        )}
        <Button component={RouterLink} to={back.to}>
          Back to {back.label.toLowerCase()}
        </Button>
      </Stack>
    </Box>
  );
}

/**
 * The offer on a list page for a signed-out visitor: the paywalled records of the list's kind,
 * from the visitors' counts. Signed-in readers see every paywalled record already (what stays
 * hidden is not for sale), so they get none; kinds without a count get none either.
 */
export function ListLockedOffer({ kind }: { kind: string }) {
  const signedIn = useSessionSelector(selectToken) !== null;
  const noun = (LOCKED_NOUNS as Record<string, LockedNoun | undefined>)[kind];
  return signedIn || !noun ? null : <VisitorLockedOffer kind={kind} noun={noun} />;
}

function VisitorLockedOffer({ kind, noun }: { kind: string; noun: LockedNoun }) {
  const count = useEntityCounts().countOf([kind]);
  return count && !count.signedIn ? <LockedOffer count={count.paywall} noun={noun} /> : null;
}
