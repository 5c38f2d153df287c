/**
 * Captures the SQL the product sends to PostgreSQL (every `query` of node-postgres's Client in
 * this process: the pool's connections, the listeners, the owner handle) and asks PostgreSQL
 * how it would run each data statement, to check it against what Citus needs when the tables
 * are distributed by tenant_id (db/distribution.ts).
 *
 * Why plans, not the SQL text: PostgreSQL resolves every alias, view, sub-select and CTE, and
 * spreads `a.tenant_id = $1 AND a.tenant_id = b.tenant_id` to both tables (equivalence
 * classes), which is also what Citus reads to route a statement. The plans are read as the
 * superuser, so row-level security adds nothing: a table is pinned to one tenant only by what
 * the statement itself says, as Citus requires (Citus cannot route on a policy's
 * `current_setting()`; citusdata/citus#6712, #7415).
 *
 * Limits: only statements that ran while capturing are seen; statements run inside functions
 * and triggers (plpgsql) are not (they are listed from the catalog instead); an INSERT's target
 * is not judged (its rows carry their tenant_id as values).
 */
import pg from 'pg';
import { DISTRIBUTION_COLUMN, TABLE_PLACEMENT } from '../db/distribution.ts';

export interface CapturedStatement {
  text: string;
  values: unknown[];
  /** A readOnce message: the statement was sent as EXECUTE of a prepared statement; `text` is its PREPARE body, `values` the EXECUTE arguments as SQL literals. */
  executeArgs?: string;
}

type QueryFn = (...args: unknown[]) => unknown;

/** Starts capturing; the returned function stops and returns what was sent, in order. */
export function captureStatements(): () => CapturedStatement[] {
  const proto = pg.Client.prototype as unknown as { query: QueryFn };
  const original = proto.query;
  const captured: CapturedStatement[] = [];
  const prepared = new Map<string, string>();
  proto.query = function capture(this: unknown, ...args: unknown[]) {
    const [config, values] = args;
    if (typeof config === 'string') record(config, Array.isArray(values) ? values : []);
    else if (config && typeof config === 'object' && typeof (config as { text?: unknown }).text === 'string') {
      const { text, values: own } = config as { text: string; values?: unknown[] };
      record(text, own ?? (Array.isArray(values) ? values : []));
    }
    return original.apply(this, args);
  };
  function record(text: string, values: unknown[]) {
    // readOnce (db/client.ts): BEGIN READ ONLY; context; [PREPARE name AS …;] EXECUTE name(args); COMMIT
    if (text.startsWith('BEGIN READ ONLY;')) {
      const parts = text.split(';\n');
      for (const part of parts) {
        const prepare = /^PREPARE (\w+) AS ([\s\S]*)$/.exec(part);
        if (prepare) prepared.set(prepare[1]!, prepare[2]!);
        const execute = /^EXECUTE (\w+)(?:\(([\s\S]*)\))?$/.exec(part);
        if (execute && prepared.has(execute[1]!)) captured.push({ text: prepared.get(execute[1]!)!, values: [], executeArgs: execute[2] ?? '' });
      }
      return;
    }
    captured.push({ text, values });
  }
  return () => {
    proto.query = original;
    return captured;
  };
}

