/**
 * Tenant management for tenant managers (admins of the default tenant):
 * codes are DNS labels that are neither reserved nor taken; a new tenant can
 * get its first admin in the same transaction; deleting a tenant needs its
 * code as confirmation and removes all of its data in one transaction, which
 * queues the removal of its stored files (clients.jobs.ts).
 */
import { randomUUID } from 'node:crypto';
import { hashPassword } from '../../auth/passwords.ts';
import { insertUser } from '../../auth/users.repository.ts';
import type { Client, ClientDeletion, ClientInput, ClientPatch } from '../../contracts.ts';
import type { Database, Tx } from '../../db/client.ts';
import { ApiError, conflict, fieldError, isUniqueViolation, notFound } from '../../resources/errors.ts';
import { FieldProblems, optionalText, optionalUrl, requiredText } from '../../http/input.ts';
import { enqueueFor } from '../../jobs/queue.ts';
import { inTenant, responsibleUser, type Actor } from '../../resources/context.ts';
import type { ResultPage } from '../../resources/list-query.ts';
import { isUuid } from '../../resources/service.ts';
import type { TenantCache } from '../../tenancy/tenant-cache.ts';
import type { TenantRow } from '../../tenancy/tenants.repository.ts';
import { checkEmail, checkPassword } from '../users/users.service.ts';
import * as repo from './clients.repository.ts';

export const TENANT_NAME_MAX_LENGTH = 100;
export const PAYMENT_MESSAGE_MAX_LENGTH = 1000;
const CODE_MAX_LENGTH = 63;

/**
 * Subdomains a tenant cannot take: the web's usual service names (a tenant
 * called "mail" or "api" would shadow them on the deployment's domain), names
 * that read as the product itself, and "default", the default tenant's code.
 */
export const RESERVED_TENANT_CODES: readonly string[] = [
  'admin', 'administrator', 'api', 'app', 'assets', 'auth', 'autoconfig', 'autodiscover', 'billing', 'blog', 'cdn',
  'dashboard', 'default', 'dev', 'docs', 'download', 'email', 'files', 'ftp', 'help', 'imap', 'intelnotes', 'localhost',
  'login', 'mail', 'media', 'mx', 'ns', 'ns1', 'ns2', 'pop', 'pop3', 'root', 'secure', 'smtp', 'sso', 'staging', 'static',
  'status', 'support', 'system', 'test', 'webmail', 'www',
];

const CODE_TAKEN = 'A tenant with this code already exists.';

/** Why a code cannot name a tenant, or null when it can. */
export function tenantCodeProblem(code: string): string | null {
  if (code === '') return 'This field may not be blank.';
  if (code.length > CODE_MAX_LENGTH) return `Use at most ${CODE_MAX_LENGTH} characters.`;
  if (!/^[a-z0-9-]+$/.test(code)) return 'Use only lowercase letters (a–z), digits and hyphens.';
  if (code.startsWith('-') || code.endsWith('-')) return 'The code cannot start or end with a hyphen.';
  // "xn--" and the like: hyphens in places 3 and 4 are reserved for internationalized domain names.
  if (code.slice(2, 4) === '--') return 'Hyphens in the third and fourth places are reserved for internationalized names.';
  if (RESERVED_TENANT_CODES.includes(code)) return 'This code is reserved. Choose another one.';
  return null;
}

const iso = (value: Date | string) => new Date(value).toISOString();

