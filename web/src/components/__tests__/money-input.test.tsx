/**
 * An amount as the borrower types it: the configured currency's symbol before it,
 * digits in groups of three, while the value the screen holds (and sends) stays
 * plain; whole amounts only where the field takes no centavos.
 */
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { MoneyInput } from '@/components/money-input';
import { answer, server } from '@/testing/server';
import { renderWithProviders } from '@/testing/render';

function Probe({ decimals }: { decimals?: boolean }) {
  const [value, setValue] = useState('');
  return (
    <>
      <MoneyInput label="Amount" value={value} onChange={setValue} decimals={decimals} />
      <output data-testid="plain">{value}</output>
    </>
  );
}

describe('the money input', () => {
  beforeEach(() => {
    server.use(answer('jackey/loan/getAllCompanyConfigs', { currency: { code: 'PHP', symbol: '₱' } }));
  });

  it('shows ₱ and groups of three while holding the plain amount, two decimals at most', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Probe />);
    const input = screen.getByRole('textbox', { name: 'Amount' });
    expect(await screen.findByText('₱')).toHaveAttribute('aria-hidden', 'true');
    await user.type(input, '1234567.891');
    expect(input).toHaveValue('1,234,567.89');
    expect(screen.getByTestId('plain')).toHaveTextContent(/^1234567\.89$/);
    expect(input).toHaveAttribute('inputmode', 'decimal');
  });

  it('takes whole amounts only without decimals, up to nine digits', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Probe decimals={false} />);
    const input = screen.getByRole('textbox', { name: 'Amount' });
    await user.type(input, '30,000.50');
    expect(input).toHaveValue('3,000,050');
    expect(screen.getByTestId('plain')).toHaveTextContent(/^3000050$/);
    await user.clear(input);
    await user.type(input, '12345678901');
    expect(screen.getByTestId('plain')).toHaveTextContent(/^123456789$/);
    expect(input).toHaveAttribute('inputmode', 'numeric');
  });
});
