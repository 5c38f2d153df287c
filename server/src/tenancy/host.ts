/**
 * Host header → tenant code, exactly as SPEC §1 says: `www.*` and the main
 * deployment host serve the default tenant; otherwise the tenant is the first
 * label once the last two labels are dropped (only one on localhost).
 */
import { isIP } from 'node:net';

/** A tenant code is one DNS label: lower-case letters, digits, inner hyphens. */
export const TENANT_CODE_RE = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

export type HostTenant =
  | { kind: 'default' }
  | { kind: 'tenant'; code: string }
  /** The host names a tenant that cannot exist (not a DNS label). */
  | { kind: 'invalid'; label: string };

/** Strips the port, brackets, trailing dot and case from a Host header value. */
export function normalizeHost(hostHeader: string): string {
  let host = hostHeader.trim().toLowerCase();
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    return end === -1 ? host.slice(1) : host.slice(1, end);
  }
  // A bare IPv6 literal has several colons and no port we could strip safely.
  if ((host.match(/:/g) ?? []).length === 1) host = host.slice(0, host.indexOf(':'));
  return host.replace(/\.+$/, '');
}

export function tenantFromHost(hostHeader: string | undefined, mainHost: string | null): HostTenant {
  if (!hostHeader) return { kind: 'default' };
  const host = normalizeHost(hostHeader);
  if (host === '' || isIP(host) !== 0) return { kind: 'default' };
  if (mainHost !== null && host === mainHost) return { kind: 'default' };

  const labels = host.split('.');
  if (labels[0] === 'www') return { kind: 'default' };
  const dropped = labels[labels.length - 1] === 'localhost' ? 1 : 2;
  const remaining = labels.slice(0, Math.max(0, labels.length - dropped));
  const first = remaining[0];
  if (first === undefined) return { kind: 'default' };
  return TENANT_CODE_RE.test(first) ? { kind: 'tenant', code: first } : { kind: 'invalid', label: first };
}

/**
 * The origin of a tenant's pages for links that leave the request (a mailed confirmation
 * link): built from the deployment's own host, never from the Host header alone — tenancy
 * reads only the first label, so `acme.attacker.example` reaches tenant acme, and a link
 * built from it would send a mail's tokens there. With MAIN_HOST set the host is the
 * tenant's subdomain of it (the main host for the default tenant); without it only a
 * loopback host (localhost, *.localhost, an IP — development) is trusted; otherwise null.
 */
export function tenantOrigin(request: { protocol: string; host: string }, tenant: { code: string; is_default: boolean }, mainHost: string | null): string | null {
  const port = /:(\d+)$/.exec(request.host)?.[1];
  const suffix = port ? `:${port}` : '';
  if (mainHost !== null) return `${request.protocol}://${tenant.is_default ? mainHost : `${tenant.code}.${mainHost}`}${suffix}`;
  const host = normalizeHost(request.host);
  const loopback = host === 'localhost' || host.endsWith('.localhost') || isIP(host) !== 0;
  return loopback ? `${request.protocol}://${request.host.trim().toLowerCase()}` : null;
}
