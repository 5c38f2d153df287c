/**
 * The domain enrichment job (docs/emails.md "Domain enrichment"), run by a worker with a
 * resolver and a fetcher of the test's own: no network is reached.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../../config.ts';
import { query } from '../../db/client.ts';
import { createJobRegistry, type JobContext } from '../../jobs/registry.ts';
import { inTenant, systemActor, type EngineContext } from '../../resources/context.ts';
import type { TenantRow } from '../../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from '../../test/test-app.ts';
import { DomainEnrichment, enrichmentDeps, OFFLINE, type EnrichmentDeps } from './domain-enrichment.ts';
import { emailsJobs } from './emails.jobs.ts';

const BASE = '/api/v1/dxlist';

describe('domain enrichment', () => {
  let t: TestContext;
  let acme: TenantRow;
  let tokens: Record<string, string | undefined>;
  const looked: string[] = [];
  const fetched: string[] = [];
  const deps: EnrichmentDeps = {
    resolveMx: async (domain) => {
      looked.push(domain);
      return domain === 'acme-enrich.example' || domain === 'gmail.com' ? true : domain === 'silent.example' ? null : false;
    },
    fetchSite: async (domain) => {
      fetched.push(domain);
      return domain === 'acme-enrich.example' ? { title: 'Acme Enrich', description: 'Makers of things.' } : null;
    },
  };

  before(async () => {
    t = await createTestApp();
    ({ acme, tokens } = await t.signInTwoTenants());
  });
  after(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, token = tokens['research']) =>
    t.request(acme, { method, url, token, ...(payload ? { payload } : {}) });
  const domains = async () =>
    new Map(((await call('GET', `${BASE}/domains/?limit=100`)).json().results as Array<Record<string, unknown>>).map((row) => [row['domain'] as string, row]));
  const settled = async () => {
    for (;;) {
      const open = await query<{ n: number }>(t.db.owner, sql`SELECT count(*)::int AS n FROM jobs WHERE name = 'dxlist.enrich_domain' AND status IN ('queued', 'running')`);
      if (open[0]!.n === 0) return;
      await sleep(50);
    }
  };

  it('marks free mail, disposable and role addresses, links organizations, looks up MX and the site, and announces it', async () => {
    const orgs = '/api/v1/assets/organizations/';
    const byUrl = (await call('POST', orgs, { name_inc: 'Acme Enrich', associated_urls: ['https://www.acme-enrich.example/about'] })).json();
    const byEmail = (await call('POST', orgs, { name_inc: 'Acme Sales', emails: ['sales@acme-enrich.example'] })).json();
    const unrelated = (await call('POST', orgs, { name_inc: 'Not Acme', associated_urls: ['https://acme-enrich.example.evil.test/'], emails: ['x@notacme-enrich.example'] })).json();
    const withGmail = (await call('POST', orgs, { name_inc: 'Gmail User Ltd', emails: ['owner@gmail.com'] })).json();
    assert.ok(byUrl.id && byEmail.id && unrelated.id && withGmail.id);

    const pasted = await call('POST', `${BASE}/bulk_create/parse_text/`, {
      raw_text: 'ann@acme-enrich.example, info@acme-enrich.example, someone@gmail.com, throwaway@mailinator.com, x@silent.example',
    });
    assert.equal(pasted.statusCode, 200);
    const before = await domains();
    assert.equal(before.get('acme-enrich.example')!['enrichment_status'], 'pending');

    await t.startWorker({ registry: createJobRegistry([{ ...t.engine.jobs, ...emailsJobs(new DomainEnrichment(t.engine.services, deps)) }]) });
    await settled();
    const after = await domains();

    const acmeDomain = after.get('acme-enrich.example')!;
    assert.equal(acmeDomain['enrichment_status'], 'completed');
    assert.equal(acmeDomain['mx_found'], true);
    assert.equal(acmeDomain['site_title'], 'Acme Enrich');
    assert.equal(acmeDomain['site_description'], 'Makers of things.');
    assert.ok(acmeDomain['enriched_at']);
    assert.deepEqual((acmeDomain['organizations'] as Array<{ id: string }>).map((ref) => ref.id).sort(), [byUrl.id, byEmail.id].sort());

    const gmail = after.get('gmail.com')!;
    assert.equal(gmail['is_free_mail'], true);
    assert.deepEqual(gmail['organizations'], [], 'a free-mail domain tells nothing of who uses it');
    const disposable = after.get('mailinator.com')!;
    assert.equal(disposable['is_disposable'], true);
    assert.equal(disposable['mx_found'], false);
    assert.ok(!fetched.includes('mailinator.com'), 'a disposable domain\'s site is not fetched');
    assert.equal(after.get('silent.example')!['mx_found'], null, 'a DNS that does not answer leaves it unknown');

    const items = new Map(((await call('GET', `${BASE}/?limit=50`)).json().results as Array<Record<string, unknown>>).map((row) => [row['email'] as string, row]));
    assert.equal(items.get('info@acme-enrich.example')!['is_role'], true);
    assert.equal(items.get('ann@acme-enrich.example')!['is_role'], false);
    assert.equal(items.get('someone@gmail.com')!['is_free_mail'], true);
    assert.equal(items.get('throwaway@mailinator.com')!['is_disposable'], true);

    const events = await query<{ payload: { id: string } }>(t.db.owner, sql`SELECT payload FROM events WHERE tenant_id = ${acme.id} AND name = 'domain_info_enrich_complete'`);
    assert.deepEqual(new Set(events.map((event) => event.payload.id)), new Set([...after.values()].map((row) => row['id'])));
    const history = (await call('GET', `${BASE}/domains/${acmeDomain['id']}/history/`, undefined, tokens['admin'])).json();
    assert.equal(history.results[0].actor, 'system');
    assert.deepEqual(history.results[0].changes.enrichment_status, { from: 'running', to: 'completed' });
  });

  it('a second run writes the same values (idempotent)', async () => {
    const domain = (await domains()).get('acme-enrich.example')!;
    const enrichment = new DomainEnrichment(t.engine.services, deps);
    const job: JobContext<'dxlist.enrich_domain'> = {
      job: { id: '00000000-0000-4000-8000-000000000001', tenantId: acme.id, name: 'dxlist.enrich_domain', attempt: 2, maxAttempts: 4, createdBy: null },
      payload: { domain_id: domain['id'] as string },
      actor: systemActor(acme.id),
      inTenant: <T>(fn: (ctx: EngineContext) => Promise<T>) => inTenant(t.db, systemActor(acme.id), fn),
      files: t.files,
      signal: new AbortController().signal,
      progress: async () => {},
    };
    await enrichment.run(job);
    const again = (await domains()).get('acme-enrich.example')!;
    for (const field of ['mx_found', 'site_title', 'site_description', 'organizations', 'enrichment_status', 'is_free_mail', 'cleaned_emails_count']) {
      assert.deepEqual(again[field], domain[field], field);
    }
  });

  it('a job failed for good leaves the domain in error with the reason, and announces it', async () => {
    const domain = (await domains()).get('silent.example')!;
    const enrichment = new DomainEnrichment(t.engine.services, OFFLINE);
    await inTenant(t.db, systemActor(acme.id), (ctx) =>
      enrichment.failed(ctx, {
        job: { id: '00000000-0000-4000-8000-000000000002', tenantId: acme.id, name: 'dxlist.enrich_domain', attempt: 4, maxAttempts: 4, createdBy: null },
        payload: { domain_id: domain['id'] as string },
        reason: 'The attempt timed out.',
      }),
    );
    const failed = (await domains()).get('silent.example')!;
    assert.equal(failed['enrichment_status'], 'error');
    assert.equal(failed['enrichment_error'], 'The attempt timed out.');
    const filtered = (await call('GET', `${BASE}/domains/?enrichment_status=error`)).json();
    assert.deepEqual(filtered.results.map((row: { domain: string }) => row.domain), ['silent.example']);
  });

  it('reaches the network only as the settings allow', () => {
    const on = enrichmentDeps(loadConfig({ NODE_ENV: 'test' }));
    assert.ok(on.resolveMx && on.fetchSite);
    const off = enrichmentDeps(loadConfig({ NODE_ENV: 'test', DOMAIN_ENRICH_DNS: 'off', DOMAIN_ENRICH_FETCH: 'off' }));
    assert.deepEqual(off, { resolveMx: null, fetchSite: null });
    assert.throws(() => loadConfig({ NODE_ENV: 'test', MAIL_TRANSPORT: 'smtp' }), /MAIL_TRANSPORT/);
  });
});
