import type { FieldMeta, ResourceMeta } from '@intelnotes/server/contracts';
import type { ResourceRecord } from '../../api/resources';
import { choiceText, formatItem, formatScalar } from '../../components/field-format';
import { recordName } from '../../components/resource-view';
import { wordsFound } from '../../components/search-highlight';

/** Field kinds whose text a search reads (the resources' `search` fields are among them). */
const TEXT_KINDS: FieldMeta['kind'][] = ['text', 'category', 'choice', 'emails', 'urls', 'url', 'strings'];

/** A field's value as one line of text ('' when empty). */
export function textOf(field: FieldMeta, value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  if (Array.isArray(value)) return value.map((item) => formatItem(field.kind, item)).join(', ');
  if (field.kind === 'choice') return choiceText(field, value);
  return formatScalar(field.kind, value);
}

/**
 * Where a hit matched beyond its name: the text field holding the most of the search words its
 * name lacks (the first such field in the resource's order), with its text; null when the name
 * has every word.
 */
export function matchedField(meta: ResourceMeta, record: ResourceRecord, words: readonly string[]): { field: FieldMeta; text: string } | null {
  const name = recordName(meta, record);
  const inName = wordsFound(name, words);
  const missing = words.filter((word) => !inName.has(word));
  if (missing.length === 0) return null;
  let best: { field: FieldMeta; text: string; found: number } | null = null;
  for (const field of meta.fields) {
    if (!TEXT_KINDS.includes(field.kind) || meta.name_fields.includes(field.name) || !(field.name in record)) continue;
    const text = textOf(field, record[field.name]);
    if (text === '') continue;
    const found = wordsFound(text, missing).size;
    if (found > 0 && (!best || found > best.found)) best = { field, text, found };
  }
  return best && { field: best.field, text: best.text };
}
