/**
 * The sign-in form (PRODUCT.md 3, 5): the button waits for the required fields,
 * the phone keeps digits only, bad input gets the right message before any call,
 * a server refusal shows its translated message, and success keeps the token.
 * Sign-up asks for the privacy notice (12.6): the version shown is the one ticked
 * and sent, with the language its text was shown in; a notice changed meanwhile, or
 * another language chosen after ticking, must be ticked again.
 */
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import LoginScreen from '@/features/auth/login-screen';
import { answer, fail, server } from '@/testing/server';
import { renderWithProviders } from '@/testing/render';
import { setLanguage } from '@/lib/i18n';

const NOTICE = { privacyNoticeVersion: '2026-11', 'privacy-notice': 'We collect your ID to verify you.' };

beforeEach(() => {
  server.use(answer('jackey/loan/getAllCompanyConfigs', NOTICE), answer('jackey/loan/getCustomerService', null));
});

const consent = () => screen.getByRole('checkbox', { name: /I have read and accept the privacy notice/ }) as HTMLInputElement;

const field = (name: string) => screen.getByRole('textbox', { name }) as HTMLInputElement;
const secret = (name: string) => screen.getByLabelText(name, { selector: 'input' }) as HTMLInputElement;
const type = (el: HTMLElement, value: string) => fireEvent.change(el, { target: { value } });

