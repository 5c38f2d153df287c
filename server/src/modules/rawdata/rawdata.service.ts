/**
 * Raw data collection (docs/rawdata.md): items created from text and/or a stored file, the
 * duplicate flag, edits that replace the file, deletes in one transaction, source URLs, type
 * counts and direct uploads. Files are stored before (and outside) the transaction that writes
 * the item, held (stored_file_holds) until that transaction releases them, and removed after
 * commit once no item uses them; routes call `afterCommit`'s result.
 */
import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { query, tenantPin } from '../../db/client.ts';
import { publish } from '../../events/bus.ts';
import { ApiError, badRequest, fieldError, notFound } from '../../resources/errors.ts';
import type { EngineContext } from '../../resources/context.ts';
import { responsibleUser } from '../../resources/context.ts';
import type { Row } from '../../resources/repository.ts';
import type { ResourceService } from '../../resources/service.ts';
import { normalizeUrlForMatch, parseUrl, isUuid } from '../../resources/values.ts';
import { visibleTo } from '../../resources/visibility.ts';
import type { FileStore, StoredFile } from '../../storage/files.ts';
import { sanitizeFilename } from '../../storage/upload.ts';
import { CONTENT_KINDS } from './rawdata.resource.ts';
import type { RawDataProcessing } from './rawdata.processing.ts';
import { markPending } from './processing-state.ts';

/** A file stored for an item, with the name its client gave it (sanitized). */
export interface ItemFile extends StoredFile {
  filename: string;
}

/** Fields of a raw data write besides the resource's own: a source URL given by address. */
const SOURCE_URL_FIELDS = ['source_url', 'source_alias'] as const;
const FORM_SOURCE_NAMES = { url: 'source_url', alias: 'source_alias' };

/** What a write changed in the file store: files that may no longer be used, to remove after commit. */
export interface Written<T> {
  value: T;
  unused: string[];
}

export const MAX_REMOVE_BATCH = 1000;

/**
 * The items of these ids the caller sees, each once — or, before anything is done, a 404
 * listing every id not found under `errors.ids`; `outcome` says what was therefore not done
 * ("nothing was deleted"). Every call on a set of items (remove-batch, process,
 * send_to_library, extract-data) takes its items through here.
 */
export async function visibleItems(ctx: EngineContext, items: ResourceService, ids: string[], outcome: string): Promise<Row[]> {
  const wanted = [...new Set(ids.map((id) => id.toLowerCase()))];
  const found = await items.findVisibleMany(ctx.tx, ctx.actor.access, wanted);
  const missing = wanted.filter((id) => !found.has(id));
  if (missing.length > 0) {
    throw new ApiError(404, 'not_found', `ids: ${missing.length} of the items were not found; ${outcome}.`, { ids: missing.map((id) => `Not found: ${id}`) });
  }
  return wanted.map((id) => found.get(id)!);
}

export class RawDataService {
  constructor(
    readonly items: ResourceService,
    private readonly sources: ResourceService,
    private readonly files: FileStore,
    /** Queues processing for items collected into a bucket that processes on upload. */
    private readonly processing?: RawDataProcessing,
  ) {}

  /**
   * Creates an item from fields (strings from a form, or JSON values) and an optional stored
   * file: at least one of text and file. A file the tenant already has in another item makes
   * this one a duplicate of the first such item.
   */
  async create(ctx: EngineContext, fields: Record<string, unknown>, file: ItemFile | null): Promise<Record<string, unknown>> {
    const { body, source } = splitSourceFields(fields);
    const input = this.items.parseInput(body, null, ctx.actor.access);
    if (!file && !input.values['text']) {
      throw badRequest('file: send a file, some text, or both.', { file: ['Send a file, some text, or both.'], text: ['Send a file, some text, or both.'] });
    }
    const values = { ...input.values, ...(file ? await this.fileValues(ctx, file, null) : {}) };
    if (source) values['source'] = await this.sourceFor(ctx, source.url, source.alias, FORM_SOURCE_NAMES);
    let row = await this.items.write(ctx, null, { ...input, values });
    if (file?.hold) await this.files.release(ctx.tx, [file.hold]);
    row = await this.processIfAsked(ctx, row);
    return (await this.items.presentRows(ctx.tx, ctx.actor.access, [row]))[0]!;
  }

