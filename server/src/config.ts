/**
 * The only module that reads process.env. Every setting is parsed and
 * validated here; a bad value stops the process with a message naming it.
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OptionalExtractorSettings } from './processing/entities/extractors.ts';
import type { ChatSettings } from './processing/entities/llm.ts';

/** Where stored files live (server/src/storage, docs/storage.md). */
export type StorageSettings = { driver: 'local'; dir: string } | S3Settings;

export interface S3Settings {
  driver: 's3';
  /** The store's URL; null for AWS S3 itself (the SDK derives it from the region). */
  endpoint: string | null;
  bucket: string;
  region: string;
  /** Both null: the SDK's default credential chain (instance or task role, AWS profile). */
  accessKeyId: string | null;
  secretAccessKey: string | null;
  /** Bucket in the path (http://host/bucket/key) rather than the host name: what most self-hosted stores need. */
  forcePathStyle: boolean;
}

export interface Config {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  dataDir: string;
  /** PostgreSQL server URL; when absent, the supervisor starts the embedded server in `dataDir/postgres`. */
  databaseUrl: string | null;
  /**
   * Read replicas of that server (docs/scaling.md, "Read replicas"): the API sends read-only
   * work to them while they are reachable and within `maxLagSeconds` of the primary.
   */
  replicas: ReplicaSettings;
  /** The main deployment host (serves the default tenant), lower case, no port. */
  mainHost: string | null;
  adminEmail: string | null;
  adminPassword: string | null;
  tokenTtlHours: number;
  loginRateLimit: { max: number; windowSeconds: number };
  bodyLimitBytes: number;
  /** Extra origins allowed by CORS besides the tenant's own origin. */
  corsOrigins: string[];
  logLevel: string;
  webDist: string;
  trustProxy: boolean;
  /** Largest spreadsheet accepted by an upload. */
  uploadLimitBytes: number;
  /** How long a spreadsheet upload waits for its import job to end before answering 202 with the job. */
  importWaitSeconds: number;
  storage: StorageSettings;
  /** Largest file accepted by a file upload (server/src/storage/upload.ts). */
  fileUploadLimitBytes: number;
  /**
   * How long a stored file may wait for the row that uses it before the sweep
   * removes it (and how often the sweep runs): longer than any upload takes.
   */
  fileSweepGraceSeconds: number;
  /** Raw data collection (docs/rawdata.md): files per upload request, and how long a direct-upload URL holds. */
  rawData: { maxFilesPerRequest: number; directUploadSeconds: number };
  /**
   * The optional entity extractors (docs/processing.md, "Optional extractors"); both off
   * unless configured.
   */
  entities: OptionalExtractorSettings;
  /**
   * The Operator's optional chat endpoint (docs/operator.md): questions go to it first and
   * its structured query is used when valid; null (the default) uses the built-in parser only.
   */
  operator: { llm: ChatSettings | null };
  /** Outbound fetches (suggested fields from a URL). */
  fetch: { allowPrivate: boolean; timeoutMs: number; maxBytes: number; maxRedirects: number };
  shutdownTimeoutMs: number;
  /** The read cache of visitors' and paywall readers' answers (resources/read-cache.ts, docs/cache.md). */
  readCache: {
    /** Bytes its entries may take; 0 turns it off. */
    maxBytes: number;
    /** How long an entry is served at most, should a change notification be missed. */
    ttlMs: number;
  };
  jobs: {
    /**
     * Worker processes `npm start` runs beside the API (0: none — run `npm run worker`
     * processes elsewhere). The API process never runs jobs.
     */
    workers: number;
    /** Jobs one process runs at once. */
    concurrency: number;
    /** Claims at least this often, when a new-job notification is missed. */
    pollMs: number;
    /** How long a worker holds a job without renewing its lease (renewed every third of it). */
    leaseMs: number;
    /** Adds POST jobs/probe/ and jobs/probe/event/ (admins), which queue probe jobs. */
    probe: boolean;
    /**
     * A worker process whose resident memory is above this many bytes when a job ends stops
     * claiming, finishes its running jobs and exits with RECYCLE_EXIT, and the supervisor starts
     * it afresh (0: never). What the readers retain (pdf.js, OCR, V8's grown heap) goes with it.
     */
    recycleAboveBytes: number;
  };
  /** The email list (docs/emails.md): the public sign-up widget's mail and limits, and domain enrichment. */
  emails: {
    /** How mail is sent: 'log' writes each message's recipient and subject to the log and sends nothing (the default). */
    mailTransport: 'log';
    /** The From address of the widget's mail. */
    mailFrom: string;
    subscribe: {
      /** Sign-ups one IP address may make per window, and sign-ups of one address per window. */
      ipMax: number;
      addressMax: number;
      windowSeconds: number;
      /** A form sent sooner than this after it was shown is a bot's. */
      minFormSeconds: number;
      /** How long a confirmation link holds. */
      confirmHours: number;
    };
    enrichment: {
      /** Whether the enrichment job looks up a domain's MX records (node:dns), and for how long at most. */
      mxLookup: boolean;
      dnsTimeoutMs: number;
      /** Whether it fetches the domain's site for its title and description (through safe-fetch, with the FETCH_* limits). */
      fetchSites: boolean;
    };
  };
  /** The live event stream (server/src/events/, docs/events.md). */
  events: {
    /** A comment line this often keeps proxies from closing a quiet stream. */
    heartbeatMs: number;
    /** Streams one user may have open, over all API processes; opening one more closes their oldest. */
    maxConnectionsPerUser: number;
    /** How long a stream's registration lasts unrenewed (renewed every third of it); a dead process's streams stop counting after it. */
    streamLeaseMs: number;
    /** Bytes a stream may have waiting for a client that does not read; past it the client is dropped. */
    maxBufferedBytes: number;
    /** How often open streams' tokens and users are checked again (sign-outs are also seen as they commit). */
    accessCheckMs: number;
  };
}

