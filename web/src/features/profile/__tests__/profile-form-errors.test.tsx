/**
 * The full profile form's refusals (PRODUCT.md 3, 5): a field the client check
 * finds wrong gets its message under it, not below the whole form, is marked
 * invalid, described by the message, and takes the focus (a long form scrolls
 * to it); nothing is sent. A refusal by the server, about no one field, stays
 * under the form.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { ProfileForm } from '@/features/profile/profile-form';
import { userFixture } from '@/testing/fixtures';
import { renderWithProviders } from '@/testing/render';
import { answer, server } from '@/testing/server';

const lists: Record<string, unknown> = {
  provinces: [{ region: 'National Capital Region (NCR)', cities: ['City of Manila'] }],
  marriage: ['Single', 'Married'],
  education: ['College'],
  banks: ['BDO Unibank', 'GCash'],
  eWallets: ['GCash'],
};

let sent: unknown[];

beforeEach(() => {
  sent = [];
  server.use(
    answer('jackey/loan/getAllCompanyConfigs', {}),
    answer('jackey/loan/getCustomerService', null),
    http.post('http://localhost/jackey/loan/getConfigByKey', async ({ request }) => {
      const { key } = (await request.json()) as { key: string };
      return HttpResponse.json({ code: 0, msg: 'ok', data: lists[key] ?? [] });
    }),
    http.post('http://localhost/jackey/user/update', async ({ request }) => {
      sent.push(await request.json());
      return HttpResponse.json({ code: 10005, msg: 'Your profile could not be saved.', data: null });
    }),
  );
});

function mount() {
  // An unbound bank account: the form asks for the bank and the account number.
  const user = {
    ...userFixture(),
    bankName: null,
    cardNo: null,
    userQualificationView: { identity: 1, basicInformation: 1, bankCard: 0 },
  };
  renderWithProviders(<ProfileForm user={user} full next="/done" />, {
    route: '/baseInfo',
    preloadedState: { session: { token: 'tok', redirect: null } },
  });
}

const item = (input: HTMLElement) => input.closest('.adm-form-item') as HTMLElement;

describe('the profile form', () => {
  it('puts a wrong account number’s message under that field and focuses it', async () => {
    const user = userEvent.setup();
    mount();
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Bank' }).querySelectorAll('option')).toHaveLength(3));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Bank' }), 'BDO Unibank');
    const card = screen.getByLabelText('Account number', { selector: 'input' });
    await user.type(card, '1234567');
    await user.click(screen.getByRole('button', { name: 'Next' }));

    const message = await within(item(card)).findByRole('alert');
    expect(message).toHaveTextContent('The account number is 8 to 20 digits.');
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(card).toHaveAttribute('aria-invalid', 'true');
    expect(card).toHaveAccessibleDescription('The account number is 8 to 20 digits.');
    expect(card).toHaveFocus();
    expect(sent).toEqual([]);
  });

  it('puts a wrong e-mail’s message under the e-mail, and a server refusal under the form', async () => {
    const user = userEvent.setup();
    mount();
    const email = await screen.findByRole('textbox', { name: 'Email' });
    await user.clear(email);
    await user.type(email, 'ana@');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Bank' }), 'BDO Unibank');
    await user.type(screen.getByLabelText('Account number', { selector: 'input' }), '123456789012');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await within(item(email)).findByRole('alert')).toBeInTheDocument();
    expect(email).toHaveFocus();

    await user.clear(email);
    await user.type(email, 'ana@example.ph');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    const refusal = await screen.findByRole('alert');
    expect(refusal.textContent).not.toBe('');
    expect(refusal.closest('.adm-form-item')).toBeNull();
    expect(email).not.toHaveAttribute('aria-invalid');
    expect(sent).toHaveLength(1);
  });
});
