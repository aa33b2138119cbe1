/**
 * `renderWithProviders(ui, {route, path, preloadedState})`: renders a screen with
 * a fresh store, the providers and a memory router at `route`, and returns the
 * store so tests can read the session.
 */
import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { AppProvider } from '@/app/provider';
import { makeStore, type RootState } from '@/app/store';
import { RouteEffects } from '@/components/route-effects';

export interface RenderOptions {
  route?: string;
  path?: string;
  preloadedState?: Partial<RootState>;
  /** Other routes to mount, e.g. `{ '/login': <p>login</p> }`. */
  others?: Record<string, ReactElement>;
}

export function renderWithProviders(ui: ReactElement, options: RenderOptions = {}) {
  const { route = '/', path = route.split('?')[0], preloadedState, others = {} } = options;
  const store = makeStore(preloadedState);
  const router = createMemoryRouter(
    [
      {
        element: (
          <>
            <RouteEffects />
            <Outlet />
          </>
        ),
        children: [
          { path, element: ui },
          ...Object.entries(others).map(([p, element]) => ({ path: p, element })),
        ],
      },
    ],
    { initialEntries: [route] },
  );
  const result = render(
    <AppProvider store={store}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...result, store, router };
}