  /** Queues the item's processing when its bucket processes what is collected into it. */
  private async processIfAsked(ctx: EngineContext, row: Row): Promise<Row> {
    if (!this.processing || typeof row['bucket'] !== 'string') return row;
    const [bucket] = await query<{ process_on_upload: boolean }>(ctx.tx, sql`SELECT process_on_upload FROM raw_data_buckets WHERE id = ${row['bucket']}`);
    if (!bucket?.process_on_upload) return row;
    await this.processing.queueItem(ctx, row);
    return (await this.items.findVisible(ctx.tx, ctx.actor.access, row.id));
  }

  /** Changes the fields sent; a file replaces the item's file (and processing starts over). */
  async update(ctx: EngineContext, id: string, fields: Record<string, unknown>, file: ItemFile | null): Promise<Written<Record<string, unknown>>> {
    const current = await this.items.findVisible(ctx.tx, ctx.actor.access, id);
    const { body, source } = splitSourceFields(fields);
    const input = this.items.parseInput(body, current, ctx.actor.access);
    const values = { ...input.values, ...(file ? await this.fileValues(ctx, file, current.id) : {}) };
    if (source) values['source'] = await this.sourceFor(ctx, source.url, source.alias, FORM_SOURCE_NAMES);
    if (!file && !current['file_sha256'] && 'text' in values && !values['text']) {
      throw fieldError('text', 'This item has no file: its text cannot be removed.');
    }
    let row = await this.items.write(ctx, current, { ...input, values });
    if (file?.hold) await this.files.release(ctx.tx, [file.hold]);
    if (file) row = await this.processIfAsked(ctx, await markPending(ctx, row.id, null));
    const replaced = file && current['file_sha256'] && current['file_sha256'] !== file.sha256 ? [String(current['file_sha256'])] : [];
    return { value: (await this.items.presentRows(ctx.tx, ctx.actor.access, [row]))[0]!, unused: replaced };
  }

  /** Deletes items the caller sees, all or none (an id not found is a 404 naming it). */
  async removeMany(ctx: EngineContext, ids: string[]): Promise<Written<{ deleted: number }>> {
    const rows = await visibleItems(ctx, this.items, ids, 'nothing was deleted');
    for (const row of rows) {
      if (!(await this.items.removeRow(ctx, row))) throw notFound(`Raw data item ${row.id} was just deleted by someone else; nothing was deleted.`);
    }
    return { value: { deleted: rows.length }, unused: rows.map((row) => row['file_sha256']).filter((sha) => typeof sha === 'string') as string[] };
  }

  /** How many items of each kind the caller sees (every kind, zeros included), and in all. */
  async typeCounts({ tx, actor }: EngineContext): Promise<{ total: number; results: Array<{ type: string; count: number }> }> {
    const rows = await query<{ content_kind: string; count: string }>(
      tx,
      sql`SELECT content_kind, count(*) AS count FROM raw_data
          WHERE visibility = ANY(string_to_array(${visibleTo(actor.access).join(',')}, ','))
          GROUP BY content_kind`,
    );
    const counts = new Map(rows.map((row) => [row.content_kind, Number(row.count)]));
    const results = CONTENT_KINDS.map((type) => ({ type, count: counts.get(type) ?? 0 }));
    return { total: results.reduce((sum, entry) => sum + entry.count, 0), results };
  }

  /** Sets the item's source to the source URL of this address (created, or the existing one reused). */
  async assignSourceUrl(ctx: EngineContext, id: string, url: unknown, alias: unknown): Promise<Record<string, unknown>> {
    const current = await this.items.findVisible(ctx.tx, ctx.actor.access, id);
    const source = await this.sourceFor(ctx, url, alias);
    const row = await this.items.write(ctx, current, { values: { source } });
    await this.announce(ctx, row);
    return (await this.items.presentRows(ctx.tx, ctx.actor.access, [row]))[0]!;
  }

  async clearSource(ctx: EngineContext, id: string): Promise<Record<string, unknown>> {
    const current = await this.items.findVisible(ctx.tx, ctx.actor.access, id);
    const row = await this.items.write(ctx, current, { values: { source: null } });
    await this.announce(ctx, row);
    return (await this.items.presentRows(ctx.tx, ctx.actor.access, [row]))[0]!;
  }

  /** The item's file as the caller may download it, or a 404 (no such item for them, or no file). */
  async fileOf(ctx: EngineContext, id: string): Promise<{ sha256: string; name: string; type: string; size: number }> {
    const row = await this.items.findVisible(ctx.tx, ctx.actor.access, id);
    if (!row['file_sha256']) throw notFound('This raw data item has no file.');
    return { sha256: String(row['file_sha256']), name: String(row['file_name']), type: String(row['file_type']), size: Number(row['file_size']) };
  }

