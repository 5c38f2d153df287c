import type { RelationGraph, RelationGraphEdge, RelationGraphKind, RelationGraphNode } from '@intelnotes/server/contracts';
import { api } from '../../api/api';

export type { RelationGraph, RelationGraphEdge, RelationGraphKind, RelationGraphNode };

/** `GET {path}/{id}/graph/`: a record's neighbours the reader may see (server/src/resources/graph.ts). */
export interface GraphArgs {
  /** The record's resource path, e.g. /assets/people. */
  path: string;
  id: string;
  depth: 1 | 2;
  /** The kinds whose records may be nodes; the server's default kinds when absent. */
  kinds?: readonly string[];
  limit?: number;
}

export const graphApi = api.injectEndpoints({
  endpoints: (build) => ({
    relationGraph: build.query<RelationGraph, GraphArgs>({
      query: ({ path, id, depth, kinds, limit }) => ({
        url: `${path.replace(/^\/+|\/+$/g, '')}/${encodeURIComponent(id)}/graph/`,
        params: { depth: String(depth), ...(kinds ? { kinds: kinds.join(',') } : {}), ...(limit ? { limit: String(limit) } : {}) },
      }),
      // Any write anywhere may change a record's neighbours: every engine write invalidates Counts.
      providesTags: ['Counts'],
    }),
  }),
});

export const { useRelationGraphQuery, useLazyRelationGraphQuery } = graphApi;
