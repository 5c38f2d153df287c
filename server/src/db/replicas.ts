/**
 * Read replicas (DATABASE_REPLICA_URLS; docs/scaling.md, "Read replicas"): PostgreSQL servers
 * streaming the primary's WAL, which serve the API's read-only work while they are reachable
 * and close enough behind.
 *
 * Every check interval the set samples the primary's WAL position and each replica's replay
 * position. A replica's lag is the age of the oldest primary sample it has not replayed yet
 * (0 when it has replayed the newest): measured against the primary itself, so an idle primary
 * does not look like a stalled replica, as `now() - pg_last_xact_replay_timestamp()` would.
 * A replica that does not answer, is further behind than REPLICA_MAX_LAG_SECONDS, or is not in
 * recovery (promoted, or the primary's own URL by mistake) is skipped until a check finds it
 * fit again; each change of health is logged.
 *
 * A transaction on a replica is opened exactly as on the primary (`Database.withTenant`: the
 * app role and the tenant settings, set per transaction), so row-level security applies
 * alike. A replica that fails under a read (gone, or a statement cancelled by a conflict with
 * recovery) hands that read to the primary, as does a read that turns out to write.
 */
import { sql } from 'drizzle-orm';
import type { ReplicaSettings } from '../config.ts';
import { openPostgres, query, type Database, type RenderedStatement, type TenantContext, type Tx } from './client.ts';
import { isDatabaseUnavailable, sqlState } from './errors.ts';
import { guardConnections } from './pool-guard.ts';

export type ReplicaHealth = 'starting' | 'healthy' | 'lagging' | 'unreachable' | 'not_a_replica';

export interface ReplicaLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

const SILENT: ReplicaLog = { info: () => {}, warn: () => {} };

/** A replica's connections may take this long to open before the replica counts as away (the primary's is 10 s). */
export const REPLICA_CONNECT_TIMEOUT_MS = 2_000;
/** Connections per replica pool, as the primary's. */
const REPLICA_POOL_SIZE = 10;

/** A WAL position (`16/B374D848`) as a number; null for anything else. */
export function parseLsn(text: string | null | undefined): bigint | null {
  const match = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(text?.trim() ?? '');
  return match ? (BigInt(`0x${match[1]}`) << 32n) + BigInt(`0x${match[2]}`) : null;
}

export function formatLsn(value: bigint): string {
  return `${(value >> 32n).toString(16).toUpperCase()}/${(value & 0xffff_ffffn).toString(16).toUpperCase()}`;
}

/** A replica as logs and the metrics route name it: host, port and database, never the credentials. */
export function replicaName(url: string): string {
  try {
    const parsed = new URL(url);
    return `${decodeURIComponent(parsed.hostname)}:${parsed.port || '5432'}${parsed.pathname}`;
  } catch {
    return '(unparsable URL)';
  }
}

export interface ReplicaStatus {
  name: string;
  health: ReplicaHealth;
  /** Seconds behind the primary at the last check; null before the first or while unreachable. */
  lag_seconds: number | null;
  /** WAL bytes the primary has written that the replica had not replayed at the last check. */
  lag_bytes: number | null;
  replay_lsn: string | null;
  checked_at: string | null;
  last_error: string | null;
  /** Reads this process sent to the replica, and of those the ones it handed to the primary after the replica failed under them. */
  reads: number;
  failovers: number;
}

export interface ReplicasStatus {
  max_lag_seconds: number;
  check_interval_ms: number;
  primary_lsn: string | null;
  /** Read-only work this process sent to the primary: no replica was fit, or the caller's own write was not replayed yet. */
  primary_reads: number;
  replicas: ReplicaStatus[];
}

interface Sample {
  at: number;
  lsn: bigint;
}

class Replica {
  health: ReplicaHealth = 'starting';
  replayLsn: bigint | null = null;
  lagSeconds: number | null = null;
  lagBytes: bigint | null = null;
  checkedAt: Date | null = null;
  lastError: string | null = null;
  reads = 0;
  failovers = 0;
  db: Database | null = null;

  constructor(
    readonly url: string,
    readonly name: string,
  ) {}
}

export interface ReadOptions {
  /** The caller's last write (a WAL position): a replica that has not replayed it is skipped. */
  after?: bigint | null;
  /**
   * `fn` has effects outside the transaction (it streams a file): once it has started on a
   * replica that then fails, it is not run again on the primary (the request fails with 503).
   */
  once?: boolean;
}

