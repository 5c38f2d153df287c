import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { useGetTenantQuery } from '../../api/api';
import { useEntityCounts } from '../../api/counts';
import { tenantDisplayName } from '../../api/tenant-name';
import { INTELBOOKS_PATH } from '../../lib/paths';
import { EntityCount } from '../../components/EntityCount';
import { LockedOffer, type LockedNoun } from '../../components/LockedOffer';
import { selectAccessLevel, selectSession, useSessionSelector } from '../../lib/session';

interface HomeCard {
  key: string;
  title: string;
  to: string;
  description: string;
  /** Kinds of GET tools/entities-count summed for the card. */
  kinds: readonly string[];
  dashIfZero?: boolean;
}

/** SPEC §2 "Home cards", in order. */
const CARDS: readonly HomeCard[] = [
  {
    key: 'intelbooks',
    title: 'Intelbooks',
    to: INTELBOOKS_PATH,
    description: 'Bullet-point summaries of the facts that matter, organized by section.',
    kinds: ['facts'],
  },
  {
    key: 'lists',
    title: 'Lists',
    to: '/lists',
    description: 'Curated lists of library entries, organizations, people and ledger entries.',
    kinds: ['library_lists', 'organizations_lists', 'people_lists', 'ledger_lists'],
    dashIfZero: true,
  },
  {
    key: 'library',
    title: 'Library',
    to: '/library',
    description: 'Articles, reports, filings, podcasts and other sources, with abstracts and authors.',
    kinds: ['library'],
  },
  {
    key: 'ledger',
    title: 'Ledger',
    to: '/ledger',
    description: 'Investments and holdings: who owns what, since when and through which vehicle.',
    kinds: ['ledger_entries'],
  },
  {
    key: 'organizations',
    title: 'Organizations',
    to: '/organizations',
    description: 'Companies, funds and institutions with their ownership, founding dates and contacts.',
    kinds: ['organizations'],
  },
  {
    key: 'people',
    title: 'People',
    to: '/people',
    description: 'Founders, investors and other people of interest, with their background and contacts.',
    kinds: ['people'],
  },
];

/** What the home page's offer counts: every card's paywalled records. */
const NOTES: LockedNoun = ['note', 'notes'];
const ALL_KINDS = [...new Set(CARDS.flatMap((card) => card.kinds))];

export function HomePage() {
  const { data: tenant } = useGetTenantQuery();
  const session = useSessionSelector(selectSession);
  const accessLevel = useSessionSelector(selectAccessLevel);
  const { countOf, isError } = useEntityCounts();
  const name = tenant ? tenantDisplayName(tenant) : '';
  const signedIn = session.token !== null;
  const all = countOf(ALL_KINDS);

  return (
    <>
      <Typography variant="h4" component="h1" sx={{ fontWeight: 700, mb: 1, overflowWrap: 'anywhere' }}>
        {name}
      </Typography>
      {signedIn ? (
        <Typography color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          Signed in as {session.email} ({accessLevel})
        </Typography>
      ) : (
        <Typography color="text.secondary">
          Public notes are open to everyone; the ones marked with a lock need an account.{' '}
          <Link component={RouterLink} to="/login">
            Login to read {name}&apos;s intel notes
          </Link>
        </Typography>
      )}
      {all && !all.signedIn && (
        // The cards count the paywalled records behind a lock; this is the way to unlock them.
        <Box sx={{ mt: 3 }}>
          <LockedOffer count={all.paywall} noun={NOTES} />
        </Box>
      )}
      {isError && (
        <Typography role="alert" color="error" sx={{ mt: 2 }}>
          The counts could not be loaded. Please reload the page to try again.
        </Typography>
      )}
      <Box
        component="ul"
        aria-label="Sections"
        sx={{
          listStyle: 'none',
          p: 0,
          mt: { xs: 3, sm: 4 },
          mb: 0,
          display: 'grid',
          gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(3, minmax(0, 1fr))' },
          gap: { xs: 2, sm: 3 },
        }}
      >
        {CARDS.map((card) => (
          <Box component="li" key={card.key} sx={{ display: 'flex' }}>
            <Card variant="outlined" data-testid={`home-card-${card.key}`} sx={{ flex: 1, display: 'flex' }}>
              <CardActionArea
                component={RouterLink}
                to={card.to}
                sx={{ display: 'flex', flexDirection: 'column', alignItems: 'stretch', justifyContent: 'flex-start' }}
              >
                <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 1, height: '100%' }}>
                  <Box sx={{ display: 'flex', alignItems: 'baseline', justifyContent: 'space-between', gap: 2 }}>
                    <Typography variant="h6" component="h2" sx={{ fontWeight: 700 }}>
                      {card.title}
                    </Typography>
                    <Typography
                      component="span"
                      sx={{ fontWeight: 700, fontSize: '1.125rem', color: 'primary.dark', flexShrink: 0 }}
                    >
                      <EntityCount count={countOf(card.kinds)} dashIfZero={card.dashIfZero} />
                    </Typography>
                  </Box>
                  <Typography variant="body2" color="text.secondary">
                    {card.description}
                  </Typography>
                </CardContent>
              </CardActionArea>
            </Card>
          </Box>
        ))}
      </Box>
    </>
  );
}
