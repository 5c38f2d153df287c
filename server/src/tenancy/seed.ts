/**
 * First-start seeding: the default tenant and the `demo` tenant, each with an
 * admin account. Runs once per database; later starts find the tenants and
 * change nothing (so changed passwords are never reset).
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { hashPassword } from '../auth/passwords.ts';
import { insertUser } from '../auth/users.repository.ts';
import { findDefaultTenant, findTenantByCode, insertTenant } from './tenants.repository.ts';

export const DEFAULT_TENANT_CODE = 'default';
export const DEMO_TENANT_CODE = 'demo';
export const DEFAULT_ADMIN_EMAIL = 'admin@intelnotes.local';
export const DEFAULT_ADMIN_PASSWORD = 'intelnotes-admin';

export interface SeedResult {
  /** Tenants created by this call (empty on later starts). */
  created: Array<{ code: string; adminEmail: string }>;
  adminPassword: string;
  passwordFromEnv: boolean;
}

export async function seedTenants(
  db: Database,
  admin: { email: string | null; password: string | null },
): Promise<SeedResult> {
  const email = (admin.email ?? DEFAULT_ADMIN_EMAIL).toLowerCase();
  const password = admin.password ?? DEFAULT_ADMIN_PASSWORD;
  const created: SeedResult['created'] = [];
  const wanted = [
    { code: DEFAULT_TENANT_CODE, name: 'intelnotes', is_default: true },
    { code: DEMO_TENANT_CODE, name: 'Demo', is_default: false },
  ];
  for (const spec of wanted) {
    const tenant = await db.withTenant({ tenantId: null, manageTenants: true }, async (tx) => {
      // Processes started together on one fresh database (two APIs and a worker) seed in
      // turn: the second finds what the first made instead of inserting it again.
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('intelnotes:seed-tenants'))`);
      const existing = spec.is_default ? await findDefaultTenant(tx) : await findTenantByCode(tx, spec.code);
      return existing ? null : insertTenant(tx, spec);
    });
    if (!tenant) continue;
    const passwordHash = await hashPassword(password);
    await db.withTenant({ tenantId: tenant.id }, (tx) =>
      insertUser(tx, { tenant_id: tenant.id, email, alias: 'Admin', password_hash: passwordHash, is_admin: true, is_research: true }),
    );
    created.push({ code: tenant.code, adminEmail: email });
  }
  return { created, adminPassword: password, passwordFromEnv: admin.password !== null };
}
