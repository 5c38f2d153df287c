/**
 * A large intelbook for the reader's test and benchmark (facts-reader.test.ts, bench/facts.ts):
 * `roots` top-level facts in one section, each with `children` children, each with
 * `grandchildren` of its own — 100 × 9 × 10 gives 10,000 facts. Every third child is
 * paywalled (and so are its children: a child is never more visible than its parent); among
 * the public children's children, every fourth (n = 0, 4, 8) is hidden. Written in three
 * statements in the tenant's transaction, as the engine would store them.
 */
import { sql } from 'drizzle-orm';
import { query, type Tx } from '../../db/client.ts';

export interface TreeShape {
  roots: number;
  children: number;
  grandchildren: number;
}

export const TEN_THOUSAND: TreeShape = { roots: 100, children: 9, grandchildren: 10 };

/** What a public visitor and a paywall reader of such a tree see, and what is locked for the first. */
export function expectedCounts(shape: TreeShape): { total: number; publicShown: number; publicLocked: number; paywallShown: number } {
  const paywalledChildren = Math.ceil(shape.children / 3);
  const publicChildren = shape.children - paywalledChildren;
  const hiddenGrandchildren = Math.ceil(shape.grandchildren / 4);
  const total = shape.roots * (1 + shape.children * (1 + shape.grandchildren));
  const publicShown = shape.roots * (1 + publicChildren * (1 + shape.grandchildren - hiddenGrandchildren));
  const publicLocked = shape.roots * paywalledChildren * (1 + shape.grandchildren);
  return { total, publicShown, publicLocked, paywallShown: publicShown + publicLocked };
}

export async function seedFactTree(tx: Tx, tenantId: string, sectionId: string, shape: TreeShape, keywordId: string | null = null): Promise<void> {
  await query(tx, sql`
    INSERT INTO facts (tenant_id, text, position, section, visibility)
    SELECT ${tenantId}, 'Root fact ' || n || ' about lithium supply', n, ${sectionId}, 'public'
    FROM generate_series(0, ${shape.roots - 1}) AS n`);
  await query(tx, sql`
    INSERT INTO facts (tenant_id, text, parent, position, section, visibility)
    SELECT ${tenantId}, 'Child fact ' || r.position || '.' || n || ' on prices and mines', r.id, n, ${sectionId},
           CASE WHEN n % 3 = 0 THEN 'paywalled' ELSE 'public' END
    FROM facts r CROSS JOIN generate_series(0, ${shape.children - 1}) AS n
    WHERE r.parent IS NULL AND r.section = ${sectionId}`);
  await query(tx, sql`
    INSERT INTO facts (tenant_id, text, parent, position, section, visibility, keywords)
    SELECT ${tenantId}, 'Detail ' || c.id || ' #' || n, c.id, n, ${sectionId},
           CASE WHEN c.visibility = 'paywalled' THEN 'paywalled' WHEN n % 4 = 0 THEN 'hidden' ELSE 'public' END,
           CASE WHEN ${keywordId}::uuid IS NOT NULL AND n = 1 THEN ARRAY[${keywordId}::uuid] ELSE '{}' END
    FROM facts c CROSS JOIN generate_series(0, ${shape.grandchildren - 1}) AS n
    WHERE c.parent IS NOT NULL AND c.section = ${sectionId}`);
}
