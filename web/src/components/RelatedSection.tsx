import { Fragment, useId, useState } from 'react';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Pagination from '@mui/material/Pagination';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import HubIcon from '@mui/icons-material/HubOutlined';
import { Link as RouterLink } from 'react-router';
import type { FieldMeta, ResourceMeta } from '@intelnotes/server/contracts';
import { apiErrorMessage } from '../api/api-error';
import { useRelatedQuery, type RelatedGroup, type RelatedItem, type RelatedSummaryPart } from '../api/related';
import { useResourcesMetaQuery, type ResourceRecord } from '../api/resources';
import { formatScalar } from './field-format';
import { recordHref } from './record-links';
import { RetryAlert } from './RetryAlert';
import { VisibilityChip } from './VisibilityChip';

/** Records shown per group and page. */
export const RELATED_PAGE_SIZE = 10;
/** The group of the lists holding a record: the ListsWidget shows (and edits) those already. */
const LIST_MEMBERSHIPS = 'lists.items';

interface RelatedSectionProps {
  meta: ResourceMeta;
  record: ResourceRecord;
  /** Group keys the page shows in a section of its own (e.g. investments.owner beside the investments table). */
  omit?: string[];
}

const countText = (group: RelatedGroup) => `${group.count_is_estimate ? 'about ' : ''}${group.count.toLocaleString('en-GB')}`;

function SummaryPart({ part }: { part: RelatedSummaryPart }) {
  const href = part.ref ? recordHref(part.ref.kind, part.ref) : null;
  const text = formatScalar(part.kind as FieldMeta['kind'], part.text);
  return href ? (
    <Link component={RouterLink} to={href} color="inherit" underline="always">
      {text}
    </Link>
  ) : (
    <>{text}</>
  );
}

function RelatedEntry({ item }: { item: RelatedItem }) {
  const href = recordHref(item.kind, { id: item.id, slug: item.slug, type: item.type });
  const name = item.display_name ?? 'Unnamed';
  return (
    <Box component="li" data-related-item={item.id} sx={{ py: 0.75, minWidth: 0 }}>
      <Stack direction="row" useFlexGap sx={{ gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        {href ? (
          <Link component={RouterLink} to={href} sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
            {name}
          </Link>
        ) : (
          <Typography component="span" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
            {name}
          </Typography>
        )}
        {/* Public is the usual case; only the others are worth a chip. */}
        {item.visibility && item.visibility !== 'public' && <VisibilityChip value={item.visibility} />}
      </Stack>
      {item.summary.length > 0 && (
        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          {item.summary.map((part, index) => (
            <Fragment key={`${part.field}-${index}`}>
              {index > 0 && ' · '}
              <SummaryPart part={part} />
            </Fragment>
          ))}
        </Typography>
      )}
    </Box>
  );
}

/** One group with its own paging: the first page comes with the section, later ones are asked for by group. */
function RelatedGroupBlock({ meta, record, first }: { meta: ResourceMeta; record: ResourceRecord; first: RelatedGroup }) {
  const headingId = useId();
  const [page, setPage] = useState(1);
  const offset = (page - 1) * RELATED_PAGE_SIZE;
  const paged = useRelatedQuery({ path: meta.path, id: record.id, group: first.key, limit: RELATED_PAGE_SIZE, offset }, { skip: page === 1 });
  const group = page === 1 ? first : paged.data?.groups[0];
  const pages = Math.ceil(first.count / RELATED_PAGE_SIZE);
  return (
    <Box component="section" aria-labelledby={headingId} data-related-group={first.key}>
      <Stack direction="row" useFlexGap sx={{ gap: 1, alignItems: 'center' }}>
        <Typography id={headingId} variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
          {first.label}
        </Typography>
        <Chip size="small" label={countText(first)} aria-label={`${countText(first)} records`} />
      </Stack>
      {page > 1 && paged.isFetching && <LinearProgress aria-label={`Loading ${first.label.toLowerCase()}`} />}
      {page > 1 && paged.error ? (
        <RetryAlert onRetry={() => paged.refetch()}>{apiErrorMessage(paged.error)}</RetryAlert>
      ) : (
        <Stack component="ul" divider={<Box component="li" aria-hidden="true" sx={{ borderTop: 1, borderColor: 'divider' }} />} sx={{ m: 0, p: 0, listStyle: 'none' }}>
          {(group?.results ?? []).map((item) => (
            <RelatedEntry key={item.id} item={item} />
          ))}
        </Stack>
      )}
      {pages > 1 && (
        <Pagination
          count={pages}
          page={page}
          onChange={(_event, next) => setPage(next)}
          size="small"
          siblingCount={0}
          aria-label={`${first.label}: pages`}
          sx={{ mt: 1 }}
        />
      )}
    </Box>
  );
}

/**
 * "Related": whatever points at the record — the records of every resource whose relation
 * fields name it, grouped by resource and field, and the lists holding it — from the engine's
 * `GET {path}/{id}/related/`, each group paged on its own, every record linked to its page.
 */
export function RelatedSection({ meta, record, omit = [] }: RelatedSectionProps) {
  const headingId = useId();
  // A record of a kind no relation field can point at has nothing to ask for or show
  // here; lists holding a record are shown by the Lists box.
  const metas = useResourcesMetaQuery().data ?? [];
  const referenceable = metas.some((other) => other.fields.some((field) => field.relation?.targets.some((target) => target.kind === meta.kind)));
  // Fresh on arrival: records elsewhere may have started or stopped pointing here.
  const { data, error, isLoading, refetch } = useRelatedQuery(
    { path: meta.path, id: record.id, limit: RELATED_PAGE_SIZE },
    { refetchOnMountOrArgChange: true, skip: !referenceable },
  );
  const hidden = new Set([...omit, ...(meta.list_kind ? [LIST_MEMBERSHIPS] : [])]);
  const groups = (data?.groups ?? []).filter((group) => !hidden.has(group.key));
  if (!referenceable) return null;
  return (
    <Paper variant="outlined" component="section" aria-labelledby={headingId} data-testid="related-section" sx={{ p: { xs: 2, sm: 3 } }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1.5 }}>
        <HubIcon fontSize="small" color="action" />
        <Typography id={headingId} variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          Related
        </Typography>
      </Stack>
      {isLoading ? (
        <LinearProgress aria-label="Loading related records" />
      ) : error ? (
        <RetryAlert onRetry={() => refetch()}>{apiErrorMessage(error)}</RetryAlert>
      ) : groups.length === 0 ? (
        <Typography color="text.secondary">
          Nothing {(data?.groups.length ?? 0) > 0 ? 'else ' : ''}refers to this {meta.label.toLowerCase()} yet.
        </Typography>
      ) : (
        <Stack spacing={2.5}>
          {groups.map((group) => (
            <RelatedGroupBlock key={group.key} meta={meta} record={record} first={group} />
          ))}
        </Stack>
      )}
    </Paper>
  );
}
