import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import LockIcon from '@mui/icons-material/Lock';
import { Link as RouterLink, useLocation } from 'react-router';
import { useEntityCounts } from '../api/counts';
import { useGetTenantQuery } from '../api/api';
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
  const { data: tenant } = useGetTenantQuery();
  const location = useLocation();
  const signedIn = useSessionSelector(selectToken) !== null;
  if (count <= 0) return null;
  const link = tenant?.payment_access_link?.trim() || null;
  const [one, other] = noun;
  const message =
    tenant?.payment_access_message?.trim() ||
    (signedIn ? `Your account does not include them.` : `Sign in with an account that includes them to read them.`);
  const from: LoginRedirectState = { from: `${location.pathname}${location.search}` };
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
