/**
 * The customer-service button (issue 15): a placeholder link is never opened; the
 * in-app dialog shows the lender's contact details instead. A real https link
 * opens in a new window.
 */
import { fireEvent, screen, within } from '@testing-library/react';
import Dialog from 'antd-mobile/es/components/dialog';
import { ServiceButton } from '@/components/service-button';
import { answer, server } from '@/testing/server';
import { renderWithProviders } from '@/testing/render';

const company = {
  demo: true,
  lender: { legal_name: 'Honest Lending Corporation', registration_no: 'CS1', licence_no: 'L1' },
  'customer-service-phone': '+63 2 8000 0000',
  'customer-service-email': 'help@honestlending.example',
  'customer-service-hours': 'Mon–Sat 08:00–20:00',
};

function given(link: string | null, config: Record<string, unknown> = company) {
  server.use(answer('jackey/loan/getAllCompanyConfigs', config), answer('jackey/loan/getCustomerService', link));
}

describe('the customer-service button', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    Dialog.clear();
    document.body.innerHTML = '';
  });

  it('shows the contact dialog instead of opening the demo placeholder link', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    given('https://honestlending.example/help');
    renderWithProviders(<ServiceButton />);
    // Wait until both answers are in, so the click sees them.
    await new Promise((r) => setTimeout(r, 50));
    fireEvent.click(screen.getByRole('button', { name: 'Customer service' }));
    const dialog = await screen.findByTestId('contact-dialog');
    expect(open).not.toHaveBeenCalled();
    expect(within(dialog).getByText('Honest Lending Corporation')).toBeInTheDocument();
    expect(within(dialog).getByText('+63 2 8000 0000')).toBeInTheDocument();
    expect(within(dialog).getByText('help@honestlending.example')).toBeInTheDocument();
    expect(within(dialog).getByText(/examples and reach no one/)).toBeInTheDocument();
    // Demo details are text, not links that reach no one.
    expect(within(dialog).queryByRole('link')).not.toBeInTheDocument();
  });

  it('opens a real https link in a new window', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    given('https://help.honestlending.ph/chat', { ...company, demo: false });
    renderWithProviders(<ServiceButton />);
    await new Promise((r) => setTimeout(r, 50));
    fireEvent.click(screen.getByRole('button', { name: 'Customer service' }));
    expect(open).toHaveBeenCalledWith('https://help.honestlending.ph/chat', '_blank', 'noopener,noreferrer');
    expect(screen.queryByTestId('contact-dialog')).not.toBeInTheDocument();
  });

  it('says "Please contact customer service." when no details are configured', async () => {
    vi.spyOn(window, 'open').mockReturnValue(null);
    given(null, {});
    renderWithProviders(<ServiceButton />);
    await new Promise((r) => setTimeout(r, 50));
    fireEvent.click(screen.getByRole('button', { name: 'Customer service' }));
    const dialog = await screen.findByTestId('contact-dialog');
    expect(within(dialog).getByText('Please contact customer service.')).toBeInTheDocument();
  });
});
