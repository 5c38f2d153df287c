/**
 * The record an entity row of raw_data_entities (aliased `e`) names — linked, or the suggestion
 * made of it — joined by its kind, in one place for every reader of what processing found
 * (extract-data, the analysis report). Its kind decides which one join matches, so the
 * coalesced name and status are that record's.
 */
import { sql } from 'drizzle-orm';

export const ENTITY_RECORD_JOINS = sql`
  LEFT JOIN organizations o ON e.record_kind = 'organizations' AND o.id = e.record_id
  LEFT JOIN people p ON e.record_kind = 'people' AND p.id = e.record_id
  LEFT JOIN keywords k ON e.record_kind = 'keyword' AND k.id = e.record_id
  LEFT JOIN geos g ON e.record_kind = 'geos' AND g.id = e.record_id
  LEFT JOIN cities c ON e.record_kind = 'cities' AND c.id = e.record_id
  LEFT JOIN terminology t ON e.record_kind = 'terminology' AND t.id = e.record_id`;

/** The named record's display name (null when there is none, or it is gone). */
export const ENTITY_RECORD_NAME = sql`coalesce(o.display_name, p.display_name, k.display_name, g.display_name, c.display_name, t.display_name)`;

/** The named organization's or person's review status (suggested, active, rejected); null for the others. */
export const ENTITY_RECORD_STATUS = sql`coalesce(o.status, p.status)`;
