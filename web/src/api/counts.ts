import { selectToken, useSessionSelector } from '../lib/session';
import type { EntityCounts, KindCount } from '@intelnotes/server/contracts';
import { api } from './api';

export type { EntityCounts, KindCount };

const countsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Signed in: public + paywall counts, and hidden ones for admins. */
    entitiesCount: build.query<EntityCounts, void>({
      query: () => 'tools/entities-count/',
      // Creating, editing or deleting records invalidates 'Counts' (api/resources.ts).
      providesTags: ['Counts'],
    }),
    /** Signed out (no token): public and paywalled counts. */
    freeAheadEntitiesCount: build.query<EntityCounts, void>({
      query: () => 'tools/free-ahead-entities-count/',
      providesTags: ['Counts'],
    }),
  }),
});

/** A count to show: a total for signed-in users, public and locked paywall counts for visitors. */
export type ShownCount =
  | { signedIn: true; total: number }
  | { signedIn: false; public: number; paywall: number };

/** The counts the current audience may see (SPEC §1, §6): the endpoint follows the session. */
export function useEntityCounts() {
  const signedIn = useSessionSelector(selectToken) !== null;
  const member = countsApi.useEntitiesCountQuery(undefined, { skip: !signedIn });
  const visitor = countsApi.useFreeAheadEntitiesCountQuery(undefined, { skip: signedIn });
  const result = signedIn ? member : visitor;

  /** Sums the given kinds; null while the counts are not loaded. */
  const countOf = (kinds: readonly string[]): ShownCount | null => {
    if (!result.data) return null;
    const of = (pick: (count: KindCount) => number) =>
      kinds.reduce((sum, kind) => sum + (result.data?.[kind] ? pick(result.data[kind]) : 0), 0);
    const publicCount = of((count) => count.public_count);
    const paywallCount = of((count) => count.paywall_count);
    if (!signedIn) return { signedIn: false, public: publicCount, paywall: paywallCount };
    return { signedIn: true, total: publicCount + paywallCount + of((count) => count.hidden_count ?? 0) };
  };

  return { countOf, isLoading: result.isLoading, isError: result.isError };
}
