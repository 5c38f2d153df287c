// Where an advanced-search hit matched beyond its name (features/search/search-match.ts): the
// text field with most of the words the name lacks, none when the name has them all.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FieldMeta, ResourceMeta } from '@intelnotes/server/contracts';
import { matchedField } from './search-match';

const field = (name: string, kind: FieldMeta['kind'], extra: Partial<FieldMeta> = {}) => ({ name, kind, choice_labels: null, ...extra }) as FieldMeta;
const meta = {
  kind: 'organizations',
  label: 'Organization',
  name_fields: ['name_inc', 'name_dba'],
  fields: [
    field('name_inc', 'text'),
    field('name_dba', 'text'),
    field('hq_city', 'category'),
    field('emails', 'emails'),
    field('founding_date', 'incomplete_date'),
    field('notes', 'text'),
  ],
} as unknown as ResourceMeta;
const record = (values: Record<string, unknown>) => ({ id: '1', display_name: 'Andes Minerals', name_dba: 'Andes Minerals', ...values });

describe('the field a hit matched in', () => {
  it('is none when the name has every word', () => {
    assert.equal(matchedField(meta, record({ notes: 'andes' }), ['andes']), null);
  });

  it('is the field with most of the missing words, the first of equals', () => {
    const found = matchedField(meta, record({ hq_city: 'Santiago', notes: 'Lithium brine near Santiago' }), ['lithium', 'santiago']);
    assert.equal(found?.field.name, 'notes');
    assert.equal(found?.text, 'Lithium brine near Santiago');
    assert.equal(matchedField(meta, record({ hq_city: 'Santiago', notes: 'Santiago office' }), ['santiago'])?.field.name, 'hq_city');
  });

  it('reads lists of values, and finds words after punctuation', () => {
    const found = matchedField(meta, record({ emails: ['info@lithium.test', 'ceo@andes.test'] }), ['lithium']);
    assert.equal(found?.field.name, 'emails');
    assert.equal(found?.text, 'info@lithium.test, ceo@andes.test');
  });

  it('leaves out names, empty fields, fields the record does not carry and non-text fields', () => {
    assert.equal(matchedField(meta, record({ name_inc: 'Lithium SA', notes: null, founding_date: '2015' }), ['lithium', '2015']), null);
  });
});
