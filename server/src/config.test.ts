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

  const bad: Array<[Record<string, string>, RegExp]> = [
    [{ PORT: 'eighty' }, /PORT must be a whole number/],
    [{ PORT: '70000' }, /PORT must be between/],
    [{ DATABASE_URL: 'mysql://x/y' }, /DATABASE_URL must start with postgres/],
    [{ DATABASE_URL: 'not a url' }, /DATABASE_URL must be a URL/],
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
  ];
  for (const [env, message] of bad) {
    it(`rejects ${JSON.stringify(env)}`, () => {
      assert.throws(() => loadConfig(env), (error: unknown) => error instanceof ConfigError && message.test(error.message));
    });
  }
});
