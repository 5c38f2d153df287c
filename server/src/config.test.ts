import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from './config.ts';

describe('config', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    assert.equal(config.port, 3000);
    assert.equal(config.databaseUrl, null);
    assert.match(config.dataDir, /data$/);
    assert.equal(config.mainHost, null);
  });

  it('reads and normalizes settings', () => {
    const config = loadConfig({
      PORT: '8080',
      MAIN_HOST: 'Notes.Example.com.',
      DATABASE_URL: 'postgres://u:p@db:5432/intelnotes',
      ADMIN_EMAIL: 'boss@example.com',
      ADMIN_PASSWORD: 'long-enough',
      TOKEN_TTL_HOURS: '12',
      CORS_ORIGINS: 'https://a.example.com, https://b.example.com',
    });
    assert.equal(config.port, 8080);
    assert.equal(config.mainHost, 'notes.example.com');
    assert.equal(config.tokenTtlHours, 12);
    assert.deepEqual(config.corsOrigins, ['https://a.example.com', 'https://b.example.com']);
  });

  it('reads no replicas by default, and DATABASE_REPLICA_URLS as a comma-separated list', () => {
    assert.deepEqual(loadConfig({}).replicas, { urls: [], maxLagSeconds: 5, checkIntervalMs: 1000 });
    const config = loadConfig({
      DATABASE_REPLICA_URLS: ' postgres://u:p@replica-1:5432/intelnotes, postgresql://u:p@replica-2/intelnotes ,',
      REPLICA_MAX_LAG_SECONDS: '10',
      REPLICA_CHECK_INTERVAL_MS: '250',
    });
    assert.deepEqual(config.replicas, {
      urls: ['postgres://u:p@replica-1:5432/intelnotes', 'postgresql://u:p@replica-2/intelnotes'],
      maxLagSeconds: 10,
      checkIntervalMs: 250,
    });
  });

  it('leaves the optional entity extractors off unless configured, and reads them when they are', () => {
    assert.deepEqual(loadConfig({}).entities, { modelDir: null, modelMaxChars: 100_000, llm: null });
    const configured = loadConfig({
      NER_MODEL_DIR: '/srv/models/bert-ner',
      NER_MODEL_MAX_CHARS: '50000',
      NER_LLM_URL: 'http://127.0.0.1:11434/v1',
      NER_LLM_MODEL: 'llama3.1:8b',
      NER_LLM_TIMEOUT_MS: '60000',
    });
    assert.deepEqual(configured.entities, {
      modelDir: '/srv/models/bert-ner',
      modelMaxChars: 50_000,
      llm: { url: 'http://127.0.0.1:11434/v1', key: null, model: 'llama3.1:8b', timeoutMs: 60_000, maxChars: 20_000, maxAnswerBytes: 262_144 },
    });
    assert.match(loadConfig({ NER_MODEL_DIR: 'models/ner' }).entities.modelDir!, /\/models\/ner$/, 'relative to the repository');
    assert.equal(loadConfig({ NER_LLM_URL: 'https://api.openai.com/v1', NER_LLM_MODEL: 'gpt-4o-mini', NER_LLM_KEY: 'sk-1' }).entities.llm?.key, 'sk-1');
  });

  it("leaves the Operator's chat endpoint off unless configured, and reads it when it is", () => {
    assert.deepEqual(loadConfig({}).operator, { llm: null });
    assert.deepEqual(loadConfig({ OPERATOR_LLM_URL: 'https://api.openai.com/v1', OPERATOR_LLM_API_KEY: 'sk-1', OPERATOR_LLM_MODEL: 'gpt-4o-mini' }).operator, {
      llm: { url: 'https://api.openai.com/v1', key: 'sk-1', model: 'gpt-4o-mini', timeoutMs: 10_000, maxAnswerBytes: 65_536 },
    });
  });

  it('stores files under DATA_DIR by default, or in S3 when told', () => {
    const local = loadConfig({ DATA_DIR: '/srv/intelnotes' });
    assert.deepEqual(local.storage, { driver: 'local', dir: '/srv/intelnotes/files' });
    assert.equal(local.fileUploadLimitBytes, 100 * 1024 * 1024);

    const minio = loadConfig({
      STORAGE: 'S3',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_BUCKET: 'intelnotes-files',
      S3_ACCESS_KEY_ID: 'key',
      S3_SECRET_ACCESS_KEY: 'secret',
    });
    assert.deepEqual(minio.storage, {
      driver: 's3',
      endpoint: 'http://127.0.0.1:9000',
      bucket: 'intelnotes-files',
      region: 'us-east-1',
      accessKeyId: 'key',
      secretAccessKey: 'secret',
      forcePathStyle: true,
    });

    const aws = loadConfig({ STORAGE: 's3', S3_BUCKET: 'intelnotes-files', S3_REGION: 'eu-west-1' });
    assert.deepEqual(aws.storage, {
      driver: 's3',
      endpoint: null,
      bucket: 'intelnotes-files',
      region: 'eu-west-1',
      accessKeyId: null,
      secretAccessKey: null,
      forcePathStyle: false,
    });
  });

  const bad: Array<[Record<string, string>, RegExp]> = [
    [{ PORT: 'eighty' }, /PORT must be a whole number/],
    [{ PORT: '70000' }, /PORT must be between/],
    [{ DATABASE_URL: 'mysql://x/y' }, /DATABASE_URL must start with postgres/],
    [{ DATABASE_URL: 'not a url' }, /DATABASE_URL must be a URL/],
    [{ DATABASE_REPLICA_URLS: 'postgres://r1/db, mysql://r2/db' }, /DATABASE_REPLICA_URLS must start with postgres/],
    [{ DATABASE_REPLICA_URLS: 'replica-1' }, /DATABASE_REPLICA_URLS must be comma-separated URLs/],
    [{ REPLICA_MAX_LAG_SECONDS: '0' }, /REPLICA_MAX_LAG_SECONDS must be between 1 and 3600/],
    [{ REPLICA_CHECK_INTERVAL_MS: 'often' }, /REPLICA_CHECK_INTERVAL_MS must be a whole number/],
    [{ MAIN_HOST: 'https://example.com' }, /MAIN_HOST must be a host name/],
    [{ MAIN_HOST: 'example.com:3000' }, /MAIN_HOST/],
    [{ ADMIN_EMAIL: 'nobody' }, /ADMIN_EMAIL is not an email/],
    [{ ADMIN_PASSWORD: 'short' }, /ADMIN_PASSWORD must be at least 8/],
    [{ TOKEN_TTL_HOURS: '0' }, /TOKEN_TTL_HOURS must be between/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of/],
    [{ NODE_ENV: 'staging' }, /NODE_ENV must be/],
    [{ TRUST_PROXY: 'maybe' }, /TRUST_PROXY must be true or false/],
    [{ CORS_ORIGINS: 'https://a.example.com/path' }, /CORS_ORIGINS entries must be origins/],
    [{ LOGIN_RATE_LIMIT_MAX: '-1' }, /LOGIN_RATE_LIMIT_MAX must be a whole number/],
    [{ STORAGE: 'ftp' }, /STORAGE must be local or s3/],
    [{ STORAGE: 's3' }, /S3_BUCKET is required when STORAGE=s3/],
    [{ STORAGE: 's3', S3_BUCKET: 'No_Such' }, /S3_BUCKET must be a bucket name/],
    [{ STORAGE: 's3', S3_BUCKET: 'files', S3_ENDPOINT: 'minio:9000' }, /S3_ENDPOINT must be an http/],
    [{ STORAGE: 's3', S3_BUCKET: 'files', S3_ENDPOINT: 'ftp://minio:9000' }, /S3_ENDPOINT must be an http/],
    [{ STORAGE: 's3', S3_BUCKET: 'files', S3_REGION: 'EU West' }, /S3_REGION must be a region name/],
    [{ STORAGE: 's3', S3_BUCKET: 'files', S3_ACCESS_KEY_ID: 'key' }, /must be set together/],
    [{ STORAGE: 's3', S3_BUCKET: 'files', S3_FORCE_PATH_STYLE: 'maybe' }, /S3_FORCE_PATH_STYLE must be true or false/],
    [{ S3_BUCKET: 'files' }, /S3_BUCKET is set but STORAGE is local/],
    [{ FILE_UPLOAD_LIMIT_BYTES: '6000000000' }, /FILE_UPLOAD_LIMIT_BYTES must be between/],
    [{ NER_LLM_MODEL: 'gpt-4o-mini' }, /NER_LLM_MODEL is set but NER_LLM_URL is not/],
    [{ NER_LLM_KEY: 'sk-1' }, /NER_LLM_KEY is set but NER_LLM_URL is not/],
    [{ NER_LLM_URL: 'https://api.openai.com/v1' }, /NER_LLM_MODEL is required with NER_LLM_URL/],
    [{ NER_LLM_URL: 'api.openai.com/v1', NER_LLM_MODEL: 'm' }, /NER_LLM_URL must be an http:\/\/ or https:\/\/ URL/],
    [{ NER_LLM_URL: 'https://user:sk-1@api.example.com/v1', NER_LLM_MODEL: 'm' }, /NER_LLM_URL must be .* \(the key goes in NER_LLM_KEY\)/],
    [{ NER_LLM_URL: 'http://127.0.0.1:11434/v1', NER_LLM_MODEL: 'm', NER_LLM_TIMEOUT_MS: '50' }, /NER_LLM_TIMEOUT_MS must be between/],
    [{ NER_MODEL_MAX_CHARS: 'lots' }, /NER_MODEL_MAX_CHARS must be a whole number/],
    [{ OPERATOR_LLM_API_KEY: 'sk-1' }, /OPERATOR_LLM_API_KEY is set but OPERATOR_LLM_URL is not/],
    [{ OPERATOR_LLM_URL: 'https://api.openai.com/v1' }, /OPERATOR_LLM_MODEL is required with OPERATOR_LLM_URL/],
    [{ OPERATOR_LLM_URL: 'https://user:sk-1@api.example.com/v1', OPERATOR_LLM_MODEL: 'm' }, /OPERATOR_LLM_URL must be .* \(the key goes in OPERATOR_LLM_API_KEY\)/],
    [{ OPERATOR_LLM_URL: 'http://127.0.0.1:11434/v1', OPERATOR_LLM_MODEL: 'm', OPERATOR_LLM_TIMEOUT_MS: '50' }, /OPERATOR_LLM_TIMEOUT_MS must be between/],
  ];
  for (const [env, message] of bad) {
    it(`rejects ${JSON.stringify(env)}`, () => {
      assert.throws(() => loadConfig(env), (error: unknown) => error instanceof ConfigError && message.test(error.message));
    });
  }
});
