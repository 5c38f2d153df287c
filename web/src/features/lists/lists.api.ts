import type { ResourcePage, ResourceRecord } from '@intelnotes/server/contracts';
import { api } from '../../api/api';

/**
 * List calls beyond the resource engine's (server/src/modules/lists/lists.routes.ts): a list
 * by kind and slug, and its ordered items. Tags follow api/resources.ts ("{path}|{id}"), so
 * an edit through the shared form refreshes the list here and a change of items refreshes
 * the pages of the records it touched.
 */

const LISTS_PATH = '/lists';
const listsTag = { type: 'Resource' as const, id: `${LISTS_PATH}|LIST` };
const recordTag = (path: string, id: string) => ({ type: 'Resource' as const, id: `${path}|${id}` });
const itemsTag = (listId: string) => ({ type: 'Resource' as const, id: `${LISTS_PATH}|${listId}|ITEMS` });
const historyTag = (listId: string) => ({ type: 'Resource' as const, id: `${LISTS_PATH}|${listId}|HISTORY` });

/** What changing a list's items makes stale: its items, the list (updated_at, history), and the record's page and lists. */
const touched = (listId: string, itemPath: string, itemId?: string) => [
  itemsTag(listId),
  recordTag(LISTS_PATH, listId),
  historyTag(listId),
  listsTag,
  { type: 'Resource' as const, id: `${itemPath}|LIST` },
  ...(itemId ? [recordTag(itemPath, itemId), { type: 'Resource' as const, id: `${itemPath}|${itemId}|HISTORY` }] : []),
];

export const listsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** GET lists/{segment}/{slug or id}/: an earlier slug is redirected by the server, so the answer carries the current one. */
    listBySlug: build.query<ResourceRecord, { segment: string; slug: string }>({
      query: ({ segment, slug }) => `lists/${encodeURIComponent(segment)}/${encodeURIComponent(slug)}/`,
      providesTags: (record) => (record ? [recordTag(LISTS_PATH, record.id), listsTag] : [listsTag]),
    }),
    listItems: build.query<ResourcePage, { listId: string; limit: number; offset: number }>({
      query: ({ listId, limit, offset }) => ({ url: `lists/${encodeURIComponent(listId)}/items/`, params: { limit, offset } }),
      providesTags: (_page, _error, { listId }) => [itemsTag(listId)],
    }),
    addListItem: build.mutation<ResourceRecord, { listId: string; itemId: string; itemPath: string }>({
      query: ({ listId, itemId }) => ({ url: `lists/${encodeURIComponent(listId)}/items/`, method: 'POST', body: { id: itemId } }),
      invalidatesTags: (_item, error, { listId, itemId, itemPath }) => (error ? [] : touched(listId, itemPath, itemId)),
    }),
    removeListItem: build.mutation<void, { listId: string; itemId: string; itemPath: string }>({
      query: ({ listId, itemId }) => ({ url: `lists/${encodeURIComponent(listId)}/items/${encodeURIComponent(itemId)}/`, method: 'DELETE' }),
      invalidatesTags: (_result, error, { listId, itemId, itemPath }) => (error ? [] : touched(listId, itemPath, itemId)),
    }),
    /** Puts the items named in this order, in the places they held together. */
    reorderListItems: build.mutation<void, { listId: string; ids: string[]; itemPath: string }>({
      query: ({ listId, ids }) => ({ url: `lists/${encodeURIComponent(listId)}/items/order/`, method: 'PUT', body: { ids } }),
      invalidatesTags: (_result, error, { listId, itemPath }) => (error ? [] : touched(listId, itemPath)),
    }),
  }),
});

export const { useListBySlugQuery, useListItemsQuery, useAddListItemMutation, useRemoveListItemMutation, useReorderListItemsMutation } = listsApi;
