import type { AccessLevel, FieldMeta, ResourceMeta } from '@intelnotes/server/contracts';
import { selectAccessLevel, selectCanManageTenants, useSessionSelector } from '../lib/session';
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
  /** What an empty list says when the title is not a plural noun ("No library entries yet."). */
  emptyText?: string;
  /** Record fields shown as list columns, in order ("display_name" for the name). */
  columns: string[];
  /** Labels of fields whose name does not read well on its own. */
  labels?: Record<string, string>;
  /** Internal bookkeeping fields that the form and detail page leave out. */
  omit?: string[];
  /** Where the list is, when not `${basePath}?tab=1` (e.g. /keywords, whose ?tab=1 shows geos). */
  listPath?: string;
  /** Groups of the Related section the page shows in a section of its own (e.g. its investments table). */
  relatedOmit?: string[];
  /** How the list shows a field's value, where the default text would be raw (a size in bytes, a status code). */
  cells?: Record<string, (value: unknown, row: ResourceRecord) => string>;
  /** A column's least width in pixels, where its text is longer than most (140 when not given). */
  minWidths?: Record<string, number>;
  /** Rows a page shows before the reader picks another size (one of 25, 50, 100; 25 when not given). */
  pageSize?: 25 | 50 | 100;
  /**
   * false for a resource SPEC §2 gives no page of its own (intelbook sections and categories): a
   * row opens the record's edit page, and saving or cancelling its form leads back to the list.
   */
  recordPage?: false;
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

const RANK: Record<AccessLevel, number> = { public: 0, paywall: 1, research: 2, admin: 3 };

/** Whether `level` reaches `needed`; an access the app does not know (e.g. manage-tenants) is taken as admin. */
export function atLeast(level: AccessLevel, needed: string): boolean {
  return RANK[level] >= (needed in RANK ? RANK[needed as AccessLevel] : RANK.admin);
}

/** The signed-in user's access level (public when signed out). */
export function useAccessLevel(): AccessLevel {
  return useSessionSelector(selectAccessLevel);
}

/**
 * Fields the form and the detail page show: all but JSON objects and the omitted ones, and,
 * given the reader's access level, only those the API sends them (`read_access`).
 */
export function visibleFields(meta: ResourceMeta, view: ResourceView, access?: AccessLevel): FieldMeta[] {
  return meta.fields.filter(
    (field) => field.kind !== 'object' && !view.omit?.includes(field.name) && (access === undefined || atLeast(access, field.read_access)),
  );
}

/** Whether a user at `access` may change the field (`write_access`). */
export function canWriteField(field: FieldMeta, access: AccessLevel): boolean {
  return atLeast(access, field.write_access);
}

/** Who may change a field, in words: "admins", "research users and admins". */
export function writersOf(field: FieldMeta): string {
  const writers: Record<AccessLevel, string> = { admin: 'admins', research: 'research users and admins', paywall: 'signed-in users', public: 'everyone' };
  return writers[field.write_access];
}

/** The route of the list page, where "back" and "cancel" lead. */
export function listPath(view: ResourceView): string {
  return view.listPath ?? `${view.basePath}?tab=1`;
}

/** The route of one record's page (its edit page when it has no page of its own). */
export function recordPath(view: ResourceView, id: string): string {
  return `${view.basePath}/${encodeURIComponent(id)}${view.recordPage === false ? '/edit' : ''}`;
}

/** Where a record's form leads once saved or cancelled: its page, or the list when it has none. */
export function afterFormPath(view: ResourceView, id: string | undefined): string {
  return id === undefined || view.recordPage === false ? listPath(view) : recordPath(view, id);
}

/** Whether the signed-in user may create, edit and delete records of this resource. */
export function useCanWrite(meta: ResourceMeta | undefined): boolean {
  const level = useAccessLevel();
  const canManageTenants = useSessionSelector(selectCanManageTenants);
  if (!meta) return false;
  // Shared resources (geos, cities) are written by tenant managers, not by every admin.
  return meta.write_access === 'manage-tenants' ? canManageTenants : atLeast(level, meta.write_access);
}

/** A record's name for headings and messages, cut to 100 characters for toasts (SPEC §9). */
export function recordName(meta: ResourceMeta, record: Pick<ResourceRecord, 'display_name'> | undefined): string {
  const name = record?.display_name?.trim();
  return name ? name : `Unnamed ${meta.label.toLowerCase()}`;
}

export function toastName(meta: ResourceMeta, record: Pick<ResourceRecord, 'display_name'> | undefined): string {
  return `${meta.label} “${truncate(recordName(meta, record), 100)}”`;
}