/** The event stream's defaults (docs/events.md). */
export const EVENT_HEARTBEAT_MS = 15_000;
export const EVENT_MAX_CONNECTIONS_PER_USER = 5;
export const EVENT_MAX_BUFFERED_BYTES = 256 * 1024;
export const EVENT_ACCESS_CHECK_MS = 60_000;
export const EVENT_STREAM_LEASE_MS = 60_000;

/** DATABASE_REPLICA_URLS and how their health is judged. */
export interface ReplicaSettings {
  /** Empty: every query goes to the primary (DATABASE_URL). */
  urls: string[];
  /** A replica further behind the primary than this is skipped until it catches up. */
  maxLagSeconds: number;
  /** How often each API process checks every replica's replay position and the primary's. */
  checkIntervalMs: number;
}

/** Replica defaults (docs/scaling.md). */
export const REPLICA_MAX_LAG_SECONDS = 5;
export const REPLICA_CHECK_INTERVAL_MS = 1_000;

export class ConfigError extends Error {}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${env[name]}"`);
}

function checkPostgresUrl(name: string, value: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${name} must be ${name === 'DATABASE_URL' ? 'a URL' : 'comma-separated URLs'} such as postgres://user:password@host:5432/db`);
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError(`${name} must start with postgres:// or postgresql://, got "${url.protocol}//"`);
  }
}

function str(env: Env, name: string): string | null {
  const raw = env[name]?.trim();
  return raw ? raw : null;
}

