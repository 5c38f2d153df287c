import { api } from '../../../api/api';
import type { OperatorAnswer, OperatorQuestion, StructuredQueryInput, ValidateQueryRequest } from '@intelnotes/server/contracts';

/** The Operator's calls (server/src/modules/operator, docs/operator.md). */
const operatorApi = api.injectEndpoints({
  endpoints: (build) => ({
    /**
     * A question turned into a structured query. A POST, yet read like a query: the same
     * question asks once, and the answer is kept while the page shows it.
     */
    nlpToQuery: build.query<OperatorAnswer, string>({
      query: (question) => ({ url: 'ai-assistant/queries/nlp-to-query', method: 'POST', body: { query: question } satisfies OperatorQuestion }),
      keepUnusedDataFor: 300,
    }),
    /** A query edited by hand, checked against the resources' metadata: the same answer, or a 400 naming the field. */
    validateQuery: build.mutation<OperatorAnswer, StructuredQueryInput>({
      query: (query) => ({ url: 'ai-assistant/queries/validate', method: 'POST', body: { query } satisfies ValidateQueryRequest }),
    }),
  }),
});

export const { useNlpToQueryQuery, useValidateQueryMutation } = operatorApi;