/** Data statements only: what EXPLAIN takes (transaction control, settings, locks and DDL are not routed per table). */
export function isDataStatement(text: string): boolean {
  return /^\s*(\(?\s*SELECT|INSERT|UPDATE|DELETE|WITH)\b/i.test(text) && !/^\s*SELECT\s+(set_config|pg_advisory|pg_try_advisory|1\s*$)/i.test(text);
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Alias?: string;
  Operation?: string;
  Plans?: PlanNode[];
  [key: string]: unknown;
}

const CONDITION_KEYS = ['Index Cond', 'Recheck Cond', 'Filter', 'Hash Cond', 'Merge Cond', 'Join Filter', 'TID Cond', 'One-Time Filter'];

/** How one statement would meet a cluster distributed by tenant_id. */
export interface StatementVerdict {
  text: string;
  /** The distributed tables the statement reads or changes (INSERT targets aside), by alias. */
  tables: Array<{ alias: string; table: string; pinned: boolean }>;
  /**
   * Two distributed tables in one statement that are neither both pinned to the tenant nor joined
   * on tenant_id: Citus would need a repartition join or could not run it. Must never happen.
   */
  crossShardJoin: boolean;
  /** Some distributed table is pinned by nothing but row-level security: the statement runs on every shard. */
  fansOut: boolean;
  /** Features Citus runs on a single shard only (FOR UPDATE/SHARE, recursive CTEs, TABLESAMPLE), used where the statement is not pinned. */
  singleShardOnly: string[];
  /** An INSERT … VALUES into a distributed table with a sub-select among its values (unsupported by Citus). */
  insertSubquery: boolean;
  /** Why a rule was broken, with the plan's conditions (for the test's message). */
  why: string[];
}

const aliasPattern = '("(?:[^"]|"")+"|[A-Za-z_][\\w$]*)';
const pinPatterns = (alias: string) => {
  const a = alias.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // A value in the statement: EXPLAIN shows a bound parameter of a custom plan as its literal
  // ($n in a plan is a sub-select's output on PostgreSQL 15, which pins nothing).
  const constant = `(?:'[^']*'::uuid)`;
  return [
    new RegExp(`(?:^|[^\\w.])${a}\\.${DISTRIBUTION_COLUMN} = ${constant}`),
    new RegExp(`${constant} = ${a}\\.${DISTRIBUTION_COLUMN}\\b`),
  ];
};

/**
 * The parts of a plan judged on their own. Citus plans an uncorrelated sub-select (an
 * InitPlan, a CTE) and each arm of a UNION ALL first and separately (recursive planning), their
 * results passed to the rest as values. A correlated sub-select (a SubPlan) is pushed down with
 * its outer query, which Citus allows only when the correlation is on the distribution column.
 * Within one part, every distributed table must be routed alike.
 */
const SEPARATE_PARTS = new Set(['InitPlan', 'Member', 'SubPlan']);

/** Every alias a plan subtree defines (scans of tables, CTEs, sub-selects, functions). */
const aliasesIn = (node: PlanNode): string[] => [...(node.Alias ? [node.Alias] : []), ...(node.Plans ?? []).flatMap(aliasesIn)];

/** Judges one statement by its plan (EXPLAIN (VERBOSE, FORMAT JSON)). */
export function judgePlan(text: string, plan: PlanNode): StatementVerdict {
  interface Part { scans: Array<{ alias: string; table: string }>; conditions: string[]; subplan?: PlanNode }
  const parts: Part[] = [];
  const allConditions: string[] = [];
  const features: Array<{ feature: string; aliases: string[] }> = [];
  let insertSubqueries = false;
  const walk = (node: PlanNode, part: Part): string[] => {
    let mine = part;
    const relationship = String(node['Parent Relationship'] ?? '');
    if (SEPARATE_PARTS.has(relationship)) {
      mine = { scans: [], conditions: [], ...(relationship === 'SubPlan' ? { subplan: node } : {}) };
      parts.push(mine);
    }
    const below = (node.Plans ?? []).flatMap((child) => walk(child, mine));
    for (const key of CONDITION_KEYS) {
      const value = node[key];
      if (typeof value === 'string') {
        mine.conditions.push(value);
        allConditions.push(value);
      }
    }
    const here = [...below];
    const table = node['Relation Name'];
    if (table && TABLE_PLACEMENT[table] === 'distributed' && node['Node Type'] !== 'ModifyTable') {
      mine.scans.push({ alias: node.Alias ?? table, table });
      here.push(node.Alias ?? table);
    }
    if (node['Node Type'] === 'LockRows') features.push({ feature: 'FOR UPDATE/SHARE', aliases: here });
    if (node['Node Type'] === 'Recursive Union') features.push({ feature: 'WITH RECURSIVE', aliases: here });
    if (node['Node Type'] === 'Sample Scan') features.push({ feature: 'TABLESAMPLE', aliases: here });
    // INSERT … VALUES whose values hold a sub-select: Citus refuses it whatever is pinned.
    if (node['Node Type'] === 'ModifyTable' && node.Operation === 'Insert' && TABLE_PLACEMENT[String(node['Relation Name'])] === 'distributed') {
      const source = (node.Plans ?? []).find((child) => !SUBPLANS.has(String(child['Parent Relationship'] ?? '')));
      if (source && ['Result', 'Values Scan'].includes(source['Node Type']) && hasSubplan(source)) insertSubqueries = true;
    }
    return here;
  };
  const top: Part = { scans: [], conditions: [] };
  parts.push(top);
  walk(plan, top);

  const unquote = (alias: string) => (alias.startsWith('"') ? alias.slice(1, -1).replace(/""/g, '"') : alias);
  const edge = new RegExp(`${aliasPattern}\\.${DISTRIBUTION_COLUMN} = ${aliasPattern}\\.${DISTRIBUTION_COLUMN}\\b`, 'g');
  const pinned = new Set<string>();
  let crossShardJoin = false;
  const why: string[] = [];
  let fansOut = false;
  const tenantEquality = new RegExp(`${aliasPattern}\\.(?:${DISTRIBUTION_COLUMN}|__tenant) = ${aliasPattern}\\.(?:${DISTRIBUTION_COLUMN}|__tenant)\\b`, 'g');
  for (const part of parts) {
    const { scans } = part;
    // Conditions of the whole plan count: a correlated sub-select names the outer alias.
    const conditions = [...part.conditions, ...allConditions];
    for (const scan of scans) if (conditions.some((condition) => pinPatterns(scan.alias).some((pattern) => pattern.test(condition)))) pinned.add(scan.alias);
    // In a correlated sub-select, tenant_id = <the outer row's tenant> routes the table with its
    // outer row (a value per outer row, as a pin is a value per statement).
    const withOuterRow = new Set<string>();
    let outer = new Set<string>();
    if (part.subplan) {
      const inner = new Set(aliasesIn(part.subplan).map(unquote));
      const referenced = [...part.conditions.join(' ').matchAll(new RegExp(`${aliasPattern}\\.[\\w$]+`, 'g'))].map((match) => unquote(match[1]!));
      outer = new Set(referenced.filter((alias) => !inner.has(alias) && !/^\d/.test(alias)));
      for (const condition of part.conditions) {
        for (const match of condition.matchAll(tenantEquality)) {
          const [a, b] = [unquote(match[1]!), unquote(match[2]!)];
          if (outer.has(a) !== outer.has(b)) withOuterRow.add(outer.has(a) ? b : a);
        }
      }
    }
    // Union-find over tenant_id = tenant_id equalities between the part's tables.
    const parent = new Map(scans.map((scan) => [scan.alias, scan.alias]));
    const root = (alias: string): string => {
      let at = alias;
      while (parent.get(at) !== at) at = parent.get(at)!;
      return at;
    };
    for (const condition of conditions) {
      for (const match of condition.matchAll(edge)) {
        const [a, b] = [unquote(match[1]!), unquote(match[2]!)];
        if (parent.has(a) && parent.has(b)) parent.set(root(a), root(b));
      }
    }
    const groups = new Map<string, boolean>();
    const routed = (alias: string) => pinned.has(alias) || withOuterRow.has(alias);
    for (const scan of scans) groups.set(root(scan.alias), (groups.get(root(scan.alias)) ?? false) || routed(scan.alias));
    // A table joined on tenant_id to a pinned one is pinned with it.
    for (const scan of scans) if (scans.some((other) => root(other.alias) === root(scan.alias) && pinned.has(other.alias))) pinned.add(scan.alias);
    const unpinnedGroups = [...groups.values()].filter((isRouted) => !isRouted).length;
    // Pinned groups all route to the tenant's shard; a group that is not pinned runs on every
    // shard, and can meet another group only through a repartition join.
    if (unpinnedGroups > 1 || (unpinnedGroups === 1 && groups.size > 1)) {
      crossShardJoin = true;
      why.push(`tables ${scans.map((scan) => scan.alias).join(', ')} in ${groups.size} groups, ${unpinnedGroups} not pinned; conditions: ${part.conditions.join(' | ')}`);
    }
    // Routed with the outer row, a sub-select's tables run where the outer row is (its part says whether that fans out).
    if (unpinnedGroups > 0) fansOut = true;
    // A correlated sub-select over tables it neither pins nor routes with its outer row.
    if (part.subplan && outer.size > 0 && unpinnedGroups > 0) {
      crossShardJoin = true;
      why.push(`a sub-select correlated on ${[...outer].join(', ')}, not on tenant_id: ${part.conditions.join(' | ')}`);
    }
  }
  const scans = parts.flatMap((part) => part.scans);
  return {
    text,
    tables: scans.map((scan) => ({ ...scan, pinned: pinned.has(scan.alias) })),
    crossShardJoin,
    fansOut,
    singleShardOnly: features.filter(({ aliases }) => aliases.some((alias) => !pinned.has(alias))).map(({ feature }) => feature),
    insertSubquery: insertSubqueries,
    why,
  };
}

const SUBPLANS = new Set(['InitPlan', 'SubPlan']);
const hasSubplan = (node: PlanNode): boolean =>
  (node.Plans ?? []).some((child) => SUBPLANS.has(String(child['Parent Relationship'] ?? '')) || hasSubplan(child));

/**
 * Plans each distinct data statement on `url` as the superuser (nothing is executed: EXPLAIN
 * without ANALYZE) and judges it. A statement PostgreSQL cannot plan any more (it named a
 * temporary table, or its parameters' types cannot be inferred) is returned in `unplanned`.
 */
export async function judgeStatements(url: string, statements: CapturedStatement[]): Promise<{ verdicts: StatementVerdict[]; unplanned: Array<{ text: string; error: string }> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const verdicts: StatementVerdict[] = [];
  const unplanned: Array<{ text: string; error: string }> = [];
  const seen = new Set<string>();
  try {
    let prepared = 0;
    for (const statement of statements) {
      if (!isDataStatement(statement.text)) continue;
      // One plan per statement text: the shapes matter, not each call's values.
      if (seen.has(statement.text)) continue;
      seen.add(statement.text);
      try {
        await client.query('BEGIN');
        let rows: Array<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>;
        if (statement.executeArgs !== undefined) {
          const name = `citus_check_${prepared++}`;
          await client.query(`PREPARE ${name} AS ${statement.text}`);
          rows = (await client.query(`EXPLAIN (VERBOSE, FORMAT JSON) EXECUTE ${name}${statement.executeArgs ? `(${statement.executeArgs})` : ''}`)).rows;
        } else {
          rows = (await client.query({ text: `EXPLAIN (VERBOSE, FORMAT JSON) ${statement.text}`, values: statement.values })).rows;
        }
        verdicts.push(judgePlan(statement.text, rows[0]!['QUERY PLAN'][0]!.Plan));
      } catch (error) {
        unplanned.push({ text: statement.text, error: (error as Error).message });
      } finally {
        await client.query('ROLLBACK');
      }
    }
  } finally {
    await client.end();
  }
  return { verdicts, unplanned };
}
