/**
 * Review end to end (docs/review.md): the engine suggests (as a job will, without HTTP),
 * research users list, edit, accept — alone or folded into a record with link_to — and
 * reject; a rejected name from the same source is not suggested again; provenance follows
 * the suggestion; paywall readers and the public get nothing.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { query } from '../../db/client.ts';
import { inTenant, systemActor } from '../../resources/context.ts';
import { whileHeld } from '../../test/races.ts';
import type { TenantRow } from '../../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from '../../test/test-app.ts';
import { provenanceOf, type ProvenanceInput } from './review.repository.ts';
import { isRejected, reviewedResourceOf } from './review.service.ts';

const API = '/api/v1';

describe('review of suggestions', () => {
  let t: TestContext;
  let acme: TenantRow;
  let tokens: Record<string, string | undefined>;
  const rawItem = randomUUID();
  const otherItem = randomUUID();

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, role = 'research') =>
    t.request(acme, { method, url, token: tokens[role], ...(payload === undefined ? {} : { payload: payload as object }) });
  /** Suggests through the engine as the suggester's job does: a system actor, no request. */
  const suggest = (typeCode: string, values: Record<string, unknown>, provenance: ProvenanceInput[] = []) =>
    inTenant(t.db, systemActor(acme.id), (ctx) => t.engine.reviews.byTypeCode(typeCode).suggest(ctx, values, provenance));
  const found = (snippet: string, source = rawItem): ProvenanceInput => ({ source: { kind: 'raw_data', id: source }, snippet, start: 10, end: 20, mentions: 2 });

  /**
   * Undoes the merge that folded a suggestion (provenance from otherItem) into a record, found in
   * the record's history: the suggestion is back with its provenance. Returns the merge's id.
   */
  const undoFold = async (segment: string, recordId: string, suggestionId: string): Promise<string> => {
    const history = (await call('GET', `${API}/assets/${segment}/${recordId}/history/`, undefined, 'admin')).json().results;
    const merge = history.find((entry: { action: string }) => entry.action === 'merge');
    const undone = await call('POST', `${API}/assets/${segment}/merge/${merge.id}/undo/`);
    assert.equal(undone.statusCode, 200, undone.body);
    const back = await call('GET', `${API}/suggested-entities/${segment}/${suggestionId}/`);
    assert.equal(back.statusCode, 200, back.body);
    assert.deepEqual(back.json().provenance.map((entry: { source_id: string }) => entry.source_id), [otherItem]);
    return merge.id;
  };

  before(async () => {
    t = await createTestApp();
    ({ acme, tokens } = await t.signInTwoTenants());
  });
  after(() => t.close());

  it('type codes name the reviewed resource: ORG, PER, anything else the ledger', () => {
    assert.equal(reviewedResourceOf(t.engine.catalog, 'ORG').kind, 'organizations');
    assert.equal(reviewedResourceOf(t.engine.catalog, 'per').kind, 'people');
    assert.equal(reviewedResourceOf(t.engine.catalog, 'MONEY').kind, 'ledger_entries');
  });

  it('a suggestion is listed, searched, counted and shown with its provenance, to research users and admins', async () => {
    const suggestion = await suggest('ORG', { name_inc: 'Quokka Mining Ltd', hq_city: 'Perth' }, [found('… Quokka Mining Ltd said …')]);
    assert.ok(suggestion);
    for (const role of ['research', 'admin']) {
      const page = await call('GET', `${API}/suggested-entities/organizations/?search=quokka`, undefined, role);
      assert.equal(page.statusCode, 200, page.body);
      const [row] = page.json().results;
      assert.equal(page.json().count, 1);
      assert.equal(row.id, suggestion['id']);
      assert.equal(row.status, 'suggested');
      assert.deepEqual(
        row.provenance.map((entry: Record<string, unknown>) => [entry['source_kind'], entry['source_id'], entry['snippet'], entry['start_offset'], entry['end_offset'], entry['mention_count']]),
        [['raw_data', rawItem, '… Quokka Mining Ltd said …', 10, 20, 2]],
      );
    }
    assert.equal((await call('GET', `${API}/suggested-entities/organizations/?hq_city=Perth`)).json().count, 1);
    assert.equal((await call('GET', `${API}/suggested-entities/organizations/?hq_city=Lima`)).json().count, 0);
    assert.deepEqual((await call('GET', `${API}/assets/organizations/count/?status=suggested`)).json(), { count: 1 });
    assert.deepEqual((await call('GET', `${API}/assets/organizations/count/`)).json(), { count: 0 });
    const one = await call('GET', `${API}/suggested-entities/organizations/${suggestion['id']}/`);
    assert.equal(one.json().provenance.length, 1);
    const edited = await call('PATCH', `${API}/suggested-entities/organizations/${suggestion['id']}/`, { ...(one.json() as object), name_dba: 'Quokka' });
    assert.equal(edited.statusCode, 200, edited.body);
    assert.equal(edited.json().name_dba, 'Quokka');
    assert.equal(edited.json().status, 'suggested');
  });

  it('paywall readers get 403 and the public 401; a suggestion is no record (404)', async () => {
    const suggestion = (await suggest('PER', { name_given: 'Wombat', name_family: 'Jones' }))!;
    for (const [role, status] of [['paywall', 403], ['public', 401]] as const) {
      for (const [method, url] of [
        ['GET', `${API}/suggested-entities/people/`],
        ['GET', `${API}/suggested-entities/people/${suggestion['id']}/`],
        ['PATCH', `${API}/suggested-entities/people/${suggestion['id']}/`],
        ['DELETE', `${API}/suggested-entities/people/${suggestion['id']}/`],
        ['POST', `${API}/assets/people/${suggestion['id']}/accept_suggestion/`],
        ['POST', `${API}/assets/people/${suggestion['id']}/reject_suggestion/`],
        ['GET', `${API}/assets/people/count/?status=suggested`],
      ] as const) {
        assert.equal((await call(method, url, method === 'PATCH' ? {} : undefined, role)).statusCode, status, `${role} ${method} ${url}`);
      }
    }
    assert.equal((await call('GET', `${API}/assets/people/${suggestion['id']}/`, undefined, 'admin')).statusCode, 404);
    assert.equal((await call('GET', `${API}/suggested-entities/people/${randomUUID()}/`)).statusCode, 404);
    const beta = await t.request('beta', { method: 'GET', url: `${API}/suggested-entities/people/${suggestion['id']}/`, token: tokens['beta'] });
    assert.equal(beta.statusCode, 404);
  });

  it('a suggestion is as sure as its surest source: a read-only field of the suggestions, ordered and compared by', async () => {
    const meta = (await call('GET', `${API}/resources/`)).json().find((one: { kind: string }) => one.kind === 'organizations');
    assert.deepEqual(
      { ...meta.suggestions, fields: undefined },
      { path: '/suggested-entities/organizations', fields: undefined, ordering: [...meta.ordering, 'confidence'], default_ordering: '-confidence,-updated_at' },
    );
    const field = meta.suggestions.fields.find((one: { name: string }) => one.name === 'confidence');
    assert.deepEqual([field.kind, field.read_only, field.orderable, field.min, field.max], ['decimal', true, true, 0, 1]);
    assert.equal(meta.fields.some((one: { name: string }) => one.name === 'confidence'), false, 'records have none');

    const sure = (await suggest('ORG', { name_inc: 'Quokka Mining' }, [{ ...found('Quokka Mining'), confidence: 0.7 }, { ...found('Quokka Mining Ltd', otherItem), confidence: 0.92 }]))!;
    const unsure = (await suggest('ORG', { name_inc: 'Wombat Freight' }, [{ ...found('Wombat Freight'), confidence: 7 }]))!;
    const unknown = (await suggest('ORG', { name_inc: 'Echidna Labs' }, [found('Echidna Labs')]))!;
    assert.equal(sure['confidence'], 0.92);
    assert.deepEqual((sure['provenance'] as Array<{ confidence: number }>).map((entry) => entry.confidence).sort(), [0.7, 0.92]);
    assert.equal(unsure['confidence'], 1, 'a suggester out of range is held to 0..1');
    assert.equal(unknown['confidence'], null);
    const listed = (await call('GET', `${API}/suggested-entities/organizations/?limit=100`)).json().results.map((row: Record<string, unknown>) => row['display_name']);
    const mine = listed.filter((name: string) => ['Quokka Mining', 'Wombat Freight', 'Echidna Labs'].includes(name));
    assert.deepEqual(mine, ['Wombat Freight', 'Quokka Mining', 'Echidna Labs'], 'surest first, unknown last');
    const compared = (await call('GET', `${API}/suggested-entities/organizations/?confidence__lt=0.95&confidence__gte=0.9`)).json().results;
    assert.deepEqual(compared.map((row: Record<string, unknown>) => row['display_name']), ['Quokka Mining']);
    const bad = await call('GET', `${API}/suggested-entities/organizations/?confidence__gte=high`);
    assert.equal(bad.statusCode, 400, bad.body);
    assert.ok(bad.json().errors['confidence__gte'], bad.body);
    assert.equal((await call('GET', `${API}/assets/organizations/?ordering=confidence`)).statusCode, 400, 'records are not ordered by it');

    // Its sources go one by one (a reprocessed or deleted item): the confidence follows what is left.
    await inTenant(t.db, systemActor(acme.id), (ctx) => query(ctx.tx, sql`DELETE FROM suggestion_provenance WHERE record_id = ${String(sure['id'])} AND source_id = ${otherItem}`));
    assert.equal((await call('GET', `${API}/suggested-entities/organizations/${sure['id']}/`)).json().confidence, 0.7);
  });

  it('accept: the suggestion becomes a record with its provenance and history', async () => {
    const suggestion = (await suggest('ORG', { name_inc: 'Numbat Shipping' }, [found('Numbat Shipping')]))!;
    const accepted = await call('POST', `${API}/assets/organizations/${suggestion['id']}/accept_suggestion/`, {});
    assert.equal(accepted.statusCode, 200, accepted.body);
    assert.equal(accepted.json().id, suggestion['id']);
    assert.equal((await call('GET', `${API}/assets/organizations/${suggestion['id']}/`)).statusCode, 200);
    assert.equal((await call('GET', `${API}/suggested-entities/organizations/${suggestion['id']}/`)).statusCode, 404);
    assert.equal((await call('POST', `${API}/assets/organizations/${suggestion['id']}/accept_suggestion/`)).statusCode, 404, 'accepted twice');
    const history = (await call('GET', `${API}/assets/organizations/${suggestion['id']}/history/`, undefined, 'admin')).json().results;
    assert.deepEqual(history[0].changes, { status: { from: 'suggested', to: 'active' } });
    const counts = (await call('GET', `${API}/tools/entities-count/`, undefined, 'admin')).json();
    assert.equal(counts.organizations.hidden_count, 1);
    // Provenance stays with the record (kept for later, e.g. when it is merged).
    const provenance = await inTenant(t.db, systemActor(acme.id), (ctx) => provenanceOf(ctx.tx, 'organizations', [String(suggestion['id'])]));
    assert.equal(provenance.get(String(suggestion['id']))?.length, 1);
  });

  it('accept with link_to folds the suggestion into a record: blanks filled, provenance moved, undoable', async () => {
    const record = await call('POST', `${API}/assets/organizations/`, { name_inc: 'Bilby Foods', visibility: 'public' }, 'admin');
    assert.equal(record.statusCode, 201, record.body);
    const suggestion = (await suggest('ORG', { name_inc: 'Bilby Foods Pty', hq_city: 'Darwin', emails: ['hi@bilby.test'] }, [found('Bilby Foods Pty', otherItem)]))!;
    const refused = await call('POST', `${API}/assets/organizations/${suggestion['id']}/accept_suggestion/`, { link_to: randomUUID() });
    assert.equal(refused.statusCode, 400, refused.body);
    assert.ok(refused.json().errors.link_to);
    assert.equal((await call('POST', `${API}/assets/organizations/${suggestion['id']}/accept_suggestion/`, { link: 'x' })).statusCode, 400);
    const linked = await call('POST', `${API}/assets/organizations/${suggestion['id']}/accept_suggestion/`, { link_to: record.json().id });
    assert.equal(linked.statusCode, 200, linked.body);
    assert.equal(linked.json().id, record.json().id);
    assert.equal(linked.json().name_inc, 'Bilby Foods');
    assert.equal(linked.json().hq_city, 'Darwin');
    assert.deepEqual(linked.json().emails, ['hi@bilby.test']);
    assert.equal((await call('GET', `${API}/suggested-entities/organizations/${suggestion['id']}/`)).statusCode, 404);
    const moved = await inTenant(t.db, systemActor(acme.id), (ctx) => provenanceOf(ctx.tx, 'organizations', [record.json().id, String(suggestion['id'])]));
    assert.deepEqual(moved.get(record.json().id)?.map((entry) => entry.source_id), [otherItem]);
    // The merge is undone like any other: the suggestion is back, with its provenance.
    await undoFold('organizations', record.json().id, String(suggestion['id']));
    assert.equal((await call('GET', `${API}/assets/organizations/${record.json().id}/`)).json().hq_city, null);
  });

  it('reject: remembered by name and source, so the same name from the same source is not suggested again', async () => {
    const suggestion = (await suggest('MONEY', { caption: 'Dingo Fund raises $5m', data: '$5m' }, [found('raises $5m')]))!;
    assert.equal((await call('GET', `${API}/suggested-entities/ledger/`)).json().count, 1);
    const rejected = await call('POST', `${API}/assets/ledger/${suggestion['id']}/reject_suggestion/`);
    assert.equal(rejected.statusCode, 204, rejected.body);
    assert.equal((await call('GET', `${API}/suggested-entities/ledger/`)).json().count, 0);
    assert.deepEqual((await call('GET', `${API}/assets/ledger/count/?status=rejected`)).json(), { count: 1 });
    assert.deepEqual((await call('GET', `${API}/assets/ledger/count/`)).json(), { count: 0 });
    assert.equal((await call('POST', `${API}/assets/ledger/${suggestion['id']}/accept_suggestion/`)).statusCode, 404);

    const ledger = reviewedResourceOf(t.engine.catalog, 'MONEY');
    const source = { kind: 'raw_data', id: rawItem };
    assert.equal(await inTenant(t.db, systemActor(acme.id), (ctx) => isRejected(ctx, ledger, '  DINGO fund raises $5M ', source)), true);
    assert.equal(await inTenant(t.db, systemActor(acme.id), (ctx) => isRejected(ctx, ledger, 'Dingo Fund raises $5m', { kind: 'raw_data', id: otherItem })), false);
    assert.equal(await suggest('MONEY', { caption: 'Dingo Fund raises $5m' }, [found('again')]), null);
    assert.equal((await call('GET', `${API}/suggested-entities/ledger/`)).json().count, 0);
    // From another source it is news again, but only that source is kept.
    const again = await suggest('MONEY', { caption: 'Dingo fund raises $5m' }, [found('again'), found('elsewhere', otherItem)]);
    assert.deepEqual((again!['provenance'] as Array<{ source_id: string }>).map((entry) => entry.source_id), [otherItem]);

    const person = (await suggest('PER', { name_given: 'Echidna', name_family: 'Smith' }))!;
    assert.equal((await call('POST', `${API}/assets/people/${person['id']}/reject_suggestion/`, {})).statusCode, 204);
    assert.equal(await suggest('PER', { name_given: 'echidna', name_family: 'SMITH' }), null);
  });

  it('validation at the edge: a malformed id, a bad parameter or a bad body is a 400 naming each', async () => {
    const suggestion = (await suggest('ORG', { name_inc: 'Bandicoot Rail' }))!;
    const idOnly = { id: ['Must be the id of a record.'] };
    for (const [method, url] of [
      ['GET', `${API}/suggested-entities/organizations/not-an-id/`],
      ['PATCH', `${API}/suggested-entities/organizations/not-an-id/`],
      ['DELETE', `${API}/suggested-entities/organizations/not-an-id/`],
      ['POST', `${API}/assets/organizations/not-an-id/accept_suggestion/`],
      ['POST', `${API}/assets/organizations/not-an-id/reject_suggestion/`],
    ] as const) {
      const response = await call(method, url, method === 'PATCH' ? {} : undefined);
      assert.equal(response.statusCode, 400, `${method} ${url}: ${response.body}`);
      assert.deepEqual(response.json().errors, idOnly, `${method} ${url}`);
    }
    for (const [url, parameter, message] of [
      [`${API}/suggested-entities/organizations/?limit=many`, 'limit', 'Must be a whole number.'],
      [`${API}/suggested-entities/organizations/?offset=-1`, 'offset', 'Must be at least 0.'],
      [`${API}/suggested-entities/organizations/?colour=red`, 'colour', undefined],
      [`${API}/suggested-entities/organizations/?format=xlsx`, 'format', 'Suggestions are listed as JSON only.'],
      [`${API}/assets/organizations/count/?status=weird`, 'status', 'Must be one of: suggested, active, rejected.'],
      [`${API}/assets/organizations/count/?state=active`, 'state', 'Unknown parameter.'],
    ] as const) {
      const response = await call('GET', url);
      assert.equal(response.statusCode, 400, `${url}: ${response.body}`);
      assert.deepEqual(Object.keys(response.json().errors), [parameter], url);
      if (message) assert.deepEqual(response.json().errors[parameter], [message], url);
    }
    // Every problem of a body in one answer.
    const accept = await call('POST', `${API}/assets/organizations/${suggestion['id']}/accept_suggestion/`, { link_to: 'nope', merge: true });
    assert.equal(accept.statusCode, 400, accept.body);
    assert.deepEqual(accept.json().errors, { link_to: ['Must be the id of a record.'], merge: ['Unknown field.'] });
    for (const body of [[], 5]) {
      const response = await call('POST', `${API}/assets/organizations/${suggestion['id']}/accept_suggestion/`, body);
      assert.equal(response.statusCode, 400, JSON.stringify(body));
    }
    const reject = await call('POST', `${API}/assets/organizations/${suggestion['id']}/reject_suggestion/`, { reason: 'dull', again: 1 });
    assert.deepEqual(reject.json().errors, { reason: ['Unknown field.'], again: ['Unknown field.'] });
    // A NUL is named wherever it is.
    const nul = ['Must not contain the NUL character (U+0000).'];
    assert.deepEqual((await call('GET', `${API}/suggested-entities/organizations/?search=a%00b`)).json().errors, { search: nul });
    assert.deepEqual((await call('GET', `${API}/suggested-entities/organizations/a%00b/`)).json().errors, { id: nul });
    assert.deepEqual((await call('GET', `${API}/assets/organizations/count/?status=a%00b`)).json().errors, { status: nul });
    assert.deepEqual((await call('POST', `${API}/assets/organizations/${suggestion['id']}/accept_suggestion/`, { link_to: 'a\u0000b' })).json().errors, { link_to: nul });
    assert.deepEqual((await call('PATCH', `${API}/suggested-entities/organizations/${suggestion['id']}/`, { name_dba: 'a\u0000b' })).json().errors, { name_dba: nul });
    // Nothing of it was written: the suggestion is still there, as it was.
    const still = await call('GET', `${API}/suggested-entities/organizations/${suggestion['id']}/`);
    assert.equal(still.statusCode, 200);
    assert.equal(still.json().name_dba ?? null, null);
    assert.equal((await call('POST', `${API}/assets/organizations/${suggestion['id']}/reject_suggestion/`, {})).statusCode, 204, 'an empty object is no body at all');
  });

  it('delete: a suggestion goes without a trace in the review memory', async () => {
    const suggestion = (await suggest('PER', { name_legal: 'Platypus Brown' }, [found('Platypus Brown')]))!;
    assert.equal((await call('DELETE', `${API}/suggested-entities/people/${suggestion['id']}/`)).statusCode, 204);
    assert.equal((await call('GET', `${API}/suggested-entities/people/${suggestion['id']}/`)).statusCode, 404);
    assert.ok(await suggest('PER', { name_legal: 'Platypus Brown' }, [found('Platypus Brown')]));
  });

  it('accept with link_to is undoable for a resource that is not mergeable otherwise (ledger entries)', async () => {
    const entry = await call('POST', `${API}/assets/ledger/`, { caption: 'Quoll Capital raises $2m', visibility: 'public' });
    assert.equal(entry.statusCode, 201, entry.body);
    const suggestion = (await suggest('MONEY', { caption: 'Quoll raises $2m', symbol: 'QUOL' }, [found('Quoll raises $2m', otherItem)]))!;
    const linked = await call('POST', `${API}/assets/ledger/${suggestion['id']}/accept_suggestion/`, { link_to: entry.json().id });
    assert.equal(linked.statusCode, 200, linked.body);
    assert.equal(linked.json().symbol, 'QUOL');
    const mergeId = await undoFold('ledger', entry.json().id, String(suggestion['id']));
    assert.equal((await call('GET', `${API}/assets/ledger/${entry.json().id}/`)).json().symbol, null);
    assert.equal((await call('POST', `${API}/assets/ledger/merge/${mergeId}/undo/`)).statusCode, 409, 'undone once');
    assert.equal((await call('DELETE', `${API}/suggested-entities/ledger/${suggestion['id']}/`)).statusCode, 204);
  });

  it('provenance the table cannot hold is fitted to it, and a source it cannot name is a 400', async () => {
    const long = `${'a'.repeat(1_999)}😀${'b'.repeat(600)}`;
    const suggestion = (await suggest('ORG', { name_inc: 'Bandicoot Metals' }, [
      { source: { kind: 'raw_data', id: rawItem }, snippet: long, start: 30, end: 10, mentions: 0 },
      { source: { kind: 'raw_data', id: otherItem }, snippet: 'short', start: -1, end: 5, mentions: 2.5 },
    ]))!;
    const entries = (suggestion['provenance'] as Array<Record<string, unknown>>).map((entry) => [
      [...String(entry['snippet'])].length, String(entry['snippet']).endsWith('😀'), entry['start_offset'], entry['end_offset'], entry['mention_count'],
    ]).sort((a, b) => Number(b[0]) - Number(a[0]));
    assert.deepEqual(entries, [[2_000, true, null, null, 1], [5, false, null, null, 2]]);
    for (const source of [{ kind: '', id: rawItem }, { kind: 'k'.repeat(51), id: rawItem }, { kind: 'raw_data', id: 'nope' }]) {
      await assert.rejects(suggest('ORG', { name_inc: 'Bandicoot Metals Two' }, [{ source, snippet: 'x' }]), (error: Error & { statusCode?: number }) =>
        error.statusCode === 400 && /provenance/.test((error as Error & { detail?: string }).detail ?? error.message), JSON.stringify(source));
    }
    assert.equal((await call('GET', `${API}/suggested-entities/organizations/?search=bandicoot`)).json().count, 1, 'nothing half written');
  });
  it('a raw data item deleted while its processing writes suggestions takes them: the delete waits for the item, then reads what was written (PostgreSQL server)', async () => {
    const created = await call('POST', `${API}/raw-data/`, { text: 'Bilby Freight Ltd moved to Darwin.' });
    assert.equal(created.statusCode, 201, created.body);
    const item = created.json().id as ReturnType<typeof randomUUID>;
    const { first, second } = await whileHeld(
      t.db,
      { tenantId: acme.id },
      // As processing's last step: the item's row locked, then a suggestion from it written.
      async (tx) => {
        await query(tx, sql`SELECT 1 FROM raw_data WHERE id = ${item} FOR UPDATE`);
        return t.engine.reviews.byTypeCode('ORG').suggest({ tx, actor: systemActor(acme.id) }, { name_inc: 'Bilby Freight Ltd' }, [found('Bilby Freight Ltd moved', item)]);
      },
      () => call('DELETE', `${API}/raw-data/${item}/`),
    );
    assert.equal(second.statusCode, 204, second.body);
    assert.ok(first);
    const left = await call('GET', `${API}/suggested-entities/organizations/${first['id']}/`);
    assert.equal(left.statusCode, 404, `the suggestion only the deleted item made is gone: ${left.body}`);
  });
});
