/** How the history panel words an audit entry: its action, when it happened, and changed values. */
import type { AuditEntry, FieldMeta } from '@intelnotes/server/contracts';
import { formatDateTime, formatScalar } from './field-format';
import { truncate } from './notify';
import { visibilityLabel } from './VisibilityChip';

export const ACTION_LABELS: Record<AuditEntry['action'], string> = {
  create: 'Created',
  update: 'Edited',
  delete: 'Deleted',
  merge: 'Merged',
  undo_merge: 'Merge undone',
};

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];
const RELATIVE = new Intl.RelativeTimeFormat('en-GB', { numeric: 'auto' });

/** "just now", "5 minutes ago", "yesterday", "3 weeks ago" — relative to `now`. */
export function relativeTime(value: string, now = Date.now()): string {
  const seconds = (new Date(value).getTime() - now) / 1000;
  if (Number.isNaN(seconds)) return value;
  if (Math.abs(seconds) < 45) return 'just now';
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === 'minute') return RELATIVE.format(Math.round(seconds / size), unit);
  }
  return formatDateTime(value);
}

/** Values longer than this are cut in the panel (the whole value is in the tooltip). */
export const HISTORY_TEXT_LIMIT = 120;

/** What a value looks like in the history: names of related records, words for dates and flags. */
export function historyValue(field: FieldMeta | undefined, value: unknown, listNames: Map<string, string>, name: string): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (Array.isArray(value)) {
    if (value.length === 0) return null;
    return value.map((item) => historyValue(field, item, listNames, name) ?? '—').join(', ');
  }
  if (typeof value === 'object') {
    const ref = value as { id?: unknown; display_name?: unknown; name?: unknown };
    if ('id' in ref) return String(ref.display_name ?? ref.name ?? 'Unnamed');
    const json = JSON.stringify(value);
    return json === '{}' ? null : json;
  }
  // A record's list memberships are recorded as list ids.
  if (name === 'lists') return listNames.get(String(value)) ?? '…';
  if (field?.kind === 'visibility') return visibilityLabel(value);
  return formatScalar(field?.kind, value);
}

/** A value cut for the panel, and the whole of it when it was cut. */
export function shortened(text: string): { text: string; full: string | null } {
  const short = truncate(text.replace(/\s+/g, ' '), HISTORY_TEXT_LIMIT);
  return { text: short, full: short === text ? null : text };
}
