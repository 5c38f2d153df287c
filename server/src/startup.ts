/**
 * What every process of the build does first — the API (api.ts) and a worker (worker.ts):
 * read the settings, check the file store, open and migrate the database, gather what the
 * engine needs (createEngine, engine.ts); and how it stops.
 */
import { CONFIG_EXIT, type Config } from './config.ts';
import type { Database } from './db/client.ts';
import { migrate } from './db/migrate.ts';
import { guardConnections } from './db/pool-guard.ts';
import { openDatabase } from './db/open.ts';
import type { EngineDeps } from './engine.ts';
import { enrichmentDeps } from './modules/emails/domain-enrichment.ts';
import { createLogger } from './logging.ts';
import { RESOURCES } from './modules/registry.ts';
import { createOptionalExtractors, type OptionalExtractors } from './processing/entities/extractors.ts';
import { ModelFolderError } from './processing/entities/onnx.ts';
import { applySearchIndexes } from './resources/search-index.ts';
import { createStorageDriver, StorageError, type StorageDriver } from './storage/storage.ts';

export interface Ready {
  db: Database;
  /** What createEngine takes: the database, the file store's driver and the optional extractors the settings configure. */
  deps: EngineDeps;
  /** The file store's driver, checked (docs/storage.md). */
  storage: StorageDriver;
  /** Migrations this start applied, and tables whose search columns it rebuilt. */
  applied: string[];
  searchRebuilt: string[];
}

/** Checks the optional extractors and the file store, then readies the database. */
export async function openReady(config: Config): Promise<Ready> {
  const extractors = { entityExtractors: entityExtractorsOrExit(config), emailEnrichment: enrichmentDeps(config) };
  const storage = await storageOrExit(config);
  const db = await openDatabase(config);
  // Every process (API and worker): a connection lost mid-transaction fails its work, not the process.
  guardConnections(db, createLogger(config.logLevel, { role: 'database' }));
  const applied = await migrate(db);
  const searchRebuilt = await applySearchIndexes(db, RESOURCES);
  return { db, deps: { db, storage, ...extractors }, storage, applied, searchRebuilt };
}

/**
 * The optional entity extractors the settings ask for (NER_MODEL_DIR, NER_LLM_URL): a model
 * folder that cannot serve is a setting to fix, reported like one. onnxruntime itself loads
 * with the first item processed.
 */
function entityExtractorsOrExit(config: Config): OptionalExtractors {
  const log = createLogger(config.logLevel, { role: 'entities' });
  try {
    const extractors = createOptionalExtractors(config.entities, log);
    if (extractors.configured) {
      const { modelDir, llm } = config.entities;
      log.info({ modelDir, llm: llm ? { url: llm.url, model: llm.model } : null }, 'entities: optional extractors configured');
    }
    return extractors;
  } catch (error) {
    if (error instanceof ModelFolderError) {
      console.error(`intelnotes: invalid configuration: NER_MODEL_DIR: ${error.message}`);
      process.exit(CONFIG_EXIT);
    }
    throw error;
  }
}

/** A storage folder that cannot be written or a bucket that does not answer is a setting to fix, reported like one. */
async function storageOrExit(config: Config): Promise<StorageDriver> {
  const storage = await createStorageDriver(config.storage);
  try {
    await storage.check();
  } catch (error) {
    if (error instanceof StorageError) {
      console.error(`intelnotes: file storage unavailable: ${error.message}`);
      process.exit(CONFIG_EXIT);
    }
    throw error;
  }
  return storage;
}

/**
 * On SIGTERM or SIGINT, runs `drain` once, then exits 0; exits 1 when it fails or takes longer
 * than the configured shutdown timeout.
 */
export function stopOnSignals(config: Config, log: { info(details: object, message: string): void; error(details: object, message: string): void }, drain: () => Promise<void>): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: draining in-flight work');
    const timer = setTimeout(() => {
      log.error({}, 'shutdown timed out; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    timer.unref();
    try {
      await drain();
      process.exit(0);
    } catch (error) {
      log.error({ err: error }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  // A child of the supervisor: when the supervisor is gone (killed), so is the reason to run.
  if (process.send) process.on('disconnect', () => void stop('supervisor gone'));
}
