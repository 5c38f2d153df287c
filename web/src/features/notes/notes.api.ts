import type { ActivityItem, ActivityPage, Note, NoteUser, Teammates } from '@intelnotes/server/contracts';
import { api } from '../../api/api';

export type { ActivityItem, ActivityPage, Note, NoteUser };

/** The notes resource's path (server/src/modules/notes/notes.resource.ts). */
export const NOTES_PATH = 'notes';

/** A record's timeline is refetched after any engine write (they all invalidate Counts) and after a note is written here. */
const ACTIVITY_TAG = 'Counts' as const;

export interface ActivityArgs {
  /** The record's resource path, e.g. /assets/organizations. */
  path: string;
  id: string;
  limit: number;
  offset: number;
}

export interface NoteInput {
  body: string;
  mentions: string[];
}

const notesApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** GET {path}/{id}/activity/: notes, edits and accepted suggestions, newest first (research users and admins). */
    activity: build.query<ActivityPage, ActivityArgs>({
      query: ({ path, id, limit, offset }) => ({
        url: `${path.replace(/^\/+|\/+$/g, '')}/${encodeURIComponent(id)}/activity/`,
        params: { limit: String(limit), ...(offset > 0 ? { offset: String(offset) } : {}) },
      }),
      providesTags: [ACTIVITY_TAG],
    }),
    /** GET notes/teammates/: whom a note may mention. */
    teammates: build.query<NoteUser[], void>({
      query: () => `${NOTES_PATH}/teammates/`,
      transformResponse: (answer: Teammates) => answer.results,
    }),
    addNote: build.mutation<Note, NoteInput & { record: string }>({
      query: (body) => ({ url: `${NOTES_PATH}/`, method: 'POST', body }),
      invalidatesTags: (_note, error) => (error ? [] : [ACTIVITY_TAG]),
    }),
    editNote: build.mutation<Note, Partial<NoteInput> & { id: string }>({
      query: ({ id, ...body }) => ({ url: `${NOTES_PATH}/${encodeURIComponent(id)}/`, method: 'PATCH', body }),
      invalidatesTags: (_note, error) => (error ? [] : [ACTIVITY_TAG]),
    }),
    deleteNote: build.mutation<void, string>({
      query: (id) => ({ url: `${NOTES_PATH}/${encodeURIComponent(id)}/`, method: 'DELETE' }),
      invalidatesTags: (_result, error) => (error ? [] : [ACTIVITY_TAG]),
    }),
  }),
});

export const { useActivityQuery, useTeammatesQuery, useAddNoteMutation, useEditNoteMutation, useDeleteNoteMutation } = notesApi;
