/**
 * The email list over HTTP (docs/emails.md): paste and parse, the engine's list, edit and
 * delete of items, domains and their exact counts, the typeahead, the asset lookup, access and
 * tenant isolation.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { query } from '../../db/client.ts';
import type { TenantRow } from '../../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from '../../test/test-app.ts';
import { multipart } from '../../test/multipart.ts';
import { whileHeld } from '../../test/races.ts';
import { extractAddresses } from './email-extract.ts';
import { systemActor } from '../../resources/context.ts';

const BASE = '/api/v1/dxlist';

describe('email list API', () => {
  let t: TestContext;
  let acme: TenantRow;
  let beta: TenantRow;
  let tokens: Record<string, string | undefined>;

  before(async () => {
    t = await createTestApp();
    ({ acme, beta, tokens } = await t.signInTwoTenants());
  });
  after(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, token: string | null | undefined = tokens['research'], tenant = acme) =>
    t.request(tenant, { method, url, ...(token ? { token } : {}), ...(payload ? { payload } : {}) });
  const parse = (rawText: string, token = tokens['research'], tenant = acme) => call('POST', `${BASE}/bulk_create/parse_text/`, { raw_text: rawText }, token, tenant);
  /** Every domain's cleaned_emails_count against a count of its items, read as the database's owner. */
  const countsDrift = async (tenant = acme) =>
    query<{ domain: string; kept: number; actual: number }>(
      t.db.owner,
      sql`SELECT d.domain, d.cleaned_emails_count AS kept, (SELECT count(*)::int FROM email_list l WHERE l.domain = d.id AND l.tenant_id = d.tenant_id) AS actual
          FROM email_domains d WHERE d.tenant_id = ${tenant.id}
            AND d.cleaned_emails_count <> (SELECT count(*) FROM email_list l WHERE l.domain = d.id AND l.tenant_id = d.tenant_id)`,
    );
  /** Empties the tenant's list as the app does (row-level security, counters and triggers alike). */
  const clearList = (tenant = acme) => t.db.withTenant({ tenantId: tenant.id }, (tx) => tx.execute(sql`DELETE FROM email_list`));

  describe('paste and parse', () => {
    it('creates every address found, with its name, domain and place in the text', async () => {
      const text = 'From: "Lee, Ann" <Ann.Lee@Example.COM>\nTo: bob [at] example [dot] com, info@münchen.de\nbroken@nowhere and again ann.lee@example.com';
      const response = await parse(text);
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json();
      // Case does not tell addresses apart (docs/emails.md): ann.lee@ repeats Ann.Lee@.
      assert.deepEqual(body.counts, { found: 4, created: 3, duplicates: 1, invalid: 1 });
      const created = body.created as Array<Record<string, unknown> & { start: number; end: number; line: number }>;
      assert.deepEqual(created.map((item) => [item['email'], item['name'], item['source'], item.line]), [
        ['ann.lee@example.com', 'Lee, Ann', 'pasted', 1],
        ['bob@example.com', null, 'pasted', 2],
        ['info@münchen.de', null, 'pasted', 2],
      ]);
      assert.equal(text.slice(created[1]!.start, created[1]!.end), 'bob [at] example [dot] com');
      assert.equal(created[2]!['is_role'], true);
      assert.deepEqual((created[2]!['domain'] as { display_name: string }).display_name, 'münchen.de');
      assert.deepEqual(body.invalid.map((item: { text: string; line: number }) => [item.text, item.line]), [['broken@nowhere', 3]]);
      assert.deepEqual(body.duplicates.map((item: { email: string; reason: string; line: number }) => [item.email, item.reason, item.line]), [['ann.lee@example.com', 'repeated in the text', 3]]);
    });

    it('reports duplicates of the list and of the text, with the existing item', async () => {
      await clearList();
      const first = (await parse('one@dup.example')).json();
      const existingId = first.created[0].id;
      const body = (await parse('one@dup.example two@dup.example two@dup.example Two <two@dup.example>')).json();
      assert.deepEqual(body.counts, { found: 4, created: 1, duplicates: 3, invalid: 0 });
      const twoId = body.created[0].id;
      assert.deepEqual(body.duplicates.map((item: { email: string; reason: string; existing_id: string; name: string | null }) => [item.email, item.reason, item.existing_id, item.name]), [
        ['one@dup.example', 'already in the list', existingId, null],
        ['two@dup.example', 'repeated in the text', twoId, null],
        ['two@dup.example', 'repeated in the text', twoId, 'Two'],
      ]);
      // The name found beside a later repeat is kept when the first had none.
      assert.equal(body.created[0].name, 'Two');
      const domain = (await call('GET', `${BASE}/domains/?search=dup.example`)).json().results[0];
      assert.equal(domain.cleaned_emails_count, 2);
    });

    it('adds a domain once, queues its enrichment in the same transaction, and counts it exactly', async () => {
      await clearList();
      const before = await query<{ n: number }>(t.db.owner, sql`SELECT count(*)::int AS n FROM jobs WHERE tenant_id = ${acme.id} AND name = 'dxlist.enrich_domain'`);
      const body = (await parse('a@count.example b@count.example c@count.example x@other-count.example')).json();
      assert.equal(body.counts.created, 4);
      const after = await query<{ n: number }>(t.db.owner, sql`SELECT count(*)::int AS n FROM jobs WHERE tenant_id = ${acme.id} AND name = 'dxlist.enrich_domain'`);
      assert.equal(after[0]!.n - before[0]!.n, 2, 'one job per new domain');
      const domains = (await call('GET', `${BASE}/domains/`)).json();
      const byName = new Map(domains.results.map((row: { domain: string; cleaned_emails_count: number }) => [row.domain, row.cleaned_emails_count]));
      assert.equal(byName.get('count.example'), 3);
      assert.equal(byName.get('other-count.example'), 1);
      assert.equal(domains.results[0].domain, 'count.example', 'ordered by -cleaned_emails_count');
      const oneItem = body.created.find((item: { email: string }) => item.email === 'a@count.example');
      assert.equal((await call('DELETE', `${BASE}/${oneItem.id}/`)).statusCode, 204);
      const moved = body.created.find((item: { email: string }) => item.email === 'b@count.example');
      const patched = await call('PATCH', `${BASE}/${moved.id}/`, { email: 'b@other-count.example' });
      assert.equal(patched.statusCode, 200, patched.body);
      assert.equal(patched.json().domain.display_name, 'other-count.example');
      const again = new Map((await call('GET', `${BASE}/domains/`)).json().results.map((row: { domain: string; cleaned_emails_count: number }) => [row.domain, row.cleaned_emails_count]));
      assert.equal(again.get('count.example'), 1);
      assert.equal(again.get('other-count.example'), 2);
      assert.deepEqual(await countsDrift(), []);
    });

    it('refuses a text over 1 MB with a 413 naming raw_text, and a NUL byte with a 400 naming it; nothing is written', async () => {
      await clearList();
      const big = await parse(`a@big.example ${'x'.repeat(1_048_576)}`);
      assert.equal(big.statusCode, 413);
      assert.deepEqual(Object.keys(big.json().errors), ['raw_text']);
      // Past even the body limit of the route (JSON escapes counted), still named.
      const huge = await parse('\u0001'.repeat(1_300_000));
      assert.equal(huge.statusCode, 413);
      assert.deepEqual(Object.keys(huge.json().errors), ['raw_text']);
      const nul = await parse('a@nul.example\u0000b@nul.example');
      assert.equal(nul.statusCode, 400);
      assert.deepEqual(Object.keys(nul.json().errors), ['raw_text']);
      assert.equal((await call('GET', `${BASE}/`)).json().count, 0);
      const missing = await call('POST', `${BASE}/bulk_create/parse_text/`, { text: 'a@b.example' });
      assert.equal(missing.statusCode, 400);
    });

    it('takes 10,000 addresses in one paste, in one transaction', async () => {
      await clearList();
      const text = Array.from({ length: 10_000 }, (_, index) => `P${index} <p${index}@bulk${index % 50}.example>`).join('\n');
      const response = await parse(text);
      assert.equal(response.statusCode, 200);
      const body = response.json();
      assert.equal(body.counts.created, 10_000);
      assert.equal(body.created[9_999].line, 10_000);
      assert.equal((await call('GET', `${BASE}/?limit=50`)).json().count, 10_000);
      assert.deepEqual(await countsDrift(), []);
      const counts = (await call('GET', '/api/v1/tools/entities-count/', undefined, tokens['admin'])).json();
      assert.equal(counts.emails.hidden_count, 10_000);
      assert.ok(counts.domains.hidden_count >= 50);
      const history = (await call('GET', `${BASE}/${body.created[0].id}/history/`, undefined, tokens['admin'])).json();
      assert.equal(history.results[0].action, 'create');
      assert.equal(history.results[0].changes.email.to, body.created[0].email);
    });

    it('two parses of the same text at once create each address once', async () => {
      await clearList();
      const text = Array.from({ length: 300 }, (_, index) => `same${index}@race${index % 7}.example`).join(' ');
      const [one, two] = await Promise.all([parse(text), parse(text)]);
      assert.equal(one.statusCode, 200);
      assert.equal(two.statusCode, 200);
      const created = one.json().counts.created + two.json().counts.created;
      assert.equal(created, 300);
      assert.equal(one.json().counts.duplicates + two.json().counts.duplicates, 300);
      const rows = await query<{ n: number }>(t.db.owner, sql`SELECT count(*)::int AS n FROM email_list WHERE tenant_id = ${acme.id}`);
      assert.equal(rows[0]!.n, 300);
      assert.deepEqual(await countsDrift(), []);
    });

    it('a parse waiting for another that holds the same addresses takes them as duplicates', async () => {
      await clearList();
      const service = t.engine.emailList;
      const text = 'held1@held.example held2@held.example held3@hold-other.example';
      const { first, second } = await whileHeld(
        t.db,
        { tenantId: acme.id },
        (tx) => service.addFound({ tx, actor: systemActor(acme.id) }, extractAddresses(text)),
        () => parse(`${text} extra@held.example`),
      );
      assert.equal(first.counts.created, 3);
      const body = second.json();
      assert.equal(body.counts.created, 1);
      assert.deepEqual(body.duplicates.map((item: { reason: string }) => item.reason), ['already in the list', 'already in the list', 'already in the list']);
      assert.ok(body.duplicates.every((item: { existing_id: string | null }) => item.existing_id !== null));
      assert.deepEqual(await countsDrift(), []);
    });

    it('keeps counts exact under concurrent pastes, edits and deletes', async () => {
      await clearList();
      const seed = (await parse(Array.from({ length: 60 }, (_, index) => `s${index}@mix${index % 3}.example`).join(' '))).json();
      const ids: string[] = seed.created.map((item: { id: string }) => item.id);
      await Promise.all([
        parse(Array.from({ length: 40 }, (_, index) => `n${index}@mix${index % 4}.example`).join(' ')),
        ...ids.slice(0, 15).map((id) => call('DELETE', `${BASE}/${id}/`)),
        ...ids.slice(15, 25).map((id, index) => call('PATCH', `${BASE}/${id}/`, { email: `moved${index}@mix3.example` })),
        call('POST', `${BASE}/bulk/`, { action: 'delete', ids: ids.slice(25, 35) }),
        parse(Array.from({ length: 40 }, (_, index) => `n${index}@mix${index % 4}.example`).join(' ')),
      ]);
      assert.deepEqual(await countsDrift(), []);
    });
  });

  describe('the engine\'s list, edits and domains', () => {
    it('lists newest first, searches, filters, and offers the filters', async () => {
      await clearList();
      await parse('info@filters.example');
      await parse('ann@gmail.com');
      await parse('Bob Stone <bob@filters.example>');
      const list = (await call('GET', `${BASE}/?limit=50`)).json();
      assert.deepEqual(list.results.map((row: { email: string }) => row.email), ['bob@filters.example', 'ann@gmail.com', 'info@filters.example']);
      assert.deepEqual((await call('GET', `${BASE}/?search=stone`)).json().results.map((row: { email: string }) => row.email), ['bob@filters.example']);
      assert.deepEqual((await call('GET', `${BASE}/?is_role=true`)).json().results.map((row: { email: string }) => row.email), ['info@filters.example']);
      assert.deepEqual((await call('GET', `${BASE}/?is_free_mail=true`)).json().results.map((row: { email: string }) => row.email), ['ann@gmail.com']);
      assert.deepEqual((await call('GET', `${BASE}/?source=pasted&subscription=none`)).json().count, 3);
      const filters = (await call('GET', `${BASE}/available-filters/`)).json().filters.map((filter: { name: string }) => filter.name);
      for (const name of ['domain', 'source', 'subscription', 'is_role', 'is_free_mail', 'is_disposable']) assert.ok(filters.includes(name), name);
      const domainFilters = (await call('GET', `${BASE}/domains/available-filters/`)).json().filters.map((filter: { name: string }) => filter.name);
      for (const name of ['is_free_mail', 'is_disposable', 'mx_found', 'enrichment_status']) assert.ok(domainFilters.includes(name), name);
      const domain = (await call('GET', `${BASE}/?domain=${list.results[0].domain.id}`)).json();
      assert.equal(domain.count, 2);
    });

    it('creates, edits and refuses items field by field', async () => {
      const created = await call('POST', `${BASE}/`, { email: ' Carol@Manual.EXAMPLE ', name: 'Carol' });
      assert.equal(created.statusCode, 201, created.body);
      assert.equal(created.json().email, 'carol@manual.example');
      assert.equal(created.json().source, 'manual');
      const again = await call('POST', `${BASE}/`, { email: 'Carol@MANUAL.example' });
      assert.equal(again.statusCode, 400);
      assert.deepEqual(again.json().errors, { email: ['This address is already in the list.'] });
      const noAddress = await call('POST', `${BASE}/`, { name: 'Nobody', is_role: true });
      assert.equal(noAddress.statusCode, 400);
      assert.deepEqual(noAddress.json().errors, { email: ['This field is required.'] });
      const invalid = await call('POST', `${BASE}/`, { email: 'carol@manual' });
      assert.equal(invalid.statusCode, 400);
      assert.match(invalid.json().errors.email[0], /top-level/);
      const readOnly = await call('PATCH', `${BASE}/${created.json().id}/`, { subscription: 'unsubscribed', is_role: true, notes: 'Asked by phone' });
      assert.equal(readOnly.statusCode, 200);
      assert.equal(readOnly.json().is_role, false, 'is_role is the server\'s');
      assert.equal(readOnly.json().subscription, 'unsubscribed');
      assert.ok(readOnly.json().unsubscribed_at);
      const badChoice = await call('PATCH', `${BASE}/${created.json().id}/`, { subscription: 'maybe' });
      assert.equal(badChoice.statusCode, 400);
      assert.ok(badChoice.json().errors.subscription);
    });

    it('domains: read, edited (notes, organizations), never created or deleted through their routes', async () => {
      const domain = (await call('GET', `${BASE}/domains/?search=manual.example`)).json().results[0];
      assert.equal(domain.domain, 'manual.example');
      assert.equal(domain.enrichment_status, 'pending');
      assert.equal(domain.mx_found, null);
      const org = (await call('POST', '/api/v1/assets/organizations/', { name_inc: 'Manual Ltd' })).json();
      const patched = await call('PATCH', `${BASE}/domains/${domain.id}/`, { notes: 'Our partner', organizations: [org.id], cleaned_emails_count: 99 });
      assert.equal(patched.statusCode, 200, patched.body);
      assert.equal(patched.json().notes, 'Our partner');
      assert.equal(patched.json().cleaned_emails_count, domain.cleaned_emails_count, 'the count is the server\'s');
      assert.deepEqual(patched.json().organizations.map((ref: { id: string }) => ref.id), [org.id]);
      assert.equal((await call('POST', `${BASE}/domains/`, { domain: 'new.example' })).statusCode, 404);
      assert.equal((await call('DELETE', `${BASE}/domains/${domain.id}/`)).statusCode, 404);
    });

    it('a spreadsheet import marks its rows imported, unless the sheet names their source', async () => {
      const csv = 'Email,Name,Source\r\ndana@sheet.example,Dana,\r\neli@sheet.example,Eli,subscribed\r\n';
      // Spreadsheet uploads are imported by a worker; only while this test runs (it also enriches domains, which the test above sees pending).
      const worker = await t.startWorker();
      const response = await t.request(acme, { method: 'POST', url: `${BASE}/upload/`, token: tokens['research'], ...multipart('list.csv', csv) });
      await worker.stop();
      assert.equal(response.statusCode, 200, response.body);
      const rows = (await call('GET', `${BASE}/?search=sheet.example&ordering=email`)).json().results as Array<Record<string, unknown>>;
      assert.deepEqual(rows.map((row) => [row['email'], row['source']]), [['dana@sheet.example', 'imported'], ['eli@sheet.example', 'subscribed']]);
    });
  });

  describe('typeahead and asset lookup', () => {
    it('search_input_form: addresses starting with the text first, then containing it in the address or name; ten at most', async () => {
      await clearList();
      await parse('zed@typeahead.example, Ann Zedd <ann@typeahead.example>, mazed@typeahead.example');
      await parse(Array.from({ length: 15 }, (_, index) => `many${index}@typeahead.example`).join(' '));
      const results = (await call('GET', `${BASE}/search_input_form/?query=ZED`)).json().results;
      assert.deepEqual(results.map((row: { email: string }) => row.email), ['zed@typeahead.example', 'ann@typeahead.example', 'mazed@typeahead.example']);
      assert.deepEqual(Object.keys(results[0]).sort(), ['domain', 'email', 'id', 'name']);
      assert.equal(results[0].domain.display_name, 'typeahead.example');
      assert.equal((await call('GET', `${BASE}/search_input_form/?query=many`)).json().results.length, 10);
      assert.deepEqual((await call('GET', `${BASE}/search_input_form/?query=`)).json().results, []);
      assert.deepEqual((await call('GET', `${BASE}/search_input_form/?query=%25`)).json().results, [], 'a wildcard is a character');
      assert.equal((await call('GET', `${BASE}/search_input_form/?query=a&other=1`)).statusCode, 400);
    });

    it('email-asset-lookup: organizations and people holding the address, in any of its forms', async () => {
      const orgs = '/api/v1/assets/organizations/';
      const org = (await call('POST', orgs, { name_inc: 'Lookup GmbH', emails: ['kontakt@münchen-lookup.de'] }, tokens['admin'])).json();
      const hidden = (await call('POST', orgs, { name_inc: 'Hidden Org', emails: ['kontakt@xn--mnchen-lookup-wob.de'], visibility: 'hidden' }, tokens['admin'])).json();
      const person = (await call('POST', '/api/v1/assets/people/', { name_given: 'Karl', emails: ['kontakt@münchen-lookup.de'] }, tokens['admin'])).json();
      const response = await call('GET', `${BASE}/email-asset-lookup/?email=${encodeURIComponent('Kontakt@MÜNCHEN-lookup.de')}`);
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json();
      assert.equal(body.email, 'kontakt@münchen-lookup.de');
      assert.deepEqual(body.organizations.map((row: { id: string }) => row.id).sort(), [org.id, hidden.id].sort());
      assert.deepEqual(body.people.map((row: { id: string }) => row.id), [person.id]);
      const bad = await call('GET', `${BASE}/email-asset-lookup/?email=nobody`);
      assert.equal(bad.statusCode, 400);
      assert.deepEqual(Object.keys(bad.json().errors), ['email']);
    });
  });

  describe('access and tenants', () => {
    it('is research work: visitors get 401, paywall readers 403, on every call', async () => {
      const calls: Array<['GET' | 'POST', string, object?]> = [
        ['GET', `${BASE}/`], ['GET', `${BASE}/domains/`], ['GET', `${BASE}/available-filters/`],
        ['GET', `${BASE}/search_input_form/?query=a`], ['GET', `${BASE}/email-asset-lookup/?email=a@b.example`],
        ['POST', `${BASE}/bulk_create/parse_text/`, { raw_text: 'a@b.example' }], ['POST', `${BASE}/`, { email: 'a@b.example' }],
      ];
      for (const [method, url, payload] of calls) {
        assert.equal((await call(method, url, payload, null)).statusCode, 401, `${method} ${url} as a visitor`);
        assert.equal((await call(method, url, payload, tokens['paywall'])).statusCode, 403, `${method} ${url} as a paywall reader`);
        assert.notEqual((await call(method, url, payload, tokens['admin'])).statusCode, 403, `${method} ${url} as an admin`);
      }
    });

    it('keeps each tenant\'s list and domains to itself', async () => {
      await clearList();
      await clearList(beta);
      const mine = (await parse('shared@tenants.example')).json().created[0];
      const theirs = await parse('shared@tenants.example', tokens['beta'], beta);
      assert.equal(theirs.json().counts.created, 1, 'the same address is new in another tenant');
      assert.equal((await call('GET', `${BASE}/${mine.id}/`, undefined, tokens['beta'], beta)).statusCode, 404);
      assert.equal((await call('GET', `${BASE}/domains/${mine.domain.id}/`, undefined, tokens['beta'], beta)).statusCode, 404);
      assert.equal((await call('PATCH', `${BASE}/${mine.id}/`, { notes: 'x' }, tokens['beta'], beta)).statusCode, 404);
      assert.equal((await call('GET', `${BASE}/search_input_form/?query=shared`, undefined, tokens['beta'], beta)).json().results.length, 1);
      const betaDomains = (await call('GET', `${BASE}/domains/`, undefined, tokens['beta'], beta)).json().results;
      assert.deepEqual(betaDomains.map((row: { domain: string; cleaned_emails_count: number }) => [row.domain, row.cleaned_emails_count]), [['tenants.example', 1]]);
      assert.notEqual(betaDomains[0].id, mine.domain.id);
    });
  });
});
