/**
 * One rule for every relation (visibility.ts, docs/engine.md "Relations show only what the
 * reader may read"): a reference to a record the caller may not read — of a resource whose
 * readAccess excludes them, a row their visibility hides, a suggestion — is never presented,
 * exported, offered in available-filters nor matched by a filter. Checked generically: every
 * relation field of every resource in the catalog, with a record behind each kind of target the
 * field can point at, as a visitor, a paywall reader, a researcher and an admin, on two tenants
 * (issue 25 point 8). Then the raw data cases the probe found.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { unzipSync, strFromU8 } from 'fflate';
import type { AccessLevel } from '../contracts.ts';
import { query } from '../db/client.ts';
import { CATALOG, RESOURCES } from '../modules/registry.ts';
import type { TenantRow } from '../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from '../test/test-app.ts';
import { Catalog, relationFields } from './catalog.ts';
import { inTenant, systemActor } from './context.ts';
import { relation, text, type FieldType, type Visibility } from './fields.ts';
import { filterNames } from './list-query.ts';
import { idsOf } from './relations.ts';
import { defineResource, type Resource } from './resource.ts';
import { ResourceService } from './service.ts';
import { fieldReadAccess, mayReadField, mayReadResource, visibleTo } from './visibility.ts';

const AUDIENCES: AccessLevel[] = ['public', 'paywall', 'research', 'admin'];
const RANDOM_ID = '00000000-0000-4000-8000-000000000000';

/** Values a record needs beyond its required and name fields (what the database or a rule asks for). */
const EXTRA: Record<string, (tag: string) => Record<string, unknown>> = {
  raw_data: (tag) => ({ text: `Text ${tag}` }),
  lists: () => ({ kind: 'OrganizationsList' }),
  emails: (tag) => ({ email: `${tag}@probe.example` }),
  tagging_rules: (tag) => ({ pattern: tag, enabled: false }),
  geos: (tag) => ({ geo_type: 'region', code: tag.toUpperCase().slice(0, 12) }),
};
/** Relations a record needs by a rule beyond its declaration (a top-level fact's section). */
const NEEDED: Record<string, string[]> = { facts: ['section'] };
/** Server-written columns a record needs (read-only fields, set as a job would). */
const SERVER_VALUES: Record<string, (tag: string) => Record<string, unknown>> = {
  domains: (tag) => ({ domain: `${tag}.example` }),
};

/** A record behind a relation: what it is, and who may read it. */
interface Target {
  kind: string;
  id: string;
  name: string;
  visibility: Visibility | null;
  status: string | null;
}

/** A record holding a reference, in a relation field. */
interface Referrer {
  resource: Resource;
  field: string;
  id: string;
  visibility: Visibility | null;
  target: Target;
}

/** Whether a reader at `access` may read a record of `resource` with this visibility and status. */
function readable(resource: Resource, access: AccessLevel, row: { visibility: Visibility | null; status: string | null }): boolean {
  if (!mayReadResource(resource, access)) return false;
  if (resource.hasVisibility && !visibleTo(access).includes(row.visibility!)) return false;
  return !resource.review || row.status === 'active';
}

function sampleValue(field: FieldType, tag: string): unknown {
  const cut = (text: string) => text.slice(0, field.maxLength ?? text.length);
  switch (field.kind) {
    case 'text':
    case 'category':
      return cut(tag);
    case 'url':
      return `https://${tag}.example/`;
    case 'choice':
      return field.choices![0];
    case 'integer':
    case 'decimal':
      return field.min ?? 1;
    case 'emails':
      return [`${tag}@probe.example`];
    case 'date':
      return '2020-01-01';
    case 'incomplete_date':
      return '2020';
    case 'boolean':
      return true;
    default:
      throw new Error(`no sample value for a ${field.kind} field`);
  }
}

/** A page, a record, a file or filters as text to look ids and names up in (an .xlsx unzipped). */
function textOf(payload: Buffer, contentType: string): string {
  if (!contentType.includes('spreadsheetml') && !contentType.includes('zip')) return payload.toString('utf8');
  const read = (bytes: Uint8Array): string => Object.entries(unzipSync(bytes))
    .map(([name, entry]) => (/\.(xml|rels|csv)$/.test(name) ? strFromU8(entry) : name.endsWith('.xlsx') ? read(entry) : name))
    .join('\n');
  return read(new Uint8Array(payload));
}

