import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { logout } from '../../lib/session';

/**
 * How the session's live event stream is doing (app/events/live-events.ts), for the header's
 * indicator. Not persisted: a reloaded page opens its own stream.
 * - connecting: the first attempt of a stream is under way
 * - connected: the stream is open
 * - reconnecting: the stream failed and is retried (every 3 s, at most 5 times in a row)
 * - offline: no stream — signed out, the retries ran out, or the server closed it for good
 */
export type LiveStatus = 'connecting' | 'connected' | 'reconnecting' | 'offline';

export const liveSlice = createSlice({
  name: 'live',
  initialState: { status: 'offline' as LiveStatus },
  reducers: {
    liveStatusChanged: (state, action: PayloadAction<LiveStatus>) => {
      state.status = action.payload;
    },
  },
  extraReducers: (builder) => {
    builder.addCase(logout, (state) => {
      state.status = 'offline';
    });
  },
  selectors: {
    selectLiveStatus: (state) => state.status,
  },
});

export const { liveStatusChanged } = liveSlice.actions;
export const { selectLiveStatus } = liveSlice.selectors;
