/**
 * Settings shared by the seeder and the load runner, read from the
 * environment (and the first argument, for the database name) in one place.
 */

export interface BenchSettings {
  /** Connection to the PostgreSQL server as a superuser, on any database. */
  serverUrl: string;
  database: string;
  /** `serverUrl` pointed at `database`. */
  databaseUrl: string;
  /** Organizations, and separately people, across all tenants. */
  rows: number;
  tenants: number;
  /** Share of `rows` that the largest tenant holds. */
  largestShare: number;
  adminEmail: string;
  adminPassword: string;
}

type Env = Record<string, string | undefined>;

export function positiveInt(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw.replaceAll('_', ''));
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number, got "${raw}"`);
  return value;
}

export function readSettings(env: Env = process.env, args: string[] = process.argv.slice(2)): BenchSettings {
  const serverUrl = env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const database = args.find((arg) => !arg.startsWith('-')) ?? env.BENCH_DB ?? 'intelnotes_bench';
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(database)) throw new Error(`database name must match [a-z_][a-z0-9_]*, got "${database}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  const largestShare = Number(env.BENCH_LARGEST_SHARE ?? '0.4');
  if (!(largestShare > 0 && largestShare < 1)) throw new Error('BENCH_LARGEST_SHARE must be between 0 and 1');
  return {
    serverUrl,
    database,
    databaseUrl: url.toString(),
    rows: positiveInt(env, 'BENCH_ROWS', 1_000_000),
    tenants: positiveInt(env, 'BENCH_TENANTS', 50),
    largestShare,
    adminEmail: env.BENCH_ADMIN_EMAIL ?? 'admin@bench.local',
    adminPassword: env.BENCH_ADMIN_PASSWORD ?? 'bench-admin-password',
  };
}

export function tenantCode(rank: number): string {
  return `bench${String(rank).padStart(2, '0')}`;
}

/**
 * Rows per tenant, largest first: the largest tenant holds `largestShare`, the
 * others follow a Zipf curve (size ∝ 1/rank) so there are a few mid-size
 * tenants and a long tail of small ones. Sums to exactly `total`.
 */
export function tenantSizes(total: number, tenants: number, largestShare: number): number[] {
  const largest = Math.round(total * largestShare);
  if (tenants === 1) return [total];
  const rest = total - largest;
  const weights = Array.from({ length: tenants - 1 }, (_, index) => 1 / (index + 2));
  const weightSum = weights.reduce((sum, weight) => sum + weight, 0);
  const sizes = weights.map((weight) => Math.max(1, Math.floor((rest * weight) / weightSum)));
  sizes[0]! += rest - sizes.reduce((sum, size) => sum + size, 0);
  return [largest, ...sizes];
}
