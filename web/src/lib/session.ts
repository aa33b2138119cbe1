/**
 * The borrower's session: the token (local storage `token`, PRODUCT.md 4.5) and
 * where the error behaviour of PRODUCT.md 9 wants the app to go next. The base
 * query sets `redirect`; the app's `<RedirectListener>` navigates and clears it,
 * so the rule lives in one place and is testable without a router.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { clearDrafts, storage } from './storage';

export interface SessionState {
  token: string | null;
  /** Where to go after a session or lock error: `/login`, `/lock`, or nothing. */
  redirect: '/login' | '/lock' | null;
}

export const initialSession = (): SessionState => ({
  token: storage.get('token'),
  redirect: null,
});

export const sessionSlice = createSlice({
  name: 'session',
  initialState: initialSession,
  reducers: {
    /** Login or register succeeded: keep the token. */
    signedIn(state, action: PayloadAction<string>) {
      state.token = action.payload;
      storage.set('token', action.payload);
    },
    /** Logout, or 401/20001/7 from the server: forget the token and go to `/login`. */
    signedOut(state) {
      state.token = null;
      state.redirect = '/login';
      storage.set('token', null);
      clearDrafts();
    },
    /** 20003 account locked: go to the lock screen (the token stays; the lock is on the account). */
    locked(state) {
      state.redirect = '/lock';
    },
    redirected(state) {
      state.redirect = null;
    },
  },
});

export const { signedIn, signedOut, locked, redirected } = sessionSlice.actions;