describe('sign in / sign up', () => {
  it('register: button enabled only when every field is filled; mismatched passwords are refused', async () => {
    let called = false;
    server.use(http.post('http://localhost/jackey/user/register', () => { called = true; return HttpResponse.json({}); }));
    localStorage.setItem('inviteCode', 'WELCOME');
    renderWithProviders(<LoginScreen />, { route: '/register' });
    expect(screen.getByRole('heading', { name: 'Sign Up' })).toBeInTheDocument();
    const button = screen.getByRole('button', { name: 'Sign Up' });
    expect(field('Invite code').value).toBe('WELCOME');
    expect(button).toBeDisabled();
    type(field('Phone number'), '0917-123-4567-99');
    expect(field('Phone number').value).toBe('09171234567');
    type(secret('Password'), 'abcdefgh');
    type(secret('Confirm password'), 'abcdefgX');
    expect(button).toBeDisabled(); // the SMS code is missing
    type(field('SMS code'), '12a345');
    expect(field('SMS code').value).toBe('12345');
    expect(button).toBeDisabled(); // the privacy notice is not accepted yet
    await waitFor(() => expect(consent()).toBeEnabled());
    expect(consent()).not.toBeChecked();
    fireEvent.click(consent());
    expect(button).toBeEnabled();
    fireEvent.click(button);
    expect(await screen.findByRole('alert')).toHaveTextContent('The code is 6 digits.');
    type(field('SMS code'), '123456');
    fireEvent.click(button);
    expect(await screen.findByRole('alert')).toHaveTextContent('The passwords do not match.');
    expect(called).toBe(false);
  });

  it('register: sends the register code to the phone and the code with the registration (PRODUCT.md 12.2)', async () => {
    const sent: unknown[] = [];
    server.use(
      http.post('http://localhost/jackey/sms/register', async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json({ code: 0, msg: 'ok', data: null });
      }),
      http.post('http://localhost/jackey/user/register', async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json({ code: 0, msg: 'ok', data: { token: 'fresh' } });
      }),
    );
    server.use(answer('jackey/loan/getAllCompanyConfigs', { ...NOTICE, demo: true }));
    localStorage.setItem('inviteCode', 'WELCOME');
    const { router } = renderWithProviders(<LoginScreen />, { route: '/register', others: { '/': <p>home</p> } });
    const send = screen.getByRole('button', { name: 'Send code' });
    expect(send).toBeDisabled(); // no phone yet
    type(field('Phone number'), '09171234567');
    fireEvent.click(send);
    await waitFor(() => expect(sent).toHaveLength(1));
    // The text comes in the app's language (issue 52).
    expect(sent[0]).toMatchObject({ mobile: '09171234567', lang: 'en' });
    // The demo sends no real SMS: its inbox is linked once a code was sent.
    expect(await screen.findByRole('link', { name: 'Demo: read the text message' })).toHaveAttribute(
      'href',
      '/sandbox/sms/09171234567',
    );
    type(field('SMS code'), '654321');
    type(secret('Password'), 'abcdefgh');
    type(secret('Confirm password'), 'abcdefgh');
    fireEvent.click(await screen.findByRole('checkbox', { name: /privacy notice \(version 2026-11\)/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(sent[1]).toMatchObject({
      mobile: '09171234567',
      smsCode: '654321',
      telemarketingCode: 'WELCOME',
      privacyNoticeVersion: '2026-11',
      // The notice has no translations: its English text was shown.
      privacyNoticeLanguage: 'en',
    });
  });

  it('register: records the language the notice was read in; another language unticks the box (12.6)', async () => {
    const sent: Record<string, unknown>[] = [];
    const texts = { en: 'We collect your ID.', zh: '我们收集您的证件。', fil: 'Kinokolekta namin ang iyong ID.' };
    server.use(
      answer('jackey/loan/getAllCompanyConfigs', { ...NOTICE, translations: { 'privacy-notice': texts } }),
      http.post('http://localhost/jackey/user/register', async ({ request }) => {
        sent.push((await request.json()) as Record<string, unknown>);
        return HttpResponse.json({ code: 0, msg: 'ok', data: { token: 'fresh' } });
      }),
    );
    localStorage.setItem('inviteCode', 'WELCOME');
    try {
      const { router } = renderWithProviders(<LoginScreen />, { route: '/register', others: { '/': <p>home</p> } });
      type(field('Phone number'), '09171234567');
      type(field('SMS code'), '654321');
      type(secret('Password'), 'abcdefgh');
      type(secret('Confirm password'), 'abcdefgh');
      const box = () => screen.getByTestId('privacy-consent') as HTMLInputElement;
      await waitFor(() => expect(box()).toBeEnabled());
      fireEvent.click(box());
      expect(box()).toBeChecked();
      // Ticked in English, then the borrower switches to Filipino: the notice now
      // reads in Filipino, which was not what was ticked.
      fireEvent.click(screen.getByRole('button', { name: 'Filipino' }));
      await waitFor(() => expect(box()).not.toBeChecked());
      fireEvent.click(screen.getByRole('button', { name: 'Basahin ang abiso sa privacy' }));
      expect(await screen.findByText(texts.fil)).toBeInTheDocument();
      fireEvent.click(screen.getByRole('button', { name: 'OK' }));
      await waitFor(() => expect(screen.queryByText(texts.fil)).not.toBeInTheDocument());
      fireEvent.click(box());
      fireEvent.click(screen.getByRole('button', { name: 'Mag-sign up' }));
      await waitFor(() => expect(router.state.location.pathname).toBe('/'));
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatchObject({ privacyNoticeVersion: '2026-11', privacyNoticeLanguage: 'fil' });
    } finally {
      await act(() => setLanguage('en', false));
    }
  });

  it('register: the privacy notice opens from the form; a notice changed meanwhile must be accepted again (12.6)', async () => {
    const sent: Record<string, unknown>[] = [];
    let version = '2026-11';
    server.use(
      http.post('http://localhost/jackey/loan/getAllCompanyConfigs', () =>
        HttpResponse.json({ code: 0, msg: 'ok', data: { ...NOTICE, privacyNoticeVersion: version } }),
      ),
      http.post('http://localhost/jackey/user/register', async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        sent.push(body);
        if (body.privacyNoticeVersion !== version) {
          return HttpResponse.json({
            code: 10004,
            msg: `privacyNoticeVersion: accept the current privacy notice (version ${version})`,
            data: null,
          });
        }
        return HttpResponse.json({ code: 0, msg: 'ok', data: { token: 'fresh' } });
      }),
    );
    localStorage.setItem('inviteCode', 'WELCOME');
    const { router } = renderWithProviders(<LoginScreen />, { route: '/register', others: { '/': <p>home</p> } });
    await screen.findByRole('checkbox', { name: /version 2026-11/ });
    fireEvent.click(screen.getByRole('button', { name: 'Read the privacy notice' }));
    expect(await screen.findByText('We collect your ID to verify you.')).toBeInTheDocument();
    expect(screen.getByText('Version 2026-11')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    type(field('Phone number'), '09171234567');
    type(field('SMS code'), '654321');
    type(secret('Password'), 'abcdefgh');
    type(secret('Confirm password'), 'abcdefgh');
    fireEvent.click(await screen.findByRole('checkbox', { name: /version 2026-11/ }));
    // The lender publishes a new notice while the form is open.
    version = '2026-12';
    fireEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The privacy notice has changed. Please read it and accept the new version.',
    );
    const renewed = await screen.findByRole('checkbox', { name: /version 2026-12/ });
    expect(renewed).not.toBeChecked();
    expect(screen.getByRole('button', { name: 'Sign Up' })).toBeDisabled();
    fireEvent.click(renewed);
    fireEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(sent.map((body) => body.privacyNoticeVersion)).toEqual(['2026-11', '2026-12']);
  });

  it('login: short phone and short password get their messages', async () => {
    renderWithProviders(<LoginScreen />, { route: '/login' });
    type(field('Phone number'), '0917');
    type(secret('Password'), 'abcdefgh');
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Enter an 11-digit phone number starting with 0.');
    type(field('Phone number'), '09171234567');
    type(secret('Password'), 'short');
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('The password needs at least 8 characters.'));
  });

  it('shows the server refusal and keeps the token on success', async () => {
    server.use(fail('jackey/user/login', 10002, 'wrong phone number or password'));
    const { store, router } = renderWithProviders(<LoginScreen />, { route: '/login', others: { '/': <p>home</p> } });
    type(field('Phone number'), '09171234567');
    type(secret('Password'), 'abcdefgh');
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    // The server says nothing of the account (12.2): the screen says what wrong
    // passwords do and how a lock is lifted.
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Wrong phone number or password. Five wrong passwords in a row lock the account: “Forgot password?” unlocks it.',
    );
    server.use(answer('jackey/user/login', { token: 'new-token' }));
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(store.getState().session.token).toBe('new-token');
    expect(localStorage.getItem('token')).toBe('new-token');
  });
});