describe('relations show only what the reader may read, for every relation of the catalog', () => {
  let t: TestContext;
  const tenants: TenantRow[] = [];
  const tokens = new Map<string, Record<AccessLevel, string | undefined>>();
  const referrers = new Map<string, Referrer[]>();
  let serial = 0;

  const withResources = RESOURCES.filter((resource) => relationFields(resource).length > 0);

  before(async () => {
    t = await createTestApp();
    for (const code of ['acme', 'beta']) {
      const tenant = await t.createTenant(code);
      tenants.push(tenant);
      tokens.set(tenant.id, await t.signInAudiences(tenant));
    }
    for (const tenant of tenants) referrers.set(tenant.id, await seed(tenant));
  });
  after(() => t.close());

  /** Writes a record of `resource` in the tenant as its system (an admin), with `values` on top of a sample; returns its row. */
  async function write(tenant: TenantRow, resource: Resource, values: Record<string, unknown>, serverValues: Record<string, unknown> = {}) {
    const tag = `zq${++serial}${tenant.code}`;
    const service = new ResourceService(resource, CATALOG);
    // Shared rows (geos) are written by a tenant manager.
    const actor = resource.shared ? { ...systemActor(tenant.id), manageTenants: true } : systemActor(tenant.id);
    return inTenant(t.db, actor, async (ctx) => {
      const body: Record<string, unknown> = { ...EXTRA[resource.kind]?.(tag) };
      for (const [name, field] of Object.entries(resource.fields)) {
        if (field.readOnly || name in values || name in body || !(field.required || resource.identity?.names[0] === name || NEEDED[resource.kind]?.includes(name))) continue;
        body[name] = field.relation ? await requiredTarget(tenant, field) : sampleValue(field, tag);
      }
      const input = service.parseInput({ ...body, ...values }, null, 'admin');
      Object.assign(input.values, SERVER_VALUES[resource.kind]?.(tag), serverValues);
      return service.write(ctx, null, input);
    });
  }

  /** A public record for a required relation of a sample (e.g. an investment's ledger entry). */
  async function requiredTarget(tenant: TenantRow, field: FieldType): Promise<string | string[]> {
    const target = CATALOG.get(field.relation!.targets[0]!);
    const row = await write(tenant, target, target.hasVisibility ? { visibility: 'public' } : {});
    return field.relation!.many ? [row.id] : row.id;
  }

  /** Records of `target` of every kind a reader may or may not read: public, paywalled, hidden, a suggestion. */
  async function targetsOf(tenant: TenantRow, target: Resource): Promise<Target[]> {
    const made: Target[] = [];
    const visibilities: Array<Visibility | null> = target.hasVisibility ? ['public', 'paywalled', 'hidden'] : [null];
    for (const visibility of visibilities) {
      const row = await write(tenant, target, visibility ? { visibility } : {});
      made.push({ kind: target.kind, id: row.id, name: String(row['display_name']), visibility, status: target.review ? 'active' : null });
    }
    // Turned into a suggestion once referred to (a write may only name records): below.
    if (target.review) {
      const row = await write(tenant, target, { visibility: 'public' });
      made.push({ kind: target.kind, id: row.id, name: String(row['display_name']), visibility: 'public', status: 'suggested' });
    }
    return made;
  }

  /** For each relation field of each resource, a public record pointing at each kind of target. */
  async function seed(tenant: TenantRow): Promise<Referrer[]> {
    const made: Referrer[] = [];
    const targets = new Map<string, Target[]>();
    for (const resource of withResources) {
      // Shared rows (geos, cities) are written by tenant managers; their targets have neither visibility nor readAccess.
      if (resource.shared) continue;
      for (const [field, type] of relationFields(resource)) {
        for (const kind of type.relation!.targets) {
          if (!targets.has(kind)) targets.set(kind, await targetsOf(tenant, CATALOG.get(kind)));
          for (const target of targets.get(kind)!) {
            const reference = type.relation!.many ? [target.id] : target.id;
            // A write may not name a suggestion: it names the record, which becomes one after.
            const named = target.status === 'suggested' ? { ...target, status: 'active' } : target;
            const values: Record<string, unknown> = resource.hasVisibility ? { visibility: 'public' } : {};
            // A read-only reference is the server's to write (e.g. an item's duplicate_of).
            const [given, server] = type.readOnly ? [values, { [field]: reference }] : [{ ...values, [field]: reference }, {}];
            let row;
            try {
              row = await write(tenant, resource, given, server);
            } catch (error) {
              // A fact under a hidden parent cannot be public: it is as visible as its parent.
              if (!resource.hasVisibility || named.visibility === 'public') throw error;
              row = await write(tenant, resource, { ...given, visibility: named.visibility }, server);
            }
            made.push({ resource, field, id: row.id, visibility: (row['visibility'] as Visibility | undefined) ?? null, target });
          }
        }
      }
    }
    // The suggestions, now that records refer to them.
    await inTenant(t.db, systemActor(tenant.id), async ({ tx }) => {
      for (const target of [...targets.values()].flat().filter((one) => one.status === 'suggested')) {
        await tx.execute(sql`UPDATE ${sql.identifier(CATALOG.get(target.kind).table)} SET status = 'suggested' WHERE id = ${target.id}`);
      }
    });
    // What each referrer holds now: a hook may set a read-only reference itself (an address's domain), which is then the target.
    return inTenant(t.db, systemActor(tenant.id), async ({ tx }) => {
      for (const referrer of made) {
        const [row] = await query<Record<string, unknown>>(tx, sql`SELECT ${sql.identifier(referrer.field)} AS ref FROM ${sql.identifier(referrer.resource.table)} WHERE id = ${referrer.id}`);
        const held = idsOf(row?.['ref']);
        if (held.includes(referrer.target.id)) continue;
        assert.ok(referrer.resource.fields[referrer.field]!.readOnly && held.length === 1, `${referrer.resource.kind}.${referrer.field} holds its target`);
        const target = CATALOG.get(referrer.target.kind);
        const [stored] = await query<{ display_name: string; visibility?: Visibility; status?: string }>(tx, sql`SELECT * FROM ${sql.identifier(target.table)} WHERE id = ${held[0]}`);
        referrer.target = { kind: target.kind, id: held[0]!, name: stored!.display_name, visibility: stored!.visibility ?? null, status: stored!.status ?? null };
      }
      return made;
    });
  }

  it('seeds a reference to each kind of target of every relation field of every tenant resource', () => {
    for (const tenant of tenants) {
      const seeded = new Set(referrers.get(tenant.id)!.map((referrer) => `${referrer.resource.kind}.${referrer.field}`));
      const expected = withResources.filter((resource) => !resource.shared).flatMap((resource) => relationFields(resource).map(([name]) => `${resource.kind}.${name}`));
      assert.deepEqual(expected.filter((name) => !seeded.has(name)), []);
      // Some targets each audience may not read: hidden rows, suggestions, research-only resources.
      for (const access of AUDIENCES) {
        const hidden = referrers.get(tenant.id)!.filter((referrer) => !readable(CATALOG.get(referrer.target.kind), access, referrer.target));
        assert.ok(hidden.length > 0, `${tenant.code} ${access}`);
      }
    }
  });

  for (const access of AUDIENCES) {
    for (const [index, code] of ['acme', 'beta'].entries()) {
      it(`as ${access} on ${code}: no reference to a record they may not read is listed, shown, exported, offered or matched`, async () => {
        const tenant = tenants[index]!;
        const other = tenants[1 - index]!;
        const token = tokens.get(tenant.id)![access];
        const get = (url: string) => t.request(tenant, { method: 'GET', url: `/api/v1${url}`, token });
        const own = referrers.get(tenant.id)!;
        // Every record of the other tenant, and this tenant's targets the reader may not read.
        // A name is looked for by the tag it was written with (zq<n><tenant>), which nothing else holds.
        const tagOf = (name: string) => /zq\d+[a-z]+/.exec(name)?.[0] ?? [];
        const secret = [...new Set([
          // (Shared rows, geos, are every tenant's.)
          ...referrers.get(other.id)!.flatMap((referrer) => [referrer.id, ...(CATALOG.get(referrer.target.kind).shared ? [] : [referrer.target.id, tagOf(referrer.target.name)].flat())]),
          ...own.filter((referrer) => !readable(CATALOG.get(referrer.target.kind), access, referrer.target)).flatMap((referrer) => [referrer.target.id, tagOf(referrer.target.name)].flat()),
        ])];
        const failures: string[] = [];
        const leaks = (label: string, text: string) => {
          const found = [...new Set(secret.filter((value) => text.includes(value)))];
          if (found.length > 0) failures.push(`${label} holds ${found.slice(0, 3).join(', ')}`);
        };

        for (const resource of withResources) {
          const list = await get(`${resource.path}/?limit=100`);
          if (!mayReadResource(resource, access)) {
            if (![401, 403].includes(list.statusCode)) failures.push(`${resource.path}/ → ${list.statusCode}`);
            continue;
          }
          assert.equal(list.statusCode, 200, `${resource.path}/: ${list.body}`);
          leaks(`${resource.path}/`, list.body);
          const filters = await get(`${resource.path}/available-filters/`);
          leaks(`${resource.path}/available-filters/`, filters.body);
          const offered = (filters.json() as { filters: Array<{ name: string }> }).filters.map((filter) => filter.name);
          const exported = await get(`${resource.path}/?format=xlsx`);
          assert.equal(exported.statusCode, 200, `${resource.path}/?format=xlsx`);
          const sheet = textOf(exported.rawPayload, String(exported.headers['content-type']));
          leaks(`${resource.path}/?format=xlsx`, sheet);
          if (access === 'research' || access === 'admin') {
            const csv = await t.request(tenant, { method: 'POST', url: `/api/v1${resource.path}/bulk/`, token, payload: { action: 'export', format: 'csv', all_matching: {} } });
            if (csv.statusCode !== 403) {
              assert.equal(csv.statusCode, 200, `${resource.path}/bulk/ export: ${csv.body}`);
              leaks(`${resource.path}/bulk/ csv`, csv.body);
            }
          }

          for (const [field, type] of relationFields(resource)) {
            const fieldReadable = mayReadField(type, access);
            if (!fieldReadable && offered.includes(field)) failures.push(`${resource.path}/available-filters/ offers ${field}`);
            // A field the reader may not read is not a column of their export.
            if (!fieldReadable && sheet.includes(`>${field}<`)) failures.push(`${resource.path}/?format=xlsx has a ${field} column`);
            const mine = own.filter((referrer) => referrer.resource === resource && referrer.field === field);
            for (const referrer of mine) {
              if (!readable(resource, access, { visibility: referrer.visibility, status: 'active' })) continue;
              const detail = await get(`${resource.path}/${referrer.id}/`);
              assert.equal(detail.statusCode, 200, `${resource.path}/${referrer.id}/`);
              leaks(`${resource.path}/{id}/`, detail.body);
              const record = detail.json() as Record<string, unknown>;
              const value = record[field];
              const shown = ((Array.isArray(value) ? value : value ? [value] : []) as Array<{ id: string }>).map((ref) => ref.id);
              if (!fieldReadable && field in record) failures.push(`${resource.path}/{id}/ presents ${field}`);
              // And a reference the reader may read is still shown (the rule hides no more than it must).
              const targetReadable = fieldReadable && readable(CATALOG.get(referrer.target.kind), access, referrer.target);
              if (targetReadable !== shown.includes(referrer.target.id)) failures.push(`${resource.path}/{id}/ ${field}: ${targetReadable ? 'misses' : 'shows'} a ${referrer.target.visibility ?? ''} ${referrer.target.status ?? ''} ${referrer.target.kind}`);
            }
            if (!filterNames(resource).includes(field)) continue;
            // A filter by a record the reader may not read answers as a filter by no record at all (or, on a field they may not read, a 400 naming it whatever the id).
            const unreadable = [...new Set(mine.filter((referrer) => !readable(CATALOG.get(referrer.target.kind), access, referrer.target)).map((referrer) => referrer.target.id))];
            const otherTenant = referrers.get(other.id)!.find((referrer) => referrer.resource === resource && referrer.field === field)?.target.id;
            for (const id of [...unreadable, ...(otherTenant ? [otherTenant] : [])]) {
              for (const parameter of [field, `${field}__not`]) {
                const asked = await get(`${resource.path}/?${parameter}=${id}&limit=100`);
                const none = await get(`${resource.path}/?${parameter}=${RANDOM_ID}&limit=100`);
                if (!fieldReadable) {
                  for (const response of [asked, none]) {
                    if (response.statusCode !== 400 || !(response.json() as { errors: Record<string, unknown> }).errors[parameter]) {
                      failures.push(`${resource.path}/?${parameter}= → ${response.statusCode}, not a 400 naming it`);
                    }
                  }
                  continue;
                }
                assert.equal(asked.statusCode, 200, `${resource.path}/?${parameter}=: ${asked.body}`);
                const page = (response: typeof asked) => {
                  const body = response.json() as { count: number; results: Array<{ id: string }> };
                  return `${body.count}: ${body.results.map((row) => row.id).sort().join(' ')}`;
                };
                if (page(asked) !== page(none)) failures.push(`${resource.path}/?${parameter}=<unreadable> differs from an unknown id`);
              }
            }
          }
        }
        assert.deepEqual(failures, []);
      });
    }
  }
});

