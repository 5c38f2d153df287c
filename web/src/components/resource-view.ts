import type { AccessLevel, FieldMeta, ResourceMeta } from '@intelnotes/server/contracts';
import { useAppSelector } from '../app/hooks';
import { selectAccessLevel } from '../features/session/session.slice';
import type { ResourceRecord } from '../api/resources';
import { truncate } from './notify';

/**
 * How a feature presents one resource with the shared DataTable, EntityForm and detail page:
 * which resource (its metadata comes from the API), where its pages live, which columns the
 * list shows and the labels of its fields. Everything else is derived from the metadata.
 */
export interface ResourceView {
  /** Resource kind in GET resources/ (e.g. "organizations"). */
  kind: string;
  /** Route of the list page; records live at `${basePath}/:id`. */
  basePath: string;
  /** Plural heading of the list page. */
  title: string;
  /** Record fields shown as list columns, in order ("display_name" for the name). */
  columns: string[];
  /** Labels of fields whose name does not read well on its own. */
  labels?: Record<string, string>;
  /** Internal bookkeeping fields that the form and detail page leave out. */
  omit?: string[];
}

const ACRONYMS: Record<string, string> = { url: 'URL', urls: 'URLs', hq: 'HQ', dba: 'DBA', id: 'ID' };

const COMMON_LABELS: Record<string, string> = {
  display_name: 'Name',
  created_at: 'Created',
  updated_at: 'Updated',
  show_on_dashboard: 'Show on dashboard',
};

/** The label of a field: the view's own, a common one, or its name in words. */
export function fieldLabel(view: ResourceView, name: string): string {
  const explicit = view.labels?.[name] ?? COMMON_LABELS[name];
  if (explicit) return explicit;
  const words = name.split('_').map((word) => ACRONYMS[word] ?? word);
  const [first = '', ...rest] = words;
  return [first.charAt(0).toUpperCase() + first.slice(1), ...rest].join(' ');
}

/** Fields the form and the detail page show: all but JSON objects and the omitted ones. */
export function visibleFields(meta: ResourceMeta, view: ResourceView): FieldMeta[] {
  return meta.fields.filter((field) => field.kind !== 'object' && !view.omit?.includes(field.name));
}

const RANK: Record<AccessLevel, number> = { public: 0, paywall: 1, research: 2, admin: 3 };

/** The route of one record's page. */
export function recordPath(view: ResourceView, id: string): string {
  return `${view.basePath}/${encodeURIComponent(id)}`;
}

/** Whether the signed-in user may create, edit and delete records of this resource. */
export function useCanWrite(meta: ResourceMeta | undefined): boolean {
  const level = useAppSelector(selectAccessLevel);
  if (!meta) return false;
  const needed = meta.write_access in RANK ? RANK[meta.write_access as AccessLevel] : RANK.admin;
  return RANK[level] >= needed;
}

/** A record's name for headings and messages, cut to 100 characters for toasts (SPEC §9). */
export function recordName(meta: ResourceMeta, record: Pick<ResourceRecord, 'display_name'> | undefined): string {
  const name = record?.display_name?.trim();
  return name ? name : `Unnamed ${meta.label.toLowerCase()}`;
}

export function toastName(meta: ResourceMeta, record: Pick<ResourceRecord, 'display_name'> | undefined): string {
  return `${meta.label} “${truncate(recordName(meta, record), 100)}”`;
}
