/**
 * The base query's envelope and error behaviour (PRODUCT.md 9), through a real
 * store and the MSW server: success unwraps `data`; 401, 20001 and 7 sign out
 * and ask for `/login`; 20003 asks for `/lock`; other codes show
 * `service_error_{code}` or the server message; HTTP errors and lost connections
 * show `common_network_error` with the status.
 */
import { http, HttpResponse } from 'msw';
import { makeStore } from '@/app/store';
import { api } from '@/lib/api';
import { forgetPosition } from '@/lib/log-position';
import { setLanguage } from '@/lib/i18n';
import type { ApiFailure } from '@/lib/envelope';
import { answer, fail, server } from '@/testing/server';

const probe = api.injectEndpoints({
  endpoints: (build) => ({
    probe: build.mutation<unknown, void>({ query: () => 'jackey/probe' }),
  }),
});

async function call(token: string | null = 'tok') {
  localStorage.setItem('token', token ?? '');
  const store = makeStore({ session: { token, redirect: null } });
  const result = await store.dispatch(probe.endpoints.probe.initiate());
  return { store, result: result as { data?: unknown; error?: ApiFailure } };
}

describe('base query', () => {
  beforeEach(() => setLanguage('en', false));

  it('unwraps data from a code-0 envelope and sends the bearer token', async () => {
    let auth: string | null = null;
    server.use(
      http.post('http://localhost/jackey/probe', ({ request }) => {
        auth = request.headers.get('authorization');
        return HttpResponse.json({ code: 0, msg: 'ok', data: { a: 1 } });
      }),
    );
    const { result, store } = await call('secret');
    expect(result.data).toEqual({ a: 1 });
    expect(auth).toBe('Bearer secret');
    expect(store.getState().session.redirect).toBeNull();
  });

  it('sends no X-Security-Token: the unlock is on the account, not a token', async () => {
    let header: string | null = 'unset';
    sessionStorage.setItem('unlockToken', 'unl');
    server.use(
      http.post('http://localhost/jackey/probe', ({ request }) => {
        header = request.headers.get('x-security-token');
        return HttpResponse.json({ code: 0, msg: 'ok', data: null });
      }),
    );
    await call();
    expect(header).toBeNull();
  });

  it('sends the highest X-Log-Position it was answered as X-Min-Position (read-your-writes)', async () => {
    forgetPosition();
    const sent: (string | null)[] = [];
    const answers = ['12:40', '9:99', null, '12:41'];
    server.use(
      http.post('http://localhost/jackey/probe', ({ request }) => {
        sent.push(request.headers.get('x-min-position'));
        const position = answers[sent.length - 1];
        return HttpResponse.json(
          { code: 0, msg: 'ok', data: null },
          { headers: position ? { 'X-Log-Position': position } : {} },
        );
      }),
    );
    for (let i = 0; i < 5; i += 1) await call();
    // Nothing written yet, then the highest seen: an older position (9:99) or none
    // never moves it back.
    expect(sent).toEqual([null, '12:40', '12:40', '12:40', '12:41']);
    forgetPosition();
  });

  it.each([401, 20001, 7])('code %i signs out and redirects to /login', async (code) => {
    server.use(fail('jackey/probe', code, 'session problem'));
    const { result, store } = await call('tok');
    expect(result.error?.code).toBe(code);
    expect(store.getState().session).toEqual({ token: null, redirect: '/login' });
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('HTTP 401 without an envelope also signs out', async () => {
    server.use(http.post('http://localhost/jackey/probe', () => new HttpResponse('no', { status: 401 })));
    const { store } = await call('tok');
    expect(store.getState().session.redirect).toBe('/login');
  });

  it('code 20003 keeps the token and redirects to /lock', async () => {
    server.use(fail('jackey/probe', 20003, 'account locked: security'));
    const { result, store } = await call('tok');
    expect(result.error?.message).toBe('Your account is locked.');
    expect(store.getState().session).toEqual({ token: 'tok', redirect: '/lock' });
  });

  it('shows the translation of service_error_{code} with the numbers of the server message', async () => {
    server.use(fail('jackey/probe', 40008, 'wrong withdraw PIN (3 attempts left)'));
    const { result, store } = await call();
    expect(result.error?.message).toBe('Wrong withdraw PIN (3 attempts left).');
    expect(store.getState().session.redirect).toBeNull();
  });

  it('says how many tries of an SMS code are left, and not when the code is void (issue 52)', async () => {
    server.use(fail('jackey/probe', 10011, 'wrong verification code (2 attempts left)'));
    expect((await call()).result.error?.message).toBe('Wrong code: 2 attempts left.');
    server.use(fail('jackey/probe', 10011, 'wrong verification code; it is void now, ask for a new one'));
    expect((await call()).result.error?.message).toBe('The verification code is invalid or has expired.');
  });

  it('fills the repayment range of 40001', async () => {
    server.use(fail('jackey/probe', 40001, 'enter an amount between 100.00–5000.00 for repayment'));
    const { result } = await call();
    expect(result.error?.message).toBe('Enter an amount between 100.00 and 5000.00 for repayment.');
  });

  it('falls back to the server message for a code without a translation', async () => {
    server.use(fail('jackey/probe', 99999, 'something specific'));
    const { result } = await call();
    expect(result.error?.message).toBe('something specific');
  });

  it('translates into Chinese when the language is Chinese', async () => {
    await setLanguage('zh', false);
    server.use(fail('jackey/probe', 40005, 'an order is already in progress'));
    const { result } = await call();
    expect(result.error?.message).toBe('您已有一笔进行中的订单。');
  });

  it('an HTTP error without an envelope is a network error with the status', async () => {
    server.use(http.post('http://localhost/jackey/probe', () => new HttpResponse('bad gateway', { status: 502 })));
    const { result, store } = await call();
    expect(result.error).toMatchObject({ code: 'network', status: 502, message: 'Network error, please try again (502)' });
    expect(store.getState().session.redirect).toBeNull();
  });

  it('an HTTP error that carries an envelope is read as the envelope', async () => {
    server.use(fail('jackey/probe', 5, 'too many requests', 429));
    const { result } = await call();
    expect(result.error).toMatchObject({ code: 5, message: 'Too many requests, please try again later.' });
  });

  it('no response at all is the network message', async () => {
    server.use(http.post('http://localhost/jackey/probe', () => HttpResponse.error()));
    const { result } = await call();
    expect(result.error).toMatchObject({ code: 'network', message: 'Network error, please try again' });
  });

  it('answer() helper works for plain data', async () => {
    server.use(answer('jackey/probe', [1, 2]));
    const { result } = await call();
    expect(result.data).toEqual([1, 2]);
  });
});
