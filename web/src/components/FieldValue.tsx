import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import type { FieldMeta, RelatedRef } from '@intelnotes/server/contracts';
import { choiceText, formatPhone, formatScalar, phoneHref } from './field-format';
import { relationValue } from './form-values';
import { recordHref } from './record-links';
import { refName } from './RelationField';
import { VisibilityChip } from './VisibilityChip';
import { VisuallyHidden } from './VisuallyHidden';

export function NotSet() {
  return (
    <Typography component="span" color="text.secondary">
      <span aria-hidden="true">—</span>
      <VisuallyHidden>Not set</VisuallyHidden>
    </Typography>
  );
}

function LinkList({
  items,
  href,
  text = (item) => item,
  external = false,
}: {
  items: string[];
  href: (item: string) => string;
  text?: (item: string) => string;
  external?: boolean;
}) {
  return (
    <Stack component="ul" spacing={0.5} sx={{ m: 0, p: 0, listStyle: 'none' }}>
      {items.map((item) => (
        <li key={item}>
          <Link href={href(item)} sx={{ overflowWrap: 'anywhere' }} {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}>
            {text(item)}
          </Link>
        </li>
      ))}
    </Stack>
  );
}

/**
 * Related records as chips; each opens the record's page when it has one (record-links.ts:
 * keywords open theirs, which lists what is tagged with them), others are plain chips.
 */
export function RelationChips({ refs }: { refs: RelatedRef[] }) {
  return (
    <Stack component="ul" direction="row" useFlexGap sx={{ flexWrap: 'wrap', gap: 0.75, m: 0, p: 0, listStyle: 'none' }}>
      {refs.map((ref) => {
        const href = recordHref(ref.kind, ref);
        return (
          <li key={ref.id} data-ref-kind={ref.kind}>
            {href ? (
              <Chip label={refName(ref)} size="small" variant="outlined" color="primary" clickable component={RouterLink} to={href} sx={{ maxWidth: '100%' }} />
            ) : (
              <Chip label={refName(ref)} size="small" sx={{ maxWidth: '100%' }} />
            )}
          </li>
        );
      })}
    </Stack>
  );
}

const isEmpty = (value: unknown) => value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

/** Whether a field holds nothing to read (the detail page hides such fields until asked). */
export function isEmptyFieldValue(field: FieldMeta, value: unknown): boolean {
  if (isEmpty(value)) return true;
  if (field.kind !== 'relation') return false;
  const refs = relationValue(field, value);
  return Array.isArray(refs) ? refs.length === 0 : refs === null;
}

/** A field's value for reading: links for emails, phones and URLs, chips for related records, words for dates. */
export function FieldValue({ field, value }: { field: FieldMeta; value: unknown }): ReactNode {
  const kind = field.kind;
  if (isEmpty(value)) return <NotSet />;
  if (kind === 'relation') {
    const refs = relationValue(field, value);
    const list = Array.isArray(refs) ? refs : refs ? [refs] : [];
    return list.length === 0 ? <NotSet /> : <RelationChips refs={list} />;
  }
  if (Array.isArray(value)) {
    const items = value.map(String);
    if (kind === 'emails') return <LinkList items={items} href={(item) => `mailto:${item}`} />;
    if (kind === 'phones') return <LinkList items={items} href={phoneHref} text={formatPhone} />;
    if (kind === 'urls') return <LinkList items={items} href={(item) => item} external />;
    return (
      <Stack direction="row" useFlexGap sx={{ flexWrap: 'wrap', gap: 0.5 }}>
        {items.map((item) => (
          <Chip key={item} label={item} size="small" />
        ))}
      </Stack>
    );
  }
  switch (kind) {
    case 'visibility':
      return <VisibilityChip value={value} />;
    case 'boolean':
    case 'incomplete_date':
    case 'date':
    case 'datetime':
      return formatScalar(kind, value);
    case 'choice':
      return choiceText(field, value);
    case 'url':
      return (
        <Link href={String(value)} target="_blank" rel="noopener noreferrer" sx={{ overflowWrap: 'anywhere' }}>
          {String(value)}
        </Link>
      );
    default:
      return (
        <Box component="span" sx={{ whiteSpace: field.multiline ? 'pre-wrap' : undefined, overflowWrap: 'anywhere' }}>
          {String(value)}
        </Box>
      );
  }
}
