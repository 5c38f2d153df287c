/**
 * Staged writes (migration 0115): how an all-or-nothing import job writes a whole file in many
 * short transactions that nobody else sees until one short transaction publishes them.
 *
 * A transaction opened with `importStage: id` (context.ts `inTenant`) inserts engine rows and
 * audit entries staged under that id — hidden by row-level security from every transaction
 * of another stage or of none, and counted nowhere. A record that existed before the import
 * and that it edits is `touch`ed before the edit (the import's version of it put in place),
 * and every transaction of the stage ends with `park` (the record put back as it was, the
 * import's version kept aside), so no other transaction ever sees an edit either. `publish`
 * makes it all live at once; `discard` deletes it.
 */
import { sql } from 'drizzle-orm';
import { query, type Tx } from '../db/client.ts';

/** Notes the stage, so that it is discarded if its job ends without publishing or discarding it (sweepEndedStages). */
export async function openStage(tx: Tx, stage: string): Promise<void> {
  await tx.execute(sql`INSERT INTO import_stages (tenant_id, job_id) VALUES (app_tenant_id(), ${stage}) ON CONFLICT DO NOTHING`);
}

/** Before the stage edits a record: the import's version of it in place (a record staged by it is left alone). */
export async function touchStaged(tx: Tx, stage: string, table: string, recordId: string): Promise<void> {
  await tx.execute(sql`SELECT import_stage_touch(${stage}::uuid, ${table}, ${recordId}::uuid)`);
}

/** Ends a transaction of the stage: the records it edited put back as they were, the import's versions kept aside. */
export async function parkStaged(tx: Tx, stage: string): Promise<void> {
  await tx.execute(sql`SELECT import_stage_park(${stage}::uuid)`);
}

/** Makes the stage live: its rows and audit entries seen, its edits applied (an edited record that changed meanwhile: import_conflict). */
export async function publishStage(tx: Tx, stage: string): Promise<void> {
  await tx.execute(sql`SELECT import_stage_publish(${stage}::uuid)`);
}

/** Deletes everything the stage wrote. */
export async function discardStage(tx: Tx, stage: string): Promise<void> {
  await tx.execute(sql`SELECT import_stage_discard(${stage}::uuid)`);
}

/** Discards the stages of the tenant's jobs that ended without publishing or discarding them (a worker that died on the last attempt). */
export async function sweepEndedStages(tx: Tx): Promise<number> {
  const [row] = await query<{ swept: number }>(tx, sql`SELECT import_stage_sweep() AS swept`);
  return row?.swept ?? 0;
}