describe('raw data: research-only buckets and source URLs reach no visitor nor paywall reader', () => {
  let t: TestContext;
  let acme: TenantRow;
  let tokens: Record<string, string | undefined>;
  let bucket: { id: string; name: string };
  let source: { id: string; url: string };
  let itemId: string;

  before(async () => {
    t = await createTestApp();
    ({ acme, tokens } = await t.signInTwoTenants());
    const post = async (url: string, payload: object) => {
      const response = await t.request(acme, { method: 'POST', url: `/api/v1${url}`, token: tokens['admin'], payload });
      assert.equal(response.statusCode, 201, `${url}: ${response.body}`);
      return response.json() as Record<string, string>;
    };
    const made = await post('/raw-data/buckets/', { name: 'Quarry Ledger Bucket' });
    bucket = { id: made['id']!, name: 'Quarry Ledger Bucket' };
    const url = 'https://quarry-source.example/report';
    source = { id: (await post('/urls/', { url, alias: 'Quarry Alias' }))['id']!, url };
    itemId = (await post('/raw-data/', { text: 'A public note', bucket: bucket.id, source: source.id, visibility: 'public' }))['id']!;
  });
  after(() => t.close());

  const get = (url: string, role?: string) => t.request(acme, { method: 'GET', url: `/api/v1${url}`, token: role ? tokens[role] : undefined });
  const secrets = () => [bucket.id, bucket.name, source.id, 'quarry-source.example', 'Quarry Alias'];

  for (const role of [undefined, 'paywall']) {
    const who = role ?? 'an anonymous visitor';
    it(`${who} reads the public item without its bucket or source`, async () => {
      assert.equal((await get('/raw-data/buckets/', role)).statusCode, 401 + Number(role !== undefined) * 2);
      assert.equal((await get('/urls/', role)).statusCode, 401 + Number(role !== undefined) * 2);
      const list = await get('/raw-data/', role);
      assert.equal(list.statusCode, 200);
      const [item] = list.json().results;
      assert.equal(item.id, itemId);
      assert.ok(!('bucket' in item) && !('source' in item), JSON.stringify(item));
      const detail = (await get(`/raw-data/${itemId}/`, role)).json();
      assert.ok(!('bucket' in detail) && !('source' in detail));
      for (const url of ['/raw-data/', `/raw-data/${itemId}/`, '/raw-data/available-filters/']) {
        const body = (await get(url, role)).body;
        for (const secret of secrets()) assert.ok(!body.includes(secret), `${url} holds ${secret}`);
      }
      const filters = (await get('/raw-data/available-filters/', role)).json().filters.map((filter: { name: string }) => filter.name);
      assert.ok(!filters.includes('bucket') && !filters.includes('source'), filters.join());
    });

    it(`${who} gets no bucket or source in the exports (xlsx, zip)`, async () => {
      for (const url of ['/raw-data/?format=xlsx', '/raw-data/export/', '/raw-data/export/?include=files']) {
        const response = await get(url, role);
        assert.equal(response.statusCode, 200, url);
        const text = textOf(response.rawPayload, String(response.headers['content-type']));
        assert.ok(text.includes('A public note'), `${url} holds the item`);
        for (const secret of [...secrets(), '>bucket<', '>source<']) assert.ok(!text.includes(secret), `${url} holds ${secret}`);
      }
    });

    it(`${who} filtering by a bucket or a source gets a 400 naming it, for a real id as for a random one (no oracle)`, async () => {
      for (const [name, real] of [['bucket', bucket.id], ['source', source.id]] as const) {
        for (const parameter of [name, `${name}__not`, `${name}__empty`]) {
          const answers = [];
          for (const value of parameter.endsWith('__empty') ? ['true', 'false'] : [real, RANDOM_ID]) {
            for (const url of [`/raw-data/?${parameter}=${value}`, `/raw-data/export/?${parameter}=${value}`]) {
              const response = await get(url, role);
              assert.equal(response.statusCode, 400, `${url}: ${response.body}`);
              assert.ok(response.json().errors[parameter], url);
              answers.push(response.body);
            }
          }
          assert.equal(new Set(answers).size, 1, `${parameter}: one answer whatever the value`);
        }
      }
    });
  }

  for (const role of ['research', 'admin']) {
    it(`${role} still reads, exports and filters by them`, async () => {
      const item = (await get(`/raw-data/${itemId}/`, role)).json();
      assert.deepEqual(item.bucket, { id: bucket.id, display_name: bucket.name, kind: 'buckets' });
      assert.equal(item.source.id, source.id);
      assert.equal((await get(`/raw-data/?bucket=${bucket.id}`, role)).json().count, 1);
      assert.equal((await get(`/raw-data/?bucket=${RANDOM_ID}`, role)).json().count, 0);
      assert.equal((await get(`/raw-data/?source=${source.id}`, role)).json().count, 1);
      const filters = (await get('/raw-data/available-filters/', role)).json().filters;
      assert.deepEqual(filters.find((filter: { name: string }) => filter.name === 'bucket').values, [{ value: bucket.id, count: 1, label: bucket.name }]);
      const exported = await get('/raw-data/export/', role);
      assert.ok(textOf(exported.rawPayload, String(exported.headers['content-type'])).includes(bucket.name));
    });
  }

  it('the catalog says who reads each relation: the field is read by whoever reads its targets', async () => {
    const meta = (await get('/resources/')).json() as Array<{ kind: string; fields: Array<{ name: string; read_access: string }> }>;
    const rawData = meta.find((resource) => resource.kind === 'raw_data')!;
    assert.equal(rawData.fields.find((field) => field.name === 'bucket')!.read_access, 'research');
    assert.equal(rawData.fields.find((field) => field.name === 'source')!.read_access, 'research');
    assert.equal(rawData.fields.find((field) => field.name === 'duplicate_of')!.read_access, 'public');
  });
});

