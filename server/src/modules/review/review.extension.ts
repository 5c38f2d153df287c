/**
 * Review's part in the engine (resources/extensions.ts): a suggestion is presented with its
 * status and provenance, and a merge — of any two records, or of a suggestion folded into a
 * record (accept with link_to) — moves the other record's provenance to the survivor; a
 * deleted source takes the unreviewed suggestions only it made (forget-source.ts).
 */
import type { EngineExtension } from '../../resources/extensions.ts';
import { forgetSource, SUGGESTION_SOURCE_KINDS } from './forget-source.ts';
import { moveProvenance, provenanceOf, returnProvenance } from './review.repository.ts';

/** What a suggestion presents besides its fields. */
const PRESENTED = ['status', 'provenance'];

export const reviewExtension: EngineExtension = {
  name: 'review',

  presented: (resource) => (resource.review ? PRESENTED : []),

  present: async ({ tx, resource, rows }) => {
    if (!resource.review || resource.status === 'active') return null;
    const provenance = await provenanceOf(tx, resource.kind, rows.map((row) => row.id));
    return new Map(rows.map((row) => [row.id, { status: resource.status, provenance: provenance.get(row.id) ?? [] }]));
  },

  onMerge: async ({ tx }, { resource, survivorId, otherId }) =>
    resource.review ? moveProvenance(tx, resource.kind, otherId, survivorId) : undefined,

  undoMerge: async ({ tx }, { otherId }, recorded) => returnProvenance(tx, recorded as string[], otherId),

  // A deleted source (a raw data item) takes with it the suggestions only it made, unreviewed.
  beforeDelete: async (ctx, { resource, row, services }) => {
    if (SUGGESTION_SOURCE_KINDS.includes(resource.kind)) await forgetSource(ctx, services, { kind: resource.kind, id: row.id });
  },
};
