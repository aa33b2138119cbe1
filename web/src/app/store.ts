/**
 * The Redux store: the API slice's cache and the session. `makeStore` takes a
 * preloaded state so tests build their own store (src/testing).
 */
import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { api } from '@/lib/api';
import { sessionSlice } from '@/lib/session';

const rootReducer = combineReducers({
  [api.reducerPath]: api.reducer,
  session: sessionSlice.reducer,
});

export type RootState = ReturnType<typeof rootReducer>;

export function makeStore(preloadedState?: Partial<RootState>) {
  return configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefault) => getDefault().concat(api.middleware),
  });
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