  /**
   * The source URL record for an address (SPEC §7 assign-source-url): the tenant's record of
   * the same normalized address is reused (its alias set if it had none), else one is created.
   */
  private async sourceFor(ctx: EngineContext, url: unknown, alias: unknown, names = { url: 'url', alias: 'alias' }): Promise<string> {
    const parsed = typeof url === 'string' ? parseUrl(url) : { ok: false as const, message: 'This field is required.' };
    if (!parsed.ok) throw fieldError(names.url, parsed.message);
    if (alias !== undefined && alias !== null && typeof alias !== 'string') throw fieldError(names.alias, 'Must be text.');
    const key = normalizeUrlForMatch(parsed.value);
    const [existing] = await query<Row>(ctx.tx, sql`SELECT * FROM source_urls WHERE url_keys[1] = ${key} LIMIT 1`);
    if (existing) {
      if (alias && !existing['alias']) await this.sources.write(ctx, existing, this.sources.parseInput({ alias }, existing, ctx.actor.access));
      return existing.id;
    }
    const created = await this.sources.create(ctx, { url: parsed.value, ...(alias ? { alias } : {}) });
    return String(created['id']);
  }

  /** The file's columns, and the first other item of the tenant with the same file (a duplicate). */
  private async fileValues(ctx: EngineContext, file: ItemFile, self: string | null): Promise<Record<string, unknown>> {
    const [first] = await query<{ id: string }>(
      ctx.tx,
      sql`SELECT id FROM raw_data WHERE file_sha256 = ${file.sha256} ${self ? sql`AND id <> ${self}` : sql``}
          ORDER BY created_at, id LIMIT 1`,
    );
    return {
      file_sha256: file.sha256,
      file_name: sanitizeFilename(file.filename),
      file_type: file.type,
      file_size: file.size,
      duplicate_of: first?.id ?? null,
    };
  }

  /** raw_data_update (docs/events.md): the item's status, source or file changed. */
  private async announce(ctx: EngineContext, row: Row): Promise<void> {
    const updatedAt = row['updated_at'] instanceof Date ? row['updated_at'] : new Date(String(row['updated_at']));
    await publish(ctx, 'raw_data_update', { id: row.id, processing_status: String(row['processing_status']), updated_at: updatedAt.toISOString() });
  }

  // ---- direct upload: initiate → PUT the bytes → complete ----

  /** Records what will be uploaded; returns the upload id and the token of its PUT URL. */
  async initiateDirect(
    ctx: EngineContext,
    body: { file_name: string; size: number; sha256: string; fields: Record<string, unknown> },
    limits: { maxFileBytes: number; expiresInSeconds: number },
  ): Promise<{ id: string; token: string; expires_at: string }> {
    this.items.assertMayWrite(ctx.actor);
    if (body.size > limits.maxFileBytes) {
      throw new ApiError(413, 'file_too_large', `size: the file is larger than the limit of ${limits.maxFileBytes} bytes.`, {
        size: [`The file is larger than the limit of ${limits.maxFileBytes} bytes.`],
      });
    }
    // The item's fields are checked now, so complete/ fails only for the bytes.
    const { body: itemFields, source } = splitSourceFields(body.fields);
    this.items.parseInput(itemFields, null, ctx.actor.access);
    if (source && !(typeof source.url === 'string' && parseUrl(source.url).ok)) throw fieldError('source_url', 'Enter a valid URL.');
    await query(ctx.tx, sql`DELETE FROM raw_data_direct_uploads WHERE expires_at < now() AND hold_id IS NULL`);
    const token = randomBytes(32).toString('base64url');
    const [row] = await query<{ id: string; expires_at: Date | string }>(
      ctx.tx,
      sql`INSERT INTO raw_data_direct_uploads (tenant_id, size, sha256, file_name, fields, token_sha256, expires_at, created_by)
          VALUES (${ctx.actor.tenantId}, ${body.size}, ${body.sha256.toLowerCase()}, ${sanitizeFilename(body.file_name)},
                  ${JSON.stringify(body.fields)}::jsonb, ${sha256Hex(token)}, now() + make_interval(secs => ${limits.expiresInSeconds}),
                  ${responsibleUser(ctx.actor)?.id ?? null})
          RETURNING id, expires_at`,
    );
    return { id: row!.id, token, expires_at: new Date(row!.expires_at).toISOString() };
  }

