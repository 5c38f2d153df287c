import {
  combineReducers,
  configureStore,
  createListenerMiddleware,
  type ThunkDispatch,
  type UnknownAction,
} from '@reduxjs/toolkit';
import {
  FLUSH,
  PAUSE,
  PERSIST,
  PURGE,
  REGISTER,
  REHYDRATE,
  persistReducer,
  persistStore,
} from 'redux-persist';
import storage from 'redux-persist/es/storage';
import { toast } from 'react-toastify';
import { api } from '../api/api';
import { notify } from '../components/notify';
import { logout, setSession } from '../lib/session';
import { sessionSlice, userRefreshed } from './session.slice';
import { liveSlice } from './events/live.slice';
import { startLiveEvents } from './events/live-events';
import { pageReloadRequested } from './reload';
import { router } from './router';

const rootReducer = combineReducers({
  [api.reducerPath]: api.reducer,
  [sessionSlice.reducerPath]: sessionSlice.reducer,
  [liveSlice.reducerPath]: liveSlice.reducer,
});

// Stored under "persist:intelnotes" in local storage (redux-persist's "persist:" prefix).
// Only the session survives a reload; cached API data is always refetched.
const persistedReducer = persistReducer(
  { key: 'intelnotes', storage, whitelist: [sessionSlice.reducerPath], timeout: 5000 },
  rootReducer,
);

type State = ReturnType<typeof persistedReducer>;
type Dispatch = ThunkDispatch<State, unknown, UnknownAction>;

const listeners = createListenerMiddleware<State, Dispatch>();

// Cached responses depend on who is asking (public, paywall, admin), so they are dropped
// whenever the session changes. Tenant info depends only on the host and is kept, so the
// shell does not fall back to its loading state.
function resetApiCache(getState: () => State, dispatch: Dispatch): void {
  const tenant = api.endpoints.getTenant.select()(getState()).data;
  dispatch(api.util.resetApiState());
  if (tenant) void dispatch(api.util.upsertQueryData('getTenant', undefined, tenant));
}

listeners.startListening({
  actionCreator: setSession,
  effect: (_action, { getState, dispatch }) => resetApiCache(getState, dispatch),
});

listeners.startListening({
  actionCreator: pageReloadRequested,
  effect: (_action, { getState, dispatch }) => resetApiCache(getState, dispatch),
});

listeners.startListening({
  actionCreator: logout,
  effect: async (action, { getState, dispatch }) => {
    resetApiCache(getState, dispatch);
    await persistor.purge();
    if (action.payload.reason === 'expired') {
      toast.info('Your session has expired. Please sign in again.', { toastId: 'session-expired' });
    }
    await router.navigate('/login');
  },
});

listeners.startListening({
  matcher: api.endpoints.me.matchFulfilled,
  effect: (action, { dispatch }) => {
    dispatch(userRefreshed(action.payload));
  },
});

export const store = configureStore({
  reducer: persistedReducer,
  middleware: (getDefaultMiddleware) =>
    getDefaultMiddleware({
      serializableCheck: { ignoredActions: [FLUSH, REHYDRATE, PAUSE, PERSIST, PURGE, REGISTER] },
    })
      .prepend(listeners.middleware)
      .concat(api.middleware),
});

export const persistor = persistStore(store);

// The session's live event stream: opens once a session starts or is restored, closes on sign-out.
startLiveEvents(store, { navigate: (to) => void router.navigate(to), stickyToast: notify.sticky });

export type RootState = ReturnType<typeof store.getState>;
export type AppDispatch = typeof store.dispatch;