/** S3 bucket naming rules: 3–63 lower-case letters, digits, dots and hyphens, starting and ending with a letter or digit. */
const BUCKET_RE = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const REGION_RE = /^[a-z0-9-]{1,40}$/;
const S3_VARIABLES = ['S3_ENDPOINT', 'S3_BUCKET', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE'];
/** CopyObject, which commits an S3 upload, copies at most 5 GiB (storage/s3.ts). */
const MAX_FILE_BYTES = 5 * 1024 * 1024 * 1024;

function storageSettings(env: Env, dataDir: string): StorageSettings {
  const driver = str(env, 'STORAGE')?.toLowerCase() ?? 'local';
  if (driver === 'local') {
    const stray = S3_VARIABLES.find((name) => str(env, name) !== null);
    if (stray) throw new ConfigError(`${stray} is set but STORAGE is local: set STORAGE=s3 to store files in S3, or remove ${stray}`);
    return { driver: 'local', dir: path.join(dataDir, 'files') };
  }
  if (driver !== 's3') throw new ConfigError(`STORAGE must be local or s3, got "${env['STORAGE']}"`);

  const endpoint = str(env, 'S3_ENDPOINT');
  if (endpoint !== null) {
    let url: URL | null = null;
    try {
      url = new URL(endpoint);
    } catch {
      /* reported below */
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash || url.username) {
      throw new ConfigError(`S3_ENDPOINT must be an http:// or https:// URL such as https://s3.example.com, got "${endpoint}"`);
    }
  }
  const bucket = str(env, 'S3_BUCKET');
  if (bucket === null) throw new ConfigError('S3_BUCKET is required when STORAGE=s3');
  if (!BUCKET_RE.test(bucket) || bucket.includes('..')) {
    throw new ConfigError(`S3_BUCKET must be a bucket name (3-63 lower-case letters, digits, dots and hyphens), got "${bucket}"`);
  }
  const region = str(env, 'S3_REGION') ?? 'us-east-1';
  if (!REGION_RE.test(region)) throw new ConfigError(`S3_REGION must be a region name such as us-east-1, got "${region}"`);
  const accessKeyId = str(env, 'S3_ACCESS_KEY_ID');
  const secretAccessKey = str(env, 'S3_SECRET_ACCESS_KEY');
  if ((accessKeyId === null) !== (secretAccessKey === null)) {
    throw new ConfigError('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together (or both left out to use the default AWS credentials)');
  }
  return {
    driver: 's3',
    endpoint,
    bucket,
    region,
    accessKeyId,
    secretAccessKey,
    forcePathStyle: bool(env, 'S3_FORCE_PATH_STYLE', endpoint !== null),
  };
}

function emailSettings(env: Env): Config['emails'] {
  const transport = str(env, 'MAIL_TRANSPORT')?.toLowerCase() ?? 'log';
  if (transport !== 'log') throw new ConfigError(`MAIL_TRANSPORT must be log (the only transport so far: mail is written to the log, not sent), got "${env['MAIL_TRANSPORT']}"`);
  const mailFrom = str(env, 'MAIL_FROM') ?? 'no-reply@intelnotes.localhost';
  if (!EMAIL_RE.test(mailFrom)) throw new ConfigError(`MAIL_FROM is not an email address: "${mailFrom}"`);
  return {
    mailTransport: transport,
    mailFrom,
    subscribe: {
      ipMax: int(env, 'SUBSCRIBE_RATE_LIMIT_IP_MAX', 10, 1, 100_000),
      addressMax: int(env, 'SUBSCRIBE_RATE_LIMIT_ADDRESS_MAX', 3, 1, 1_000),
      windowSeconds: int(env, 'SUBSCRIBE_RATE_LIMIT_WINDOW_SECONDS', 3600, 1, 7 * 86_400),
      minFormSeconds: int(env, 'SUBSCRIBE_MIN_FORM_SECONDS', 3, 0, 3600),
      confirmHours: int(env, 'SUBSCRIBE_CONFIRM_HOURS', 72, 1, 30 * 24),
    },
    enrichment: {
      mxLookup: bool(env, 'DOMAIN_ENRICH_DNS', true),
      dnsTimeoutMs: int(env, 'DOMAIN_ENRICH_DNS_TIMEOUT_MS', 3000, 100, 60_000),
      fetchSites: bool(env, 'DOMAIN_ENRICH_FETCH', true),
    },
  };
}

const LLM_VARIABLES = ['NER_LLM_KEY', 'NER_LLM_MODEL', 'NER_LLM_TIMEOUT_MS', 'NER_LLM_MAX_CHARS', 'NER_LLM_MAX_ANSWER_BYTES'];

function entityExtractorSettings(env: Env): OptionalExtractorSettings {
  const modelDirRaw = str(env, 'NER_MODEL_DIR');
  const modelMaxChars = int(env, 'NER_MODEL_MAX_CHARS', 100_000, 1_000, 2_000_000);
  const url = str(env, 'NER_LLM_URL');
  if (url === null) {
    const stray = LLM_VARIABLES.find((name) => str(env, name) !== null);
    if (stray) throw new ConfigError(`${stray} is set but NER_LLM_URL is not: set NER_LLM_URL to use a chat endpoint for entities, or remove ${stray}`);
  } else {
    let parsed: URL | null = null;
    try {
      parsed = new URL(url);
    } catch {
      /* reported below */
    }
    if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.username || parsed.password || parsed.search || parsed.hash) {
      throw new ConfigError(`NER_LLM_URL must be an http:// or https:// URL such as https://api.openai.com/v1 (the key goes in NER_LLM_KEY), got "${url}"`);
    }
    if (str(env, 'NER_LLM_MODEL') === null) throw new ConfigError('NER_LLM_MODEL is required with NER_LLM_URL: the model the endpoint should use');
  }
  return {
    modelDir: modelDirRaw === null ? null : path.resolve(repoRoot, modelDirRaw),
    modelMaxChars,
    llm: url === null
      ? null
      : {
          url,
          key: str(env, 'NER_LLM_KEY'),
          model: str(env, 'NER_LLM_MODEL')!,
          timeoutMs: int(env, 'NER_LLM_TIMEOUT_MS', 30_000, 100, 600_000),
          maxChars: int(env, 'NER_LLM_MAX_CHARS', 20_000, 100, 1_000_000),
          maxAnswerBytes: int(env, 'NER_LLM_MAX_ANSWER_BYTES', 262_144, 1024, 16 * 1024 * 1024),
        },
  };
}

