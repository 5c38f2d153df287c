/**
 * Notes, mentions and the activity timeline (docs/notes.md), through the API on two tenants
 * and as every audience: who reads and writes notes, author-only edits, mention checks, the
 * personal event a mention sends (to that teammate only), the timeline's order, paging and
 * restricted-field hiding, suggestions accepted into a record, and notes deleted with their
 * record.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { publish } from '../../events/bus.ts';
import { inTenant, systemActor } from '../../resources/context.ts';
import type { TenantRow } from '../../tenancy/tenants.repository.ts';
import { openEventStream, type EventStreamClient } from '../../test/sse-client.ts';
import { createTestApp, hostOf, type TestContext } from '../../test/test-app.ts';

const API = '/api/v1';
const ORGS = `${API}/assets/organizations`;

describe('notes and activity', () => {
  let t: TestContext;
  let acme: TenantRow;
  let beta: TenantRow;
  let port: number;
  const tokens: Record<string, string | undefined> = {};
  const ids: Record<string, string> = {};

  before(async () => {
    t = await createTestApp();
    acme = await t.createTenant('acme');
    beta = await t.createTenant('beta');
    const users: Array<[string, TenantRow, string, { is_admin?: boolean; is_research?: boolean; disabled?: boolean }]> = [
      ['admin', acme, 'admin@acme.test', { is_admin: true }],
      ['research', acme, 'research@acme.test', { is_research: true }],
      ['mate', acme, 'mate@acme.test', { is_research: true }],
      ['paywall', acme, 'reader@acme.test', {}],
      ['beta', beta, 'research@beta.test', { is_research: true }],
    ];
    for (const [name, tenant, email, roles] of users) {
      ids[name] = (await t.createUser(tenant, email, roles)).id;
      tokens[name] = await t.login(tenant, email);
    }
    ids['disabled'] = (await t.createUser(acme, 'gone@acme.test', { is_research: true, disabled: true })).id;
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });
  after(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, role?: string, payload?: unknown, tenant = acme) =>
    t.request(tenant, { method, url, ...(role ? { token: tokens[role] } : {}), ...(payload === undefined ? {} : { payload: payload as object }) });
  const createOrg = async (name: string, role = 'research', tenant = acme) => {
    const response = await call('POST', `${ORGS}/`, role, { name_inc: name, visibility: 'public' }, tenant);
    assert.equal(response.statusCode, 201, response.body);
    return response.json().id as string;
  };
  const note = async (record: string, body: string, role = 'research', mentions: string[] = []) => {
    const response = await call('POST', `${API}/notes/`, role, { record, body, mentions });
    assert.equal(response.statusCode, 201, response.body);
    return response.json();
  };
  const activity = (record: string, role: string, query = '', base = ORGS) => call('GET', `${base}/${record}/activity/${query}`, role);

  describe('who may read and write notes', () => {
    it('research users and admins only; visitors 401, paywall readers 403', async () => {
      const org = await createOrg('Audience Co');
      const made = await note(org, 'Met them at **the fair**.');
      assert.equal(made.body, 'Met them at **the fair**.');
      assert.deepEqual(made.record, { id: org, display_name: 'Audience Co', kind: 'organizations' });
      assert.equal(made.author.email, 'research@acme.test');
      for (const url of [`${API}/notes/`, `${API}/notes/${made.id}/`, `${API}/notes/?record=${org}`, `${ORGS}/${org}/activity/`, `${API}/notes/teammates/`]) {
        assert.equal((await call('GET', url)).statusCode, 401, `visitor ${url}`);
        assert.equal((await call('GET', url, 'paywall')).statusCode, 403, `paywall ${url}`);
        assert.equal((await call('GET', url, 'research')).statusCode, 200, `research ${url}`);
        assert.equal((await call('GET', url, 'admin')).statusCode, 200, `admin ${url}`);
      }
      // What the engine derives for every resource works for notes too.
      for (const url of [`${API}/notes/available-filters/`, `${API}/notes/?format=xlsx`, `${API}/notes/${made.id}/history/`]) {
        const response = await call('GET', url, 'admin');
        assert.equal(response.statusCode, 200, `${url}: ${response.body.slice(0, 200)}`);
      }
      assert.equal((await call('POST', `${API}/notes/upload/`, 'research')).statusCode, 404, 'no spreadsheet import of notes');
      assert.equal((await call('POST', `${API}/notes/`, 'paywall', { record: org, body: 'x' })).statusCode, 403);
      assert.equal((await call('POST', `${API}/notes/`, undefined, { record: org, body: 'x' })).statusCode, 401);
    });

    it("another tenant sees none of them, and may not note this tenant's records", async () => {
      const org = await createOrg('Isolated Co');
      const made = await note(org, 'Private to acme.');
      assert.equal((await call('GET', `${API}/notes/${made.id}/`, 'beta', undefined, beta)).statusCode, 404);
      const listed = await call('GET', `${API}/notes/?record=${org}`, 'beta', undefined, beta);
      assert.equal(listed.statusCode, 200);
      assert.equal(listed.json().count, 0);
      const onOurs = await call('POST', `${API}/notes/`, 'beta', { record: org, body: 'hello' }, beta);
      assert.equal(onOurs.statusCode, 400);
      assert.ok(onOurs.json().errors.record, onOurs.body);
      assert.equal((await call('GET', `${ORGS}/${org}/activity/`, 'beta', undefined, beta)).statusCode, 404);
    });

    it('refuses bad input with a 400 naming the field, writing nothing', async () => {
      const org = await createOrg('Input Co');
      const cases: Array<[unknown, string]> = [
        [{ record: org }, 'body'],
        [{ record: org, body: '   ' }, 'body'],
        [{ record: org, body: 'x'.repeat(10_001) }, 'body'],
        [{ record: org, body: '<script>alert(1)</script>' }, 'body'],
        [{ body: 'no record' }, 'record'],
        [{ record: randomUUID(), body: 'unknown record' }, 'record'],
        [{ record: org, body: 'x', mentions: 'someone' }, 'mentions'],
        [{ record: org, body: 'x', mentions: ['not-a-uuid'] }, 'mentions'],
        [{ record: org, body: 'x', color: 'red' }, 'color'],
        [{ record: org, body: 'nul \u0000 inside' }, 'body'],
        [{ record: org, body: 'x', mentions: ['\u0000'] }, 'mentions'],
      ];
      for (const [payload, field] of cases) {
        const response = await call('POST', `${API}/notes/`, 'research', payload);
        assert.equal(response.statusCode, 400, `${JSON.stringify(payload).slice(0, 80)}: ${response.body}`);
        assert.ok(response.json().errors?.[field], `${field} named: ${response.body}`);
      }
      assert.equal((await call('GET', `${API}/notes/?record=${org}`, 'research')).json().count, 0);
    });

    it('only the author edits a note; the author or an admin deletes it; the record never changes', async () => {
      const org = await createOrg('Ownership Co');
      const other = await createOrg('Elsewhere Co');
      const made = await note(org, 'First words.');
      const edited = await call('PATCH', `${API}/notes/${made.id}/`, 'research', { body: 'Better words.' });
      assert.equal(edited.statusCode, 200, edited.body);
      assert.equal(edited.json().body, 'Better words.');
      const moved = await call('PATCH', `${API}/notes/${made.id}/`, 'research', { record: other });
      assert.equal(moved.statusCode, 400);
      assert.ok(moved.json().errors.record);
      for (const role of ['mate', 'admin']) {
        const response = await call('PATCH', `${API}/notes/${made.id}/`, role, { body: 'Not mine.' });
        assert.equal(response.statusCode, 403, `${role}: ${response.body}`);
      }
      assert.equal((await call('DELETE', `${API}/notes/${made.id}/`, 'mate')).statusCode, 403);
      assert.equal((await call('GET', `${API}/notes/${made.id}/`, 'research')).json().body, 'Better words.');
      assert.equal((await call('DELETE', `${API}/notes/${made.id}/`, 'admin')).statusCode, 204);
      const own = await note(org, 'Mine to delete.', 'mate');
      assert.equal((await call('DELETE', `${API}/notes/${own.id}/`, 'mate')).statusCode, 204);
      const bulk = await note(org, 'Bulk delete by another.', 'mate');
      const refused = await call('POST', `${API}/notes/bulk/`, 'research', { action: 'delete', ids: [bulk.id] });
      assert.ok([403, 409].includes(refused.statusCode), refused.body);
      assert.equal((await call('GET', `${API}/notes/${bulk.id}/`, 'research')).statusCode, 200);
    });
  });

  describe('mentions', () => {
    it('takes research users and admins of the tenant; anyone else is a 400 naming mentions', async () => {
      const org = await createOrg('Mention Co');
      const made = await note(org, '@mate and @admin, look.', 'research', [ids['mate']!, ids['admin']!]);
      assert.deepEqual(made.mentions.sort(), [ids['mate'], ids['admin']].sort());
      assert.deepEqual(made.mentioned.map((user: { email: string }) => user.email).sort(), ['admin@acme.test', 'mate@acme.test']);
      for (const who of [ids['paywall'], ids['beta'], ids['disabled'], randomUUID()]) {
        const response = await call('POST', `${API}/notes/`, 'research', { record: org, body: 'x', mentions: [ids['mate'], who] });
        assert.equal(response.statusCode, 400, response.body);
        assert.match(response.json().errors.mentions[0], /not a teammate/);
        assert.deepEqual(response.json().item_errors.mentions.map((item: { index: number }) => item.index), [1]);
      }
      const edit = await call('PATCH', `${API}/notes/${made.id}/`, 'research', { mentions: [ids['paywall']] });
      assert.equal(edit.statusCode, 400);
      assert.ok(edit.json().errors.mentions);
    });

    it('keeps a mention of a teammate disabled since, but refuses to add one', async () => {
      const org = await createOrg('Leaver Co');
      const leaver = (await t.createUser(acme, 'leaver@acme.test', { is_research: true })).id;
      const made = await note(org, 'Ask @leaver.', 'research', [leaver]);
      await t.db.withTenant({ tenantId: acme.id }, (tx) => tx.execute(sql`UPDATE users SET disabled = true WHERE id = ${leaver}`));
      const kept = await call('PATCH', `${API}/notes/${made.id}/`, 'research', { body: 'Ask @leaver, or not.', mentions: [leaver] });
      assert.equal(kept.statusCode, 200, kept.body);
      const added = await call('POST', `${API}/notes/`, 'research', { record: org, body: 'Ask @leaver again.', mentions: [leaver] });
      assert.equal(added.statusCode, 400);
      assert.ok(added.json().errors.mentions);
    });

    it('lists the teammates one may mention: research users and admins, not readers, the disabled or another tenant', async () => {
      const response = await call('GET', `${API}/notes/teammates/`, 'research');
      assert.equal(response.statusCode, 200);
      const emails = response.json().results.map((user: { email: string }) => user.email).sort();
      assert.deepEqual(emails, ['admin@acme.test', 'mate@acme.test', 'research@acme.test']);
      assert.equal((await call('GET', `${API}/notes/teammates/?x=1`, 'research')).statusCode, 400);
    });

    it('sends the mentioned teammate, and only them, a note_mention event', async () => {
      const org = await createOrg('Event Co');
      const open = (role: string) => openEventStream(port, hostOf(acme), { token: tokens[role] });
      const streams: Record<string, EventStreamClient> = { mate: await open('mate'), admin: await open('admin'), research: await open('research') };
      try {
        for (const stream of Object.values(streams)) assert.equal(stream.status, 200);
        const made = await note(org, 'Ping @mate.', 'research', [ids['mate']!, ids['research']!]);
        // A channel event after it: every stream receives that one, so what each got before it is all it got.
        const marker = { id: randomUUID(), processing_status: 'processing', updated_at: new Date().toISOString() };
        await inTenant(t.db, systemActor(acme.id), (ctx) => publish(ctx, 'raw_data_update', marker));
        const mention = await streams['mate']!.next();
        assert.equal(mention.event, 'note_mention');
        assert.equal(mention.data.id, made.id);
        assert.deepEqual(mention.data.record, { kind: 'organizations', id: org, display_name: 'Event Co' });
        assert.equal(mention.data.by, 'research@acme.test');
        assert.equal((await streams['mate']!.next()).event, 'raw_data_update');
        // The admin is not mentioned; the author mentioned themselves, which notifies nobody.
        for (const role of ['admin', 'research']) {
          const first = await streams[role]!.next();
          assert.equal(first.event, 'raw_data_update', `${role} got ${first.event}`);
          assert.equal(first.data.id, marker.id);
        }
        // An edit that keeps the mention does not notify again; one that adds the admin notifies the admin.
        await call('PATCH', `${API}/notes/${made.id}/`, 'research', { body: 'Ping @mate and @admin.', mentions: [ids['mate'], ids['admin']] });
        const added = await streams['admin']!.next();
        assert.equal(added.event, 'note_mention');
        await inTenant(t.db, systemActor(acme.id), (ctx) => publish(ctx, 'raw_data_update', { ...marker, id: randomUUID() }));
        assert.equal((await streams['mate']!.next()).event, 'raw_data_update');
      } finally {
        for (const stream of Object.values(streams)) stream.close();
        await Promise.all(Object.values(streams).map((stream) => stream.ended));
      }
    });
  });

  describe('the activity timeline', () => {
    it('merges edits and comments newest first, and pages them', async () => {
      const org = await createOrg('Timeline Co');
      assert.equal((await call('PATCH', `${ORGS}/${org}/`, 'research', { hq_city: 'Berlin' })).statusCode, 200);
      const first = await note(org, 'First comment.');
      assert.equal((await call('PATCH', `${ORGS}/${org}/`, 'admin', { hq_city: 'Paris' })).statusCode, 200);
      const second = await note(org, 'Second comment.', 'mate');
      const response = await activity(org, 'research');
      assert.equal(response.statusCode, 200, response.body);
      const page = response.json();
      assert.equal(page.count, 5);
      assert.deepEqual(page.results.map((item: { type: string }) => item.type), ['comment', 'edit', 'comment', 'edit', 'edit']);
      assert.equal(page.results[0].note.id, second.id);
      assert.equal(page.results[0].note.author.email, 'mate@acme.test');
      assert.deepEqual(page.results[1].entry.changes.hq_city, { from: 'Berlin', to: 'Paris' });
      assert.equal(page.results[1].entry.user_email, 'admin@acme.test');
      assert.equal(page.results[2].note.id, first.id);
      assert.equal(page.results[4].entry.action, 'create');
      const times = page.results.map((item: { at: string }) => item.at);
      assert.deepEqual([...times].sort().reverse(), times, 'newest first');

      const paged = (await activity(org, 'research', '?limit=2&offset=2')).json();
      assert.equal(paged.count, 5);
      assert.deepEqual(paged.results.map((item: { id: string }) => item.id), page.results.slice(2, 4).map((item: { id: string }) => item.id));
      assert.match(paged.next, /offset=4/);
      const past = (await activity(org, 'research', '?offset=50')).json();
      assert.deepEqual([past.count, past.results.length], [5, 0]);
      assert.equal((await activity(org, 'research', '?limit=0')).statusCode, 400);
      assert.equal((await activity(org, 'research', '?colour=1')).statusCode, 400);
      assert.equal((await activity('not-an-id', 'research')).statusCode, 400);
      assert.equal((await activity(randomUUID(), 'research')).statusCode, 404);
      assert.equal((await activity(org, 'research', '?limit=%00')).statusCode, 400);
      assert.equal((await call('GET', `${API}/notes/teammates/?search=%00`, 'research')).statusCode, 400);
    });

    it("hides changes of fields the viewer may not read (an investment's admin notes from a research user)", async () => {
      const entry = await call('POST', `${API}/assets/ledger/`, 'research', { caption: 'Deal One', visibility: 'public' });
      assert.equal(entry.statusCode, 201, entry.body);
      const investment = await call('POST', `${API}/assets/investments/`, 'admin', { ledger_entry: entry.json().id, admin_notes: 'Secret terms.', inv_risk: 'low' });
      assert.equal(investment.statusCode, 201, investment.body);
      const id = investment.json().id;
      assert.equal((await call('PATCH', `${API}/assets/investments/${id}/`, 'admin', { admin_notes: 'Worse terms.' })).statusCode, 200);
      const base = `${API}/assets/investments`;
      const asAdmin = (await activity(id, 'admin', '', base)).json();
      const asResearch = (await activity(id, 'research', '', base)).json();
      assert.deepEqual(asAdmin.results.map((item: { type: string }) => item.type), ['edit', 'edit']);
      assert.deepEqual(asAdmin.results[0].entry.changes.admin_notes, { from: 'Secret terms.', to: 'Worse terms.' });
      assert.equal(asAdmin.results[1].entry.changes.admin_notes.to, 'Secret terms.');
      assert.equal(asResearch.count, 2, 'the edit is there');
      assert.deepEqual(asResearch.results[0].entry.changes, {}, 'without what changed');
      assert.equal(asResearch.results[1].entry.changes.inv_risk.to, 'low');
      assert.equal(asResearch.results[1].entry.changes.admin_notes, undefined);
      assert.doesNotMatch(JSON.stringify(asResearch), /Secret terms|Worse terms/);
    });

    it('shows a suggestion accepted as the record, and one merged into it, with their sources', async () => {
      const source = randomUUID();
      const suggest = (name: string, snippet: string) =>
        inTenant(t.db, systemActor(acme.id), (ctx) => t.engine.reviews.byTypeCode('ORG').suggest(ctx, { name_inc: name }, [{ source: { kind: 'raw_data', id: source }, snippet }]));
      const suggested = (await suggest('Suggested Co', 'Suggested Co raised money'))!;
      const accepted = await call('POST', `${ORGS}/${suggested['id']}/accept_suggestion/`, 'research', {});
      assert.equal(accepted.statusCode, 200, accepted.body);
      const twin = (await suggest('Suggested Company', 'Suggested Company hired'))!;
      const merged = await call('POST', `${ORGS}/${twin['id']}/accept_suggestion/`, 'research', { link_to: suggested['id'] });
      assert.equal(merged.statusCode, 200, merged.body);
      const page = (await activity(String(suggested['id']), 'research')).json();
      const suggestions = page.results.filter((item: { type: string }) => item.type === 'suggestion');
      assert.deepEqual(suggestions.map((item: { suggestion: { how: string } }) => item.suggestion.how), ['merged', 'accepted']);
      assert.deepEqual(suggestions[0].suggestion.sources.map((found: { snippet: string }) => found.snippet), ['Suggested Company hired']);
      assert.deepEqual(suggestions[1].suggestion.sources.map((found: { snippet: string }) => found.snippet), ['Suggested Co raised money']);
      assert.equal(suggestions[1].suggestion.sources[0].source_id, source);
      assert.equal(page.results.at(-1).type, 'edit', 'created as a suggestion first');
    });
  });

  describe('a deleted record', () => {
    it('takes its notes with it, and they leave its timeline', async () => {
      const org = await createOrg('Doomed Co');
      const made = await note(org, 'About to go.');
      const kept = await note(await createOrg('Survivor Co'), 'Stays.');
      assert.equal((await call('DELETE', `${ORGS}/${org}/`, 'research')).statusCode, 204);
      assert.equal((await call('GET', `${API}/notes/${made.id}/`, 'admin')).statusCode, 404);
      assert.equal((await call('GET', `${API}/notes/?record=${org}`, 'admin')).json().count, 0);
      assert.equal((await call('GET', `${API}/notes/${kept.id}/`, 'admin')).statusCode, 200);
      assert.equal((await activity(org, 'admin')).statusCode, 404);
      const history = (await call('GET', `${API}/notes/${made.id}/history/`, 'admin')).json().results;
      assert.equal(history[0].action, 'delete', 'the audit log keeps the note');
    });

    it("moves a merged record's notes to the survivor", async () => {
      const survivor = await createOrg('Merge Keep Co');
      const other = await createOrg('Merge Gone Co');
      const made = await note(other, 'On the duplicate.');
      const merged = await call('POST', `${ORGS}/${survivor}/merge/`, 'research', { other });
      assert.equal(merged.statusCode, 200, merged.body);
      assert.equal((await call('GET', `${API}/notes/${made.id}/`, 'research')).json().record.id, survivor);
      const page = (await activity(survivor, 'research')).json();
      assert.ok(page.results.some((item: { type: string; id: string }) => item.type === 'comment' && item.id === made.id));
    });
  });
});
