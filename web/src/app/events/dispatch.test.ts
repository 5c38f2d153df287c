// What the web app does with each live event (app/events/dispatch.ts): the toast of new
// suggested organizations (stays open, names cut at 100 characters plus "…", a click goes to
// /organizations?tab=2), the raw data, suggestion and email domain events refetching what they
// name, a note's mention toast leading to the record, reset refetching the cache, and events
// without a handler ignored.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EventPayload } from '@intelnotes/server/contracts';
import type { StickyToast } from '../../components/notify';
import { dispatchLiveEvent, suggestedOrganizationsText, type EventContext } from './dispatch';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function recorder() {
  const toasts: StickyToast[] = [];
  const visited: string[] = [];
  let refetches = 0;
  const records: string[] = [];
  const lists: string[] = [];
  const context: EventContext = {
    refetchCached: () => void (refetches += 1),
    refetchRecord: (path, recordId) => void records.push(`${path} ${recordId}`),
    refetchList: (path) => void lists.push(path),
    stickyToast: (toast) => void toasts.push(toast),
    navigate: (to) => void visited.push(to),
  };
  return { context, toasts, visited, records, lists, refetches: () => refetches };
}

describe('live event dispatch', () => {
  it('cuts organization names in the toast at 100 characters plus an ellipsis', () => {
    const long = 'A'.repeat(99) + 'BCDEF';
    const text = suggestedOrganizationsText({ raw_data_id: null, count: 1, items: [{ id: id(1), name: long }] });
    assert.equal(text, `New suggested organization: ${'A'.repeat(99)}B…`);

    const exact = 'C'.repeat(100);
    assert.equal(
      suggestedOrganizationsText({ raw_data_id: null, count: 1, items: [{ id: id(1), name: exact }] }),
      `New suggested organization: ${exact}`,
    );
  });

  it('names the first three of a batch and counts the others', () => {
    const payload: EventPayload<'new_suggested_organizations'> = {
      raw_data_id: id(9),
      count: 12,
      items: ['Acme', 'Globex', 'Initech', 'Umbrella', 'Hooli'].map((name, n) => ({ id: id(n), name })),
    };
    assert.equal(suggestedOrganizationsText(payload), '12 new suggested organizations: Acme, Globex, Initech and 9 more');
    assert.equal(
      suggestedOrganizationsText({ ...payload, count: 2, items: payload.items.slice(0, 2) }),
      '2 new suggested organizations: Acme, Globex',
    );
  });

  it("shows a note's mention as a toast that stays open and leads to the record's activity", () => {
    const { context, toasts, visited, refetches } = recorder();
    const record = { kind: 'organizations', id: id(7), display_name: 'Acme GmbH' };
    dispatchLiveEvent({ id: '5', event: 'note_mention', data: JSON.stringify({ id: id(8), record, by: 'mate@acme.test', created_at: '2026-11-29T10:00:00.000Z' }) }, context);
    assert.equal(toasts.length, 1);
    assert.equal(toasts[0]!.message, 'mate@acme.test mentioned you on Acme GmbH');
    assert.equal(toasts[0]!.id, 'note-mention-5');
    assert.equal(refetches(), 1, 'an open timeline shows the note');
    toasts[0]!.onClick();
    assert.deepEqual(visited, [`/organizations/${id(7)}#activity`]);
  });

  it('refetches a raw data row and its lists on its update, completion and error events', () => {
    const { context, records, toasts } = recorder();
    const at = '2026-11-25T23:00:00.000Z';
    dispatchLiveEvent({ id: '1', event: 'raw_data_update', data: JSON.stringify({ id: id(1), processing_status: 'processing', updated_at: at }) }, context);
    dispatchLiveEvent({ id: '2', event: 'raw_data_process_complete', data: JSON.stringify({ id: id(2), processing_status: 'completed', updated_at: at }) }, context);
    dispatchLiveEvent({ id: '3', event: 'raw_data_error', data: JSON.stringify({ id: id(3), reason: 'The PDF is encrypted.', updated_at: at }) }, context);
    assert.deepEqual(records, [`/raw-data ${id(1)}`, `/raw-data ${id(2)}`, `/raw-data ${id(3)}`]);
    assert.equal(toasts.length, 0);
  });

  it('refetches the suggested ledger entries when an item is processed (SPEC §4 has no ledger suggestion event)', () => {
    const { context, lists } = recorder();
    const at = '2026-11-26T05:30:00.000Z';
    dispatchLiveEvent({ id: '1', event: 'raw_data_update', data: JSON.stringify({ id: id(1), processing_status: 'processing', updated_at: at }) }, context);
    assert.deepEqual(lists, []);
    dispatchLiveEvent({ id: '2', event: 'raw_data_process_complete', data: JSON.stringify({ id: id(1), processing_status: 'completed', updated_at: at }) }, context);
    assert.deepEqual(lists, ['/suggested-entities/ledger']);
  });

  it('refetches an email domain, the cached domain lists and the address lists when the domain has been looked into', () => {
    const { context, records, lists, toasts } = recorder();
    dispatchLiveEvent({ id: '5', event: 'domain_info_enrich_complete', data: JSON.stringify({ id: id(7), updated_at: '2026-11-26T05:00:00.000Z' }) }, context);
    assert.deepEqual(records, [`/dxlist/domains ${id(7)}`]);
    assert.deepEqual(lists, ['/dxlist']);
    assert.equal(toasts.length, 0);
  });

  it('shows new suggested organizations in a toast that stays open and leads to the suggested tab', () => {
    const { context, toasts, visited } = recorder();
    const payload = { raw_data_id: null, count: 1, items: [{ id: id(1), name: 'Acme' }] };
    dispatchLiveEvent({ id: '17', event: 'new_suggested_organizations', data: JSON.stringify(payload) }, context);
    assert.equal(toasts.length, 1);
    assert.equal(toasts[0]!.message, 'New suggested organization: Acme');
    assert.equal(toasts[0]!.id, 'new-suggested-organizations-17');
    assert.deepEqual(visited, []);
    toasts[0]!.onClick();
    assert.deepEqual(visited, ['/organizations?tab=2']);
  });

  it('refetches the open suggestions list when organizations or people are suggested, one or many', () => {
    const { context, lists, toasts } = recorder();
    const at = '2026-11-26T01:00:00.000Z';
    dispatchLiveEvent({ id: '1', event: 'new_suggested_organization', data: JSON.stringify({ id: id(1), name: 'Acme', raw_data_id: null, updated_at: at }) }, context);
    dispatchLiveEvent({ id: '2', event: 'new_suggested_organizations', data: JSON.stringify({ raw_data_id: null, count: 1, items: [{ id: id(2), name: 'Globex' }] }) }, context);
    dispatchLiveEvent({ id: '3', event: 'new_suggested_person', data: JSON.stringify({ id: id(3), raw_data_id: null, updated_at: at }) }, context);
    dispatchLiveEvent({ id: '4', event: 'new_suggested_people', data: JSON.stringify({ raw_data_id: null, count: 2, ids: [id(4), id(5)] }) }, context);
    assert.deepEqual(lists, [
      '/suggested-entities/organizations',
      '/suggested-entities/organizations',
      '/suggested-entities/people',
      '/suggested-entities/people',
    ]);
    // Only the batch of organizations has a toast (SPEC §4).
    assert.equal(toasts.length, 1);
  });

  it('refetches cached data on reset', () => {
    const { context, refetches, toasts } = recorder();
    dispatchLiveEvent({ id: '99', event: 'reset', data: '{"last_event_id":99}' }, context);
    assert.equal(refetches(), 1);
    assert.equal(toasts.length, 0);
  });

  it('ignores events without a handler, unknown names and payloads that are not JSON', (t) => {
    const warn = t.mock.method(console, 'warn', () => undefined);
    const { context, refetches, toasts, visited } = recorder();
    dispatchLiveEvent({ id: '1', event: 'raw_data_update', data: '{}' }, context);
    dispatchLiveEvent({ id: '2', event: 'toString', data: '{}' }, context);
    dispatchLiveEvent({ id: '3', event: 'new_suggested_organizations', data: '{not json' }, context);
    assert.equal(refetches(), 0);
    assert.deepEqual([toasts, visited], [[], []]);
    assert.equal(warn.mock.callCount(), 1);
  });
});
