import type { Client } from '@intelnotes/server/contracts';

export const clientEditPath = (id: string) => `/clients/${encodeURIComponent(id)}/edit`;

/**
 * Where a tenant lives, seen from the page the manager is on (always the default tenant's
 * host: `localhost:3000`, `www.example.com` or the main host): its code as the first label.
 */
export function tenantAddress(client: Pick<Client, 'code' | 'is_default'>, location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  const base = location.host.replace(/^www\./, '');
  return `${location.protocol}//${client.is_default ? base : `${client.code}.${base}`}`;
}

/** Labels of the tenant fields, by API name (form labels and the error summary). */
export const CLIENT_LABELS: Record<string, string> = {
  code: 'Code',
  name: 'Name',
  payment_access_link: 'Payment access link',
  payment_access_message: 'Payment access message',
  admin_email: 'First admin email',
  admin_password: 'First admin password',
};
