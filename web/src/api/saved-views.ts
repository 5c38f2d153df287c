import type { SavedView } from '@intelnotes/server/contracts';
import { api } from './api';
import { resourceTags } from './resources';

/**
 * Saved views (server/src/modules/views): the engine's routes at views/ (list, create, edit,
 * delete — through the resource calls) and each user's default view per table.
 */
export type { SavedView };

/** The engine path of saved views. */
export const SAVED_VIEWS_PATH = '/views';

const viewsTouched = (id: string) => [resourceTags.list(SAVED_VIEWS_PATH), resourceTags.record(SAVED_VIEWS_PATH, id)];

export const savedViewsApi = api.injectEndpoints({
  endpoints: (build) => ({
    makeDefaultView: build.mutation<SavedView, string>({
      query: (id) => ({ url: `views/${encodeURIComponent(id)}/default/`, method: 'PUT' }),
      invalidatesTags: (_view, error, id) => (error ? [] : viewsTouched(id)),
    }),
    clearDefaultView: build.mutation<void, string>({
      query: (id) => ({ url: `views/${encodeURIComponent(id)}/default/`, method: 'DELETE' }),
      invalidatesTags: (_result, error, id) => (error ? [] : viewsTouched(id)),
    }),
  }),
});

export const { useMakeDefaultViewMutation, useClearDefaultViewMutation } = savedViewsApi;