const OPERATOR_LLM_VARIABLES = ['OPERATOR_LLM_API_KEY', 'OPERATOR_LLM_MODEL', 'OPERATOR_LLM_TIMEOUT_MS'];

/** The Operator's chat endpoint: OPERATOR_LLM_URL, its key and model, checked like the entity extractor's. */
function operatorSettings(env: Env): Config['operator'] {
  const url = str(env, 'OPERATOR_LLM_URL');
  if (url === null) {
    const stray = OPERATOR_LLM_VARIABLES.find((name) => str(env, name) !== null);
    if (stray) throw new ConfigError(`${stray} is set but OPERATOR_LLM_URL is not: set OPERATOR_LLM_URL to let a chat endpoint read the Operator's questions, or remove ${stray}`);
    return { llm: null };
  }
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    /* reported below */
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.username || parsed.password || parsed.search || parsed.hash) {
    throw new ConfigError(`OPERATOR_LLM_URL must be an http:// or https:// URL such as https://api.openai.com/v1 (the key goes in OPERATOR_LLM_API_KEY), got "${url}"`);
  }
  const model = str(env, 'OPERATOR_LLM_MODEL');
  if (model === null) throw new ConfigError('OPERATOR_LLM_MODEL is required with OPERATOR_LLM_URL: the model the endpoint should use');
  return {
    llm: {
      url,
      key: str(env, 'OPERATOR_LLM_API_KEY'),
      model,
      // A question waits for the answer: a slow endpoint falls back to the parser soon.
      timeoutMs: int(env, 'OPERATOR_LLM_TIMEOUT_MS', 10_000, 100, 120_000),
      maxAnswerBytes: 65_536,
    },
  };
}

/**
 * Worker processes by default: one core stays with the API (and the database), the others
 * process jobs; at least one, at most four (each runs WORKER_CONCURRENCY jobs at once).
 */
export function defaultWorkers(): number {
  return Math.max(1, Math.min(4, os.availableParallelism() - 1));
}

/**
 * Uploads with more data rows than this import as a job: a few thousand rows take seconds to
 * write, longer than a request should hold the API.
 */
/**
 * How long a spreadsheet upload waits for its import job before answering 202: small sheets
 * get their report in the request, though a worker does the reading and writing.
 */
export const IMPORT_WAIT_SECONDS = 15;

