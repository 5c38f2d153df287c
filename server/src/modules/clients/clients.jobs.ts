/**
 * A deleted tenant's files: its rows (stored_files included) are deleted in one transaction,
 * which also queues `clients.remove_files`; the job then removes the bytes under the tenant's
 * key prefix from the store. Bytes are not transactional, so they go after the commit, and a
 * job survives a crash and is retried. It runs in the tenant manager's tenant and needs
 * nothing of the deleted tenant but its id; running it again removes whatever is left.
 */
import type { JobHandlers } from '../../jobs/registry.ts';

export const clientsJobs: JobHandlers = {
  'clients.remove_files': async ({ payload, files }) => ({ removed: await files.removeDeletedTenant(payload.tenant_id) }),
};
