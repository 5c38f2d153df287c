import type { ResourceMeta } from '@intelnotes/server/contracts';
import type { ResourceRecord } from '../api/resources';
import { DetailFields } from './DetailList';
import { FieldValue, isEmptyFieldValue } from './FieldValue';
import { fieldLabel, useAccessLevel, useCanWrite, visibleFields, type ResourceView } from './resource-view';

/**
 * A record's fields for reading, as the caller may read them: empty fields behind "Show empty
 * fields", visibility left to the chip beside the heading, and curators' flags (show_on_dashboard,
 * is_fav) only for those who curate — not for readers.
 */
export function RecordFields({ meta, view, record, framed = true }: { meta: ResourceMeta; view: ResourceView; record: ResourceRecord; framed?: boolean }) {
  const access = useAccessLevel();
  const canWrite = useCanWrite(meta);
  const fields = visibleFields(meta, view, access).filter((field) => field.kind !== 'visibility' && (canWrite || !field.internal));
  return (
    <DetailFields
      framed={framed}
      fields={fields.map((field) => ({
        name: field.name,
        label: fieldLabel(view, field.name),
        empty: isEmptyFieldValue(field, record[field.name]),
        value: <FieldValue field={field} value={record[field.name]} />,
      }))}
    />
  );
}