describe('who reads a relation', () => {
  it('is whoever reads its targets (and the field, when it is restricted itself)', () => {
    const field = (kind: string, name: string) => CATALOG.get(kind).fields[name]!;
    assert.equal(fieldReadAccess(field('raw_data', 'bucket')), 'research');
    assert.equal(fieldReadAccess(field('raw_data', 'source')), 'research');
    assert.equal(fieldReadAccess(field('raw_data', 'duplicate_of')), 'public');
    assert.equal(fieldReadAccess(field('facts', 'sources_raw_data')), 'research');
    assert.equal(fieldReadAccess(field('library', 'assets')), 'public');
    assert.ok(!mayReadField(field('raw_data', 'bucket'), 'paywall') && mayReadField(field('raw_data', 'bucket'), 'research'));
  });

  it('is one audience: a relation to resources read by different audiences is refused', () => {
    const declare = (kind: string, extra: object) => defineResource({
      kind, type: kind, path: `/${kind}`, table: kind, label: kind, writeAccess: 'research', fields: { name: text() }, ordering: [], filters: [], ...extra,
    });
    const open = declare('open_things', {});
    const closed = declare('closed_things', { readAccess: 'research' });
    const holder = declare('holders', { fields: { name: text(), things: relation(['open_things', 'closed_things']) } });
    assert.throws(() => new Catalog([open, closed, holder]), /holders\.things: the targets of one relation must share their readAccess/);
  });
});