  /** The upload a PUT URL names, if its token matches and it has not expired or received its bytes. */
  async directUploadForPut(ctx: EngineContext, id: string, token: string): Promise<{ size: number }> {
    const row = await this.directUpload(ctx, id);
    if (!row || row['token_sha256'] !== sha256Hex(token)) throw notFound('No such upload (or the URL is not valid).');
    if (row['expired']) throw fieldError('upload', 'The upload URL has expired: start again with direct-upload/initiate/.');
    if (row['hold_id']) throw new ApiError(409, 'conflict', 'The bytes of this upload were already received.');
    return { size: Number(row['size']) };
  }

  /**
   * The caller's upload whose bytes may have gone straight into the store (a presigned URL)
   * and were not read yet: whether it expired; null when unknown, someone else's or received.
   */
  async directUploadInStore(ctx: EngineContext, id: string): Promise<{ expired: boolean } | null> {
    const row = await this.directUpload(ctx, id);
    if (!row || row['hold_id']) return null;
    if (row['created_by'] !== null && row['created_by'] !== (responsibleUser(ctx.actor)?.id ?? null)) return null;
    return { expired: Boolean(row['expired']) };
  }

  /**
   * Records the bytes a PUT stored (held until complete/). False when bytes were recorded
   * first by another request (two PUTs, or two complete/ calls reading a staged object at
   * once) or the upload is gone: the caller's hold is then not the upload's, and is released.
   */
  async receivedDirect(ctx: EngineContext, id: string, file: StoredFile): Promise<boolean> {
    const recorded = await query(
      ctx.tx,
      sql`UPDATE raw_data_direct_uploads SET received_sha256 = ${file.sha256}, received_size = ${file.size},
          received_type = ${file.type}, hold_id = ${file.hold ?? null} WHERE id = ${id} AND hold_id IS NULL RETURNING id`,
    );
    return recorded.length > 0;
  }

  /**
   * Creates the item once the bytes arrived as announced. An expired upload, bytes never
   * received, another size or another hash is a 400 naming the reason; nothing is created and
   * the upload is gone (its file removed unless something else uses it — the caller discards
   * the returned hold after this transaction).
   */
  async completeDirect(ctx: EngineContext, id: string): Promise<{ item?: Record<string, unknown>; failure?: ApiError; discard: string[] }> {
    const row = await this.directUpload(ctx, id);
    if (!row || (row['created_by'] !== null && row['created_by'] !== (responsibleUser(ctx.actor)?.id ?? null))) throw notFound('No such upload.');
    const hold = row['hold_id'] ? [String(row['hold_id'])] : [];
    const failure = (field: string, message: string) => ({ failure: new ApiError(400, 'invalid', `${field}: ${message}`, { [field]: [message] }), discard: hold });
    await query(ctx.tx, sql`DELETE FROM raw_data_direct_uploads WHERE id = ${id}`);
    if (row['expired']) return failure('upload', 'The upload has expired: start again with direct-upload/initiate/.');
    if (!row['hold_id']) return failure('upload', 'The file\'s bytes were never received: PUT them to the upload URL first.');
    if (Number(row['received_size']) !== Number(row['size'])) {
      return failure('size', `The file received has ${row['received_size']} bytes; ${row['size']} were announced.`);
    }
    if (row['received_sha256'] !== row['sha256']) return failure('sha256', 'The SHA-256 of the file received differs from the one announced.');
    const file: ItemFile = {
      key: '',
      sha256: String(row['sha256']),
      size: Number(row['size']),
      type: String(row['received_type']),
      ext: '',
      created: false,
      hold: String(row['hold_id']),
      filename: String(row['file_name']),
    };
    return { item: await this.create(ctx, (row['fields'] as Record<string, unknown>) ?? {}, file), discard: [] };
  }

  private async directUpload(ctx: EngineContext, id: string): Promise<Row | null> {
    if (!isUuid(id)) return null;
    const [row] = await query<Row>(ctx.tx, sql`SELECT *, expires_at < now() AS expired FROM raw_data_direct_uploads WHERE ${tenantPin(ctx.tx)} AND id = ${id} FOR UPDATE`);
    return row ?? null;
  }
}

const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

/** The item's own fields, and a source URL given by address (source_url, source_alias). */
function splitSourceFields(fields: Record<string, unknown>): { body: Record<string, unknown>; source: { url: unknown; alias: unknown } | null } {
  const body = { ...fields };
  const url = body['source_url'];
  const alias = body['source_alias'];
  for (const name of SOURCE_URL_FIELDS) delete body[name];
  if (url === undefined || url === null || url === '') return { body, source: null };
  return { body, source: { url, alias } };
}
