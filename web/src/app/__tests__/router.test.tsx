/**
 * The router (app/router.tsx): screens load lazily, the `code` and `channel`
 * query parameters are saved before the screen renders and on every navigation
 * after (PRODUCT.md 3), signed-out borrowers are sent to `/login` and unknown
 * paths to `/`.
 */
import { act, render, screen } from '@testing-library/react';
import { createMemoryRouter, createRoutesFromElements, RouterProvider } from 'react-router';
import { AppProvider } from '@/app/provider';
import { routes } from '@/app/router';
import { makeStore } from '@/app/store';
import { answer, server } from '@/testing/server';

beforeEach(() => {
  server.use(answer('jackey/loan/getAllCompanyConfigs', {}), answer('jackey/loan/getCustomerService', null));
});

function renderAt(route: string) {
  const router = createMemoryRouter(createRoutesFromElements(routes), { initialEntries: [route] });
  render(
    <AppProvider store={makeStore()}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return router;
}

const heading = (name: string) => screen.findByRole('heading', { name }, { timeout: 5000 });

describe('router', () => {
  it('saves code and channel before the sign-up screen renders, which pre-fills the invite code', async () => {
    renderAt('/register?code=ABC123&channel=ads');
    await heading('Sign Up');
    expect((screen.getByRole('textbox', { name: 'Invite code' }) as HTMLInputElement).value).toBe('ABC123');
    expect(localStorage.getItem('inviteCode')).toBe('ABC123');
    expect(localStorage.getItem('channel')).toBe('ads');
  });

  it('saves them on later navigations too, and keeps them when a URL has none', async () => {
    const router = renderAt('/login');
    await heading('Sign In');
    expect(localStorage.getItem('inviteCode')).toBeNull();
    await act(() => router.navigate('/register?code=LATER'));
    await heading('Sign Up');
    expect(localStorage.getItem('inviteCode')).toBe('LATER');
    await act(() => router.navigate('/login?channel=sms'));
    await heading('Sign In');
    expect(localStorage.getItem('inviteCode')).toBe('LATER');
    expect(localStorage.getItem('channel')).toBe('sms');
  });

  it('sends a signed-out borrower from an unknown path, via home, to sign in', async () => {
    const router = renderAt('/no/such/page');
    await heading('Sign In');
    expect(router.state.location.pathname).toBe('/login');
  });
});
