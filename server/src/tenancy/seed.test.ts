import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestDatabase, type TestDatabase } from '../test/test-db.ts';
import { DEFAULT_ADMIN_EMAIL, seedTenants } from './seed.ts';
import { findDefaultTenant, findTenantByCode } from './tenants.repository.ts';
import { findUserByEmail } from '../auth/users.repository.ts';
import { verifyPassword } from '../auth/passwords.ts';

describe('first-start seeding', () => {
  let test: TestDatabase;
  before(async () => {
    test = await createTestDatabase();
  });
  after(() => test.close());

  it('creates the default and demo tenants, each with an admin, once', async () => {
    const first = await seedTenants(test.db, { email: 'Owner@Example.com', password: 'chosen-password' });
    assert.deepEqual(
      first.created.map((entry) => entry.code),
      ['default', 'demo'],
    );
    const second = await seedTenants(test.db, { email: null, password: null });
    assert.deepEqual(second.created, [], 'a later start changes nothing');

    for (const lookup of [findDefaultTenant, (tx: Parameters<typeof findDefaultTenant>[0]) => findTenantByCode(tx, 'demo')]) {
      const tenant = await test.db.withTenant({ tenantId: null }, (tx) => lookup(tx));
      assert.ok(tenant);
      const admin = await test.db.withTenant({ tenantId: tenant.id }, (tx) => findUserByEmail(tx, 'owner@example.com'));
      assert.ok(admin?.is_admin);
      assert.ok(await verifyPassword('chosen-password', admin.password_hash));
    }
    assert.notEqual(DEFAULT_ADMIN_EMAIL, 'owner@example.com');
  });
});