export function presentClient(row: TenantRow): Client {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    is_default: row.is_default,
    payment_access_link: row.payment_access_link,
    payment_access_message: row.payment_access_message,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

export class ClientsService {
  constructor(
    private readonly db: Database,
    private readonly cache: TenantCache,
  ) {}

  async list(actor: Actor, params: repo.ClientListParams): Promise<ResultPage<Client>> {
    const { rows, count } = await inTenant(this.db, actor, ({ tx }) => repo.listTenants(tx, params));
    return { count, offset: params.offset, limit: params.limit, results: rows.map(presentClient) };
  }

  async get(actor: Actor, tenantId: string): Promise<Client> {
    return presentClient(await inTenant(this.db, actor, ({ tx }) => this.find(tx, tenantId)));
  }

  /** A new tenant, with its first admin when one is given (in the new tenant's own transaction). */
  async create(body: ClientInput): Promise<Client> {
    const problems = new FieldProblems();
    const code = (body.code ?? '').trim();
    const codeProblem = tenantCodeProblem(code);
    if (codeProblem) problems.add('code', codeProblem);
    const name = requiredText(problems, 'name', body.name ?? '', TENANT_NAME_MAX_LENGTH);
    const paymentLink = optionalUrl(problems, 'payment_access_link', body.payment_access_link ?? null);
    const paymentMessage = optionalText(problems, 'payment_access_message', body.payment_access_message ?? null, PAYMENT_MESSAGE_MAX_LENGTH);

    const adminEmailGiven = (body.admin_email ?? '').trim() !== '';
    const adminPasswordGiven = (body.admin_password ?? '') !== '';
    let admin: { email: string; password: string } | null = null;
    if (adminEmailGiven || adminPasswordGiven) {
      if (!adminEmailGiven) problems.add('admin_email', 'Give the first admin an email, or leave both admin fields empty.');
      if (!adminPasswordGiven) problems.add('admin_password', 'Give the first admin a password, or leave both admin fields empty.');
      const email = adminEmailGiven ? checkEmail(problems, 'admin_email', body.admin_email!) : '';
      const password = adminPasswordGiven ? checkPassword(problems, 'admin_password', body.admin_password!) : '';
      admin = { email, password };
    }
    problems.throwIfAny();

    const passwordHash = admin ? await hashPassword(admin.password) : null;
    const tenantId = randomUUID();
    try {
      // One transaction, scoped to the new tenant so its first admin can be written with it.
      const row = await this.db.withTenant({ tenantId, manageTenants: true }, async (tx) => {
        const tenant = await repo.insertTenantWithId(tx, {
          id: tenantId,
          code,
          name,
          payment_access_link: paymentLink,
          payment_access_message: paymentMessage,
        });
        if (admin && passwordHash) {
          await insertUser(tx, { tenant_id: tenantId, email: admin.email, alias: 'Admin', password_hash: passwordHash, is_admin: true, is_research: true });
        }
        return tenant;
      });
      this.cache.clear();
      return presentClient(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(CODE_TAKEN, { code: [CODE_TAKEN] });
      throw error;
    }
  }

  async update(actor: Actor, tenantId: string, body: ClientPatch): Promise<Client> {
    const problems = new FieldProblems();
    const changes: repo.TenantChanges = {};
    if (body.name !== undefined) changes.name = requiredText(problems, 'name', body.name, TENANT_NAME_MAX_LENGTH);
    if (body.payment_access_link !== undefined) {
      changes.payment_access_link = optionalUrl(problems, 'payment_access_link', body.payment_access_link);
    }
    if (body.payment_access_message !== undefined) {
      changes.payment_access_message = optionalText(problems, 'payment_access_message', body.payment_access_message, PAYMENT_MESSAGE_MAX_LENGTH);
    }
    const row = await inTenant(this.db, actor, async ({ tx }) => {
      const current = await this.find(tx, tenantId);
      problems.throwIfAny();
      if (Object.keys(changes).length === 0) return current;
      return (await repo.updateTenant(tx, tenantId, changes))!;
    });
    this.cache.clear();
    return presentClient(row);
  }

  /**
   * Removes the tenant and every row of every tenant-scoped table that belongs
   * to it, in one transaction scoped to that tenant (row-level security lets
   * the deletes touch nothing else). `confirm` must repeat the tenant's code.
   * The same transaction queues the job that removes the tenant's files from
   * the store once the deletion has committed; the job belongs to the
   * manager's tenant, as the deleted tenant's jobs are deleted with it.
   */
  async remove(actor: Actor, tenantId: string, confirm: string | undefined): Promise<ClientDeletion> {
    const target = await inTenant(this.db, actor, ({ tx }) => this.find(tx, tenantId));
    if (target.is_default) throw new ApiError(409, 'protected_tenant', 'The default tenant cannot be deleted.');
    if (target.id === actor.tenantId) {
      throw new ApiError(409, 'protected_tenant', 'You cannot delete the tenant you are signed in to.');
    }
    if (confirm === undefined || confirm.trim() === '') {
      throw fieldError('confirm', `Confirm the deletion with ?confirm=${target.code}, the tenant's code.`);
    }
    if (confirm.trim() !== target.code) throw fieldError('confirm', `This does not match the tenant's code, ${target.code}.`);

    const deleted: Record<string, number> = {};
    try {
      await this.db.withTenant({ tenantId: target.id, manageTenants: true }, async (tx) => {
        const tables = await repo.tenantScopedTables(tx);
        // Further passes catch rows that delete triggers write (e.g. into a log table).
        for (let pass = 0; pass < 5; pass += 1) {
          let removed = 0;
          for (const table of tables) {
            const count = await repo.deleteTenantRows(tx, table, target.id);
            if (count > 0) deleted[table] = (deleted[table] ?? 0) + count;
            removed += count;
          }
          if (removed === 0) break;
        }
        if (!(await repo.deleteTenantRow(tx, target.id))) throw notFound('Tenant not found.');
        await enqueueFor(tx, actor.tenantId, { name: 'clients.remove_files', payload: { tenant_id: target.id }, createdBy: responsibleUser(actor)?.id ?? null });
      });
    } catch (error) {
      if ((error as { cause?: { code?: string } }).cause?.code === '23503' || (error as { code?: string }).code === '23503') {
        throw new ApiError(409, 'tenant_in_use', 'Some data still refers to this tenant, so nothing was deleted.');
      }
      throw error;
    } finally {
      this.cache.clear();
    }
    const total = Object.values(deleted).reduce((sum, count) => sum + count, 0);
    return { id: target.id, code: target.code, deleted, total };
  }

  private async find(tx: Tx, tenantId: string): Promise<TenantRow> {
    const row = isUuid(tenantId) ? await repo.findTenantById(tx, tenantId) : null;
    if (!row) throw notFound('Tenant not found.');
    return row;
  }
}
