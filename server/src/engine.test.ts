/**
 * createEngine is the one composition root: each service is built once, and the routes, the job
 * handlers and the module services all use that one; a second engine shares none of it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createEngine } from './engine.ts';
import type { JobContext } from './jobs/registry.ts';
import { runnerOf } from './jobs/registry.ts';
import { systemActor } from './resources/context.ts';
import type { ResourceService } from './resources/service.ts';
import type { TenantRow } from './tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from './test/test-app.ts';

describe('createEngine', () => {
  let t: TestContext;
  let acme: TenantRow;
  let tokens: Record<string, string | undefined>;
  before(async () => {
    t = await createTestApp();
    ({ acme, tokens } = await t.signInTwoTenants());
  });
  after(() => t.close());

  it('builds one service per resource, and one per reviewed resource\'s suggestions', () => {
    const { services, catalog } = t.engine;
    assert.equal(services.all().length, catalog.resources.length);
    for (const resource of catalog.resources) {
      const service = services.get(resource.kind);
      assert.equal(service.resource, resource);
      assert.equal(services.get(resource.kind), service, `${resource.kind}: the same service every time`);
      assert.equal(services.of(resource), service);
      assert.equal(service.services, services);
      if (resource.review) {
        const suggestions = services.suggestions(resource.kind);
        assert.equal(suggestions.resource.status, 'suggested');
        assert.equal(services.of(suggestions.resource), suggestions);
        assert.notEqual(suggestions, service);
      } else {
        assert.throws(() => services.suggestions(resource.kind), /does not declare review/);
      }
    }
    assert.throws(() => services.get('nothing'), /Unknown resource kind "nothing"/);
  });

  it('builds the module services on those same services', () => {
    const { services, reviews, catalog } = t.engine;
    const reviewed = catalog.resources.filter((resource) => resource.review);
    assert.deepEqual(reviews.all().map((review) => review.resource), reviewed);
    for (const review of reviews.all()) {
      assert.equal(review.records, services.get(review.resource.kind));
      assert.equal(review.suggestions, services.suggestions(review.resource.kind));
    }
    assert.equal(reviews.byTypeCode('ORG'), reviews.byTypeCode('org'));
    assert.equal(t.engine.facts.facts, services.get('facts'));
    assert.equal(t.engine.emailList.items, services.get('emails'));
  });

  it('serves the routes with the engine\'s service', async () => {
    const service = t.engine.services.get('organizations');
    const calls = spy(service, 'list');
    try {
      const response = await t.request(acme, { method: 'GET', url: '/api/v1/assets/organizations/', token: tokens['admin'] });
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(calls.length, 1);
    } finally {
      restore(service, 'list');
    }
  });

  it('runs the jobs on the engine\'s services', async () => {
    const { services, jobs } = t.engine;
    const asked: ResourceService[] = [];
    const get = services.get.bind(services);
    services.get = (kind: string) => {
      const service = get(kind);
      asked.push(service);
      return service;
    };
    try {
      // A reader may not write organizations: the import stops before it reads anything.
      const context = {
        job: { id: 'job', tenantId: acme.id, attempt: 1 },
        payload: { resource: 'organizations', sha256: 'none', kind: 'csv', partial: false },
        actor: { ...systemActor(acme.id), access: 'paywall' },
      } as unknown as JobContext<'spreadsheet.import'>;
      await assert.rejects(runnerOf(jobs['spreadsheet.import'])(context), /may no longer edit/);
      assert.deepEqual(asked, [get('organizations')]);
    } finally {
      delete (services as { get?: unknown }).get;
    }
    assert.equal(services.get('organizations'), asked[0]);
  });

  it('shares nothing with another engine, not even on the same database', () => {
    const other = createEngine(t.config, { db: t.db, storage: t.files.driver });
    assert.notEqual(other.catalog, t.engine.catalog);
    assert.deepEqual(other.catalog.resources, t.engine.catalog.resources, 'the same declarations');
    for (const resource of t.engine.catalog.resources) assert.notEqual(other.services.get(resource.kind), t.engine.services.get(resource.kind));
    assert.notEqual(other.caches.tenants, t.engine.caches.tenants);
    assert.notEqual(other.caches.counts, t.engine.caches.counts);
    assert.notEqual(other.caches.entityModels, t.engine.caches.entityModels);
    assert.notEqual(other.rawDataProcessing, t.engine.rawDataProcessing);
    assert.notEqual(other.jobs['rawdata.process'], t.engine.jobs['rawdata.process']);
  });
});

/** Counts the calls of an instance's method (an own property over the prototype's). */
function spy<T extends object>(target: T, method: keyof T & string): unknown[][] {
  const calls: unknown[][] = [];
  const original = (target[method] as (...args: unknown[]) => unknown).bind(target);
  Object.assign(target, {
    [method]: (...args: unknown[]) => {
      calls.push(args);
      return original(...args);
    },
  });
  return calls;
}

function restore(target: object, method: string): void {
  delete (target as Record<string, unknown>)[method];
}