const EMAIL_RE = /^[^\s@]+@[^\s@]+$/;
const HOST_RE = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(env: Env = process.env): Config {
  const nodeEnv = str(env, 'NODE_ENV') ?? 'development';
  if (!['development', 'production', 'test'].includes(nodeEnv)) {
    throw new ConfigError(`NODE_ENV must be development, production or test, got "${nodeEnv}"`);
  }

  const databaseUrl = str(env, 'DATABASE_URL');
  if (databaseUrl !== null) checkPostgresUrl('DATABASE_URL', databaseUrl);
  const replicaUrls = (str(env, 'DATABASE_REPLICA_URLS') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const replicaUrl of replicaUrls) checkPostgresUrl('DATABASE_REPLICA_URLS', replicaUrl);

  const mainHostRaw = str(env, 'MAIN_HOST')?.toLowerCase().replace(/\.$/, '') ?? null;
  if (mainHostRaw !== null && !HOST_RE.test(mainHostRaw)) {
    throw new ConfigError(`MAIN_HOST must be a host name without scheme or port (e.g. intelnotes.example.com), got "${mainHostRaw}"`);
  }

  const adminEmail = str(env, 'ADMIN_EMAIL');
  if (adminEmail !== null && !EMAIL_RE.test(adminEmail)) throw new ConfigError(`ADMIN_EMAIL is not an email address: "${adminEmail}"`);
  const adminPassword = env.ADMIN_PASSWORD ?? null;
  if (adminPassword !== null && adminPassword.length < 8) throw new ConfigError('ADMIN_PASSWORD must be at least 8 characters');

  const logLevel = str(env, 'LOG_LEVEL') ?? (nodeEnv === 'test' ? 'silent' : 'info');
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);

  const corsOrigins = (str(env, 'CORS_ORIGINS') ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  for (const origin of corsOrigins) {
    let parsed: URL | null = null;
    try {
      parsed = new URL(origin);
    } catch {
      /* reported below */
    }
    if (!parsed || parsed.origin !== origin) {
      throw new ConfigError(`CORS_ORIGINS entries must be origins such as https://app.example.com, got "${origin}"`);
    }
  }

  const dataDir = path.resolve(repoRoot, str(env, 'DATA_DIR') ?? './data');

  return {
    env: nodeEnv as Config['env'],
    host: str(env, 'HOST') ?? '0.0.0.0',
    port: int(env, 'PORT', 3000, 0, 65535),
    dataDir,
    databaseUrl,
    replicas: {
      urls: replicaUrls,
      maxLagSeconds: int(env, 'REPLICA_MAX_LAG_SECONDS', REPLICA_MAX_LAG_SECONDS, 1, 3_600),
      checkIntervalMs: int(env, 'REPLICA_CHECK_INTERVAL_MS', REPLICA_CHECK_INTERVAL_MS, 50, 60_000),
    },
    mainHost: mainHostRaw,
    adminEmail,
    adminPassword,
    tokenTtlHours: int(env, 'TOKEN_TTL_HOURS', 24 * 14, 1, 24 * 365),
    loginRateLimit: {
      max: int(env, 'LOGIN_RATE_LIMIT_MAX', 10, 1, 10_000),
      windowSeconds: int(env, 'LOGIN_RATE_LIMIT_WINDOW_SECONDS', 900, 1, 86_400),
    },
    bodyLimitBytes: int(env, 'BODY_LIMIT_BYTES', 1_048_576, 1024, 1024 * 1024 * 1024),
    corsOrigins,
    logLevel,
    webDist: path.resolve(repoRoot, str(env, 'WEB_DIST') ?? './web/dist'),
    trustProxy: bool(env, 'TRUST_PROXY', false),
    uploadLimitBytes: int(env, 'UPLOAD_LIMIT_BYTES', 50 * 1024 * 1024, 1024, 2 * 1024 * 1024 * 1024),
    importWaitSeconds: int(env, 'IMPORT_WAIT_SECONDS', IMPORT_WAIT_SECONDS, 0, 300),
    storage: storageSettings(env, dataDir),
    fileUploadLimitBytes: int(env, 'FILE_UPLOAD_LIMIT_BYTES', 100 * 1024 * 1024, 1, MAX_FILE_BYTES),
    fileSweepGraceSeconds: int(env, 'FILE_SWEEP_GRACE_SECONDS', 3600, 60, 30 * 24 * 3600),
    rawData: {
      maxFilesPerRequest: int(env, 'RAW_DATA_MAX_FILES', 200, 1, 10_000),
      directUploadSeconds: int(env, 'RAW_DATA_DIRECT_UPLOAD_SECONDS', 3600, 1, 7 * 24 * 3600),
    },
    entities: entityExtractorSettings(env),
    operator: operatorSettings(env),
    fetch: {
      allowPrivate: bool(env, 'FETCH_ALLOW_PRIVATE', false),
      timeoutMs: int(env, 'FETCH_TIMEOUT_MS', 8000, 100, 120_000),
      maxBytes: int(env, 'FETCH_MAX_BYTES', 2_000_000, 1024, 100_000_000),
      maxRedirects: int(env, 'FETCH_MAX_REDIRECTS', 5, 0, 20),
    },
    shutdownTimeoutMs: int(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    readCache: {
      maxBytes: int(env, 'READ_CACHE_MAX_BYTES', 64 * 1024 * 1024, 0, 16 * 1024 * 1024 * 1024),
      ttlMs: int(env, 'READ_CACHE_TTL_MS', 60_000, 100, 24 * 3600 * 1000),
    },
    emails: emailSettings(env),
    jobs: {
      workers: int(env, 'WORKERS', defaultWorkers(), 0, 64),
      concurrency: int(env, 'WORKER_CONCURRENCY', 2, 1, 100),
      pollMs: int(env, 'JOB_POLL_INTERVAL_MS', 5_000, 50, 600_000),
      leaseMs: int(env, 'JOB_LEASE_MS', 30_000, 1_000, 3_600_000),
      probe: bool(env, 'JOBS_PROBE', false),
      recycleAboveBytes: int(env, 'WORKER_RECYCLE_MB', WORKER_RECYCLE_MB, 0, 1_000_000) * 1024 * 1024,
    },
    events: {
      heartbeatMs: int(env, 'EVENTS_HEARTBEAT_MS', EVENT_HEARTBEAT_MS, 100, 600_000),
      maxConnectionsPerUser: int(env, 'EVENTS_MAX_CONNECTIONS_PER_USER', EVENT_MAX_CONNECTIONS_PER_USER, 1, 1_000),
      streamLeaseMs: int(env, 'EVENTS_STREAM_LEASE_MS', EVENT_STREAM_LEASE_MS, 1_000, 3_600_000),
      maxBufferedBytes: int(env, 'EVENTS_MAX_BUFFERED_BYTES', EVENT_MAX_BUFFERED_BYTES, 1024, 64 * 1024 * 1024),
      accessCheckMs: int(env, 'EVENTS_ACCESS_CHECK_MS', EVENT_ACCESS_CHECK_MS, 100, 3_600_000),
    },
  };
}

/** Exit status for a bad setting (EX_CONFIG). */
export const CONFIG_EXIT = 78;

/**
 * Exit status of a worker that ended itself to give its memory back (EX_TEMPFAIL): the
 * supervisor starts it again at once, as planned, not as a fault.
 */
export const RECYCLE_EXIT = 75;

/**
 * A worker's memory mark (MiB, WORKER_RECYCLE_MB). A fresh worker holds about 250 MiB; after a
 * file its readers and the tagger add 60–80 (text), ~75 more for pdf.js, ~165 for the OCR
 * engine's WebAssembly; the 619-page PDF read and its entities found add ~250 while they run,
 * and V8 keeps much of it. So a worker recycles after an OCR'd file or a large one, not after
 * every PDF. docs/BENCHMARKS.md "Real documents" measures the choice.
 */
export const WORKER_RECYCLE_MB = 450;

/** The settings, or — on a bad one — a message naming it and exit status CONFIG_EXIT. */
export function configOrExit(check?: (config: Config) => void): Config {
  try {
    const config = loadConfig();
    check?.(config);
    return config;
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`intelnotes: invalid configuration: ${error.message}`);
      process.exit(CONFIG_EXIT);
    }
    throw error;
  }
}
