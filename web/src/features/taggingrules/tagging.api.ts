import type { RelatedRef } from '@intelnotes/server/contracts';
import { api } from '../../api/api';

export type MatchType = 'word' | 'phrase' | 'regex';

export interface RuleTest {
  pattern: string;
  match_type: MatchType;
  case_sensitive: boolean;
  text: string;
}

export interface RuleTestResult {
  matches: Array<{ start: number; end: number; text: string }>;
  /** More matches were found than listed. */
  truncated: boolean;
  keywords?: RelatedRef[];
}

const taggingApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** POST taggingrules/test/: where a rule matches a text. */
    testTaggingRule: build.query<RuleTestResult, RuleTest>({
      query: (body) => ({ url: 'taggingrules/test/', method: 'POST', body }),
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useTestTaggingRuleQuery } = taggingApi;
