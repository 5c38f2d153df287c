/**
 * A tenant's own settings, edited by its admins: name, paywall link and
 * message, and what the header and footer show. Public through GET tenant/
 * and clients/info/{code}/ (see clients.routes.ts), which every visitor's
 * layout reads.
 */
import type { Settings, SettingsPatch } from '../../contracts.ts';
import type { Database } from '../../db/client.ts';
import { notFound } from '../../resources/errors.ts';
import { FieldProblems, optionalText, optionalUrl, requiredText } from '../../http/input.ts';
import { inTenant, type Actor } from '../../resources/context.ts';
import type { TenantCache } from '../../tenancy/tenant-cache.ts';
import type { TenantRow } from '../../tenancy/tenants.repository.ts';
import { findTenantById, updateTenant, type TenantChanges } from '../clients/clients.repository.ts';
import { PAYMENT_MESSAGE_MAX_LENGTH, TENANT_NAME_MAX_LENGTH } from '../clients/clients.service.ts';

export const FOOTER_TEXT_MAX_LENGTH = 300;

const BOOLEAN_SETTINGS = [
  'header_show_tenant_name',
  'header_show_access_level',
  'footer_show_open_data_link',
  'footer_show_setup_invite',
] as const;

export function presentSettings(row: TenantRow): Settings {
  return {
    name: row.name,
    payment_access_link: row.payment_access_link,
    payment_access_message: row.payment_access_message,
    open_data_link: row.open_data_link,
    header_show_tenant_name: row.header_show_tenant_name,
    header_show_access_level: row.header_show_access_level,
    footer_text: row.footer_text,
    footer_show_open_data_link: row.footer_show_open_data_link,
    footer_show_setup_invite: row.footer_show_setup_invite,
    suggestion_min_confidence: row.suggestion_min_confidence,
  };
}

/** The actor's own tenant's settings; a change clears the tenant cache once committed, so each operation opens its transaction. */
export class SettingsService {
  constructor(
    private readonly db: Database,
    private readonly cache: TenantCache,
  ) {}

  async get(actor: Actor): Promise<Settings> {
    const row = await inTenant(this.db, actor, ({ tx }) => findTenantById(tx, actor.tenantId));
    if (!row) throw notFound('This tenant does not exist.');
    return presentSettings(row);
  }

  async update(actor: Actor, body: SettingsPatch): Promise<Settings> {
    const problems = new FieldProblems();
    const changes: TenantChanges = {};
    if (body.name !== undefined) changes.name = requiredText(problems, 'name', body.name, TENANT_NAME_MAX_LENGTH);
    if (body.payment_access_link !== undefined) {
      changes.payment_access_link = optionalUrl(problems, 'payment_access_link', body.payment_access_link);
    }
    if (body.payment_access_message !== undefined) {
      changes.payment_access_message = optionalText(problems, 'payment_access_message', body.payment_access_message, PAYMENT_MESSAGE_MAX_LENGTH);
    }
    if (body.open_data_link !== undefined) changes.open_data_link = optionalUrl(problems, 'open_data_link', body.open_data_link);
    if (body.footer_text !== undefined) {
      changes.footer_text = optionalText(problems, 'footer_text', body.footer_text, FOOTER_TEXT_MAX_LENGTH);
    }
    if (body.suggestion_min_confidence !== undefined) changes.suggestion_min_confidence = body.suggestion_min_confidence;
    for (const name of BOOLEAN_SETTINGS) {
      const value = body[name];
      if (value !== undefined) changes[name] = value;
    }
    problems.throwIfAny();

    const tenantId = actor.tenantId;
    const row = await inTenant(this.db, actor, async ({ tx }) =>
      Object.keys(changes).length === 0 ? findTenantById(tx, tenantId) : updateTenant(tx, tenantId, changes),
    );
    if (!row) throw notFound('This tenant does not exist.');
    // Visitors of this process see the change at once; other processes within the cache's few seconds.
    this.cache.clear();
    return presentSettings(row);
  }
}
