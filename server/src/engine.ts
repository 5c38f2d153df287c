/**
 * createEngine(config, deps): the one composition root (docs/engine.md "Composition"). It builds,
 * once per database, the catalog, one ResourceService per resource, the module services on top
 * of them, the job registry, the caches and the file store — and the API (app.ts), a worker
 * (worker.ts, or main.ts's in-process one) and the tests receive it. Nothing below it builds a
 * service of its own or reads a module-level catalog, so whatever a service learns of its
 * database stays with the engine of that database: two engines in one process (two test
 * databases) share nothing.
 */
import { AuthService } from './auth/auth.service.ts';
import type { Config } from './config.ts';
import type { EntityCounts } from './contracts.ts';
import type { Database } from './db/client.ts';
import { ReplicaSet } from './db/replicas.ts';
import type { JobRegistry } from './jobs/registry.ts';
import { DomainEnrichment, OFFLINE, type EnrichmentDeps } from './modules/emails/domain-enrichment.ts';
import { EmailListService } from './modules/emails/emails.service.ts';
import { FactsService } from './modules/facts/facts.service.ts';
import { jobRegistry } from './modules/jobs.ts';
import { ListsService } from './modules/lists/lists.service.ts';
import { RawDataReports } from './modules/rawdata/analysis-report.ts';
import { TenantModels } from './modules/rawdata/entity-model.ts';
import { RawDataProcessing } from './modules/rawdata/rawdata.processing.ts';
import { rawData } from './modules/rawdata/rawdata.resource.ts';
import { createCatalog } from './modules/registry.ts';
import { ReviewServices } from './modules/review/review.service.ts';
import { CountsCache } from './modules/tools/counts-cache.ts';
import { ReadCache } from './resources/read-cache.ts';
import type { OptionalExtractors } from './processing/entities/extractors.ts';
import type { Catalog } from './resources/catalog.ts';
import { ResourceServices } from './resources/services.ts';
import { faultReason } from './jobs/faults.ts';
import { PlannerStatistics } from './resources/planner-statistics.ts';
import { FileStore } from './storage/files.ts';
import type { StorageDriver } from './storage/storage.ts';
import { TenantCache } from './tenancy/tenant-cache.ts';

export interface EngineDeps {
  db: Database;
  /** The file store's driver (a local folder or S3: storage.ts), checked by the caller. */
  storage: StorageDriver;
  /** The optional entity extractors the settings configure (startup.ts); none by default. */
  entityExtractors?: OptionalExtractors;
  /** How the email domain enrichment job reaches the network (startup.ts); by default not at all (tests, scripts). */
  emailEnrichment?: EnrichmentDeps;
  /** Where the engine's own background work reports what went wrong (the process's logger); nowhere by default. */
  log?: { warn(details: object, message: string): void };
}

/** What the engine remembers between requests and jobs: each holds state of its database, so each is the engine's. */
export interface EngineCaches {
  /** Tenants by host code (the tenancy plugin; clients and settings clear it after commit). */
  tenants: TenantCache;
  /** Entity counts per tenant (GET tools/entities-count/); the app follows the database's change notifications into it. */
  counts: CountsCache<EntityCounts>;
  /** Each tenant's learnt entity model, reused for a while (raw data processing). */
  entityModels: TenantModels;
  /** Visitors' and paywall readers' answers per tenant, audience and query; the app follows every process's writes into it. */
  reads: ReadCache;
}

export interface Engine {
  readonly config: Config;
  readonly db: Database;
  /**
   * The read replicas DATABASE_REPLICA_URLS names (null: none). Only the API reads on them
   * (buildApp starts their checks); workers, whose jobs write, stay on the primary.
   */
  readonly replicas: ReplicaSet | null;
  /** The file store: uploads, imports' files, raw data. */
  readonly files: FileStore;
  /** The resources by kind and the engine's extensions (modules/registry.ts). */
  readonly catalog: Catalog;
  /** One ResourceService per resource, and per reviewed resource's suggestions. */
  readonly services: ResourceServices;
  readonly reviews: ReviewServices;
  readonly lists: ListsService;
  readonly facts: FactsService;
  readonly emailList: EmailListService;
  readonly domainEnrichment: DomainEnrichment;
  readonly rawDataProcessing: RawDataProcessing;
  readonly rawDataReports: RawDataReports;
  readonly auth: AuthService;
  readonly caches: EngineCaches;
  /** Planner statistics refreshed after big writes (imports, bulk actions), for search totals. */
  readonly statistics: PlannerStatistics;
  /** A handler for every job type, running on these services (jobs/registry.ts checks none is missing). */
  readonly jobs: JobRegistry;
}

export function createEngine(config: Config, deps: EngineDeps): Engine {
  const { db } = deps;
  const catalog = createCatalog();
  const services = new ResourceServices(catalog);
  const reviews = new ReviewServices(services);
  const caches: EngineCaches = { tenants: new TenantCache(db), counts: new CountsCache<EntityCounts>(), entityModels: new TenantModels(), reads: new ReadCache(config.readCache) };
  const statistics = new PlannerStatistics(db, (table, error) => deps.log?.warn({ table, reason: faultReason(error) }, 'planner statistics: ANALYZE failed; autovacuum will gather them'));
  const pieces = {
    services,
    statistics,
    rawDataProcessing: new RawDataProcessing(services.get(rawData.kind), reviews, caches.entityModels, deps.entityExtractors),
    rawDataReports: new RawDataReports(),
    domainEnrichment: new DomainEnrichment(services, deps.emailEnrichment ?? OFFLINE),
  };
  return {
    config,
    db,
    replicas: config.replicas.urls.length > 0 ? new ReplicaSet(db, config.replicas) : null,
    files: new FileStore(deps.storage, db),
    catalog,
    ...pieces,
    reviews,
    lists: new ListsService(services),
    facts: new FactsService(services),
    emailList: new EmailListService(services),
    auth: new AuthService(db, config),
    caches,
    jobs: jobRegistry(pieces),
  };
}