export class ReplicaSet {
  private readonly replicas: Replica[];
  private samples: Sample[] = [];
  private next = 0;
  private primaryReads = 0;
  private timer: NodeJS.Timeout | null = null;
  private checking: Promise<void> | null = null;
  private started: Promise<void> | null = null;
  private stopped = false;
  private log: ReplicaLog = SILENT;

  constructor(
    private readonly primary: Database,
    private readonly settings: ReplicaSettings,
  ) {
    this.replicas = settings.urls.map((url) => new Replica(url, replicaName(url)));
  }

  get size(): number {
    return this.replicas.length;
  }

  /**
   * Opens the replicas' pools (without waiting for them: a replica away at start is only
   * skipped), checks once, then keeps checking; health changes go to `log` (the API's logger).
   */
  start(log?: ReplicaLog): Promise<void> {
    if (log) this.log = log;
    return (this.started ??= (async () => {
      for (const replica of this.replicas) {
        replica.db = await openPostgres(replica.url, REPLICA_POOL_SIZE, { probe: false, applicationName: 'intelnotes-replica' });
        guardConnections(replica.db, this.log, { connectTimeoutMs: REPLICA_CONNECT_TIMEOUT_MS });
      }
      await this.check();
      this.schedule();
    })());
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.started?.catch(() => {});
    await this.checking;
    await Promise.all(this.replicas.map((replica) => replica.db?.close()));
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.check().finally(() => this.schedule());
    }, this.settings.checkIntervalMs);
    this.timer.unref();
  }

  /** One round: the primary's position, then every replica's. Never throws. */
  check(): Promise<void> {
    return (this.checking ??= (async () => {
      try {
        await this.samplePrimary();
        await Promise.all(this.replicas.map((replica) => this.checkReplica(replica)));
      } finally {
        this.checking = null;
      }
    })());
  }

  private async samplePrimary(): Promise<void> {
    const at = Date.now();
    let lsn: bigint | null;
    try {
      lsn = await this.answerWithin(this.primaryLsn());
    } catch {
      // The primary is away: replicas keep the health of their last comparison; reads still go to them.
      return;
    }
    if (lsn === null) return;
    const last = this.samples.at(-1);
    // Only the first time the primary is seen at a position matters for the lag.
    if (!last || lsn > last.lsn) this.samples.push({ at, lsn });
    // Older samples than the bound (and a margin) cannot change a verdict: a replica behind them is lagging either way.
    const keepFrom = at - Math.max(60_000, this.settings.maxLagSeconds * 4_000);
    while (this.samples.length > 1 && this.samples[0]!.at < keepFrom) this.samples.shift();
  }

  /** The primary's WAL insert position: every transaction committed before the call ends at or before it. */
  async primaryLsn(): Promise<bigint | null> {
    const [row] = await query<{ lsn: string }>(this.primary.owner, sql`SELECT pg_current_wal_insert_lsn()::text AS lsn`);
    return parseLsn(row?.lsn);
  }

  private async checkReplica(replica: Replica): Promise<void> {
    if (!replica.db) return;
    try {
      const [row] = await this.answerWithin(
        query<{ recovery: boolean; replay: string | null }>(replica.db.owner, sql`SELECT pg_is_in_recovery() AS recovery, pg_last_wal_replay_lsn()::text AS replay`),
      );
      replica.checkedAt = new Date();
      if (!row?.recovery) {
        replica.lagSeconds = replica.lagBytes = null;
        this.setHealth(replica, 'not_a_replica', 'the server is not in recovery: a primary (promoted, or DATABASE_URL named again) is never read as a replica');
        return;
      }
      const replay = parseLsn(row.replay);
      replica.replayLsn = replay;
      const latest = this.samples.at(-1);
      if (replay === null || !latest) {
        // No comparison possible (the primary was never reached): judged by reachability alone.
        replica.lagSeconds = replica.lagBytes = null;
        this.setHealth(replica, 'healthy', null);
        return;
      }
      const behind = this.samples.find((sample) => sample.lsn > replay);
      replica.lagSeconds = behind ? Math.max(0, (Date.now() - behind.at) / 1000) : 0;
      replica.lagBytes = latest.lsn > replay ? latest.lsn - replay : 0n;
      if (replica.lagSeconds > this.settings.maxLagSeconds) {
        this.setHealth(replica, 'lagging', `${replica.lagSeconds.toFixed(1)} s behind the primary (REPLICA_MAX_LAG_SECONDS=${this.settings.maxLagSeconds})`);
      } else {
        this.setHealth(replica, 'healthy', null);
      }
    } catch (error) {
      replica.checkedAt = new Date();
      replica.lagSeconds = replica.lagBytes = null;
      this.setHealth(replica, 'unreachable', (error as Error).message);
    }
  }

  /**
   * A check's statement, failed when it takes longer than a replica's connect time-out (or two
   * intervals): a server that stops answering (a host gone from the network) would otherwise
   * hold this check, and every check after it, for TCP's own time-out.
   */
  private async answerWithin<T>(statement: Promise<T>): Promise<T> {
    const ms = Math.max(REPLICA_CONNECT_TIMEOUT_MS + 500, 2 * this.settings.checkIntervalMs);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    });
    try {
      return await Promise.race([statement, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private setHealth(replica: Replica, health: ReplicaHealth, reason: string | null): void {
    const from = replica.health;
    replica.health = health;
    replica.lastError = reason;
    if (from === health) return;
    const details = { replica: replica.name, from, to: health, lagSeconds: replica.lagSeconds, reason };
    if (health === 'healthy') this.log.info(details, 'read replica in use');
    else this.log.warn(details, 'read replica skipped');
  }

  /** A replica fit to read on, having replayed `after`; round robin among them; null: the primary. */
  private pick(after: bigint | null | undefined): Replica | null {
    const count = this.replicas.length;
    for (let tried = 0; tried < count; tried++) {
      const replica = this.replicas[(this.next + tried) % count]!;
      if (replica.health !== 'healthy' || !replica.db) continue;
      if (after != null && (replica.replayLsn === null || replica.replayLsn < after)) continue;
      this.next = (this.next + tried + 1) % count;
      return replica;
    }
    return null;
  }

  /**
   * Whether a read that failed on the replica is the replica's fault, to be run on the primary
   * instead: the replica is away (and is skipped from now on), the standby cancelled the
   * statement for a conflict with recovery, or the work wrote (which a standby refuses).
   */
  private replicaFault(replica: Replica, error: unknown): boolean {
    if (isDatabaseUnavailable(error)) {
      this.setHealth(replica, 'unreachable', (error as Error).message);
      return true;
    }
    const state = sqlState(error);
    if (state === '40001' && /conflict with recovery/i.test((error as Error).message)) return true;
    if (state === '25006') {
      this.log.warn({ replica: replica.name, err: error }, 'a read-only request wrote; it ran again on the primary (mark its route readsFromPrimary)');
      return true;
    }
    return false;
  }

  /** `Database.withTenant` for read-only work: on a fit replica, else on the primary. */
  async withTenant<T>(context: TenantContext, fn: (tx: Tx) => Promise<T>, options: ReadOptions = {}): Promise<T> {
    const replica = this.pick(options.after);
    if (!replica) {
      this.primaryReads++;
      return this.primary.withTenant(context, fn);
    }
    let started = false;
    replica.reads++;
    try {
      return await replica.db!.withTenant(context, (tx) => {
        started = true;
        return fn(tx);
      });
    } catch (error) {
      if (!this.replicaFault(replica, error) || (options.once && started)) throw error;
      replica.failovers++;
      return this.primary.withTenant(context, fn);
    }
  }

  /** `Database.readOnce` on a fit replica, else on the primary. */
  async readOnce<T>(context: TenantContext, statement: RenderedStatement, options: ReadOptions = {}): Promise<T[]> {
    const replica = this.pick(options.after);
    if (!replica) {
      this.primaryReads++;
      return this.primary.readOnce<T>(context, statement);
    }
    replica.reads++;
    try {
      return await replica.db!.readOnce<T>(context, statement);
    } catch (error) {
      if (!this.replicaFault(replica, error)) throw error;
      replica.failovers++;
      return this.primary.readOnce<T>(context, statement);
    }
  }

  status(): ReplicasStatus {
    const latest = this.samples.at(-1);
    return {
      max_lag_seconds: this.settings.maxLagSeconds,
      check_interval_ms: this.settings.checkIntervalMs,
      primary_lsn: latest ? formatLsn(latest.lsn) : null,
      primary_reads: this.primaryReads,
      replicas: this.replicas.map((replica) => ({
        name: replica.name,
        health: replica.health,
        lag_seconds: replica.lagSeconds,
        lag_bytes: replica.lagBytes === null ? null : Number(replica.lagBytes),
        replay_lsn: replica.replayLsn === null ? null : formatLsn(replica.replayLsn),
        checked_at: replica.checkedAt?.toISOString() ?? null,
        last_error: replica.lastError,
        reads: replica.reads,
        failovers: replica.failovers,
      })),
    };
  }
}
