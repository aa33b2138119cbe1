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
    // A pasted amount with centavos keeps its pesos: never a hundred times more.
    await user.click(input);
    await user.paste('25,000.00');
    expect(input).toHaveValue('25,000');
    expect(screen.getByTestId('plain')).toHaveTextContent(/^25000$/);

    await user.clear(input);
    await user.type(input, '12345678901');
    expect(screen.getByTestId('plain')).toHaveTextContent(/^123456789$/);
    expect(input).toHaveAttribute('inputmode', 'numeric');
  });

  it('leaves out centavos typed after a dot in a whole-amount field, and says so', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Probe decimals={false} />);
    const input = screen.getByRole('textbox', { name: 'Amount' });
    await user.type(input, '5000.50');
    // Not ₱500,050: the dot starts centavos, which this field does not take.
    expect(input).toHaveValue('5,000');
    expect(screen.getByTestId('plain')).toHaveTextContent(/^5000$/);
    const note = 'Whole amounts only: centavos are left out.';
    expect(screen.getByText(note)).toHaveAttribute('role', 'status');
    // Editing the amount itself works again, and leaving the field clears the note.
    await user.type(input, '{Backspace}');
    expect(screen.getByTestId('plain')).toHaveTextContent(/^500$/);
    await user.type(input, '0');
    expect(screen.getByTestId('plain')).toHaveTextContent(/^5000$/);
    await user.type(input, '.9');
    expect(screen.getByTestId('plain')).toHaveTextContent(/^5000$/);
    await user.tab();
    expect(screen.queryByText(note)).not.toBeInTheDocument();
    await user.type(input, '1');
    expect(screen.getByTestId('plain')).toHaveTextContent(/^50001$/);
  });

  it('takes a dot in an empty field as nothing, and a digit typed inside the amount as pesos', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Probe decimals={false} />);
    const input = screen.getByRole('textbox', { name: 'Amount' }) as HTMLInputElement;
    await user.type(input, '.5');
    expect(screen.getByTestId('plain')).toHaveTextContent(/^5$/);
    await user.clear(input);
    await user.type(input, '5000.');
    // The caret moved inside the amount: a digit there is pesos, not centavos.
    input.setSelectionRange(1, 1);
    await user.type(input, '0', { initialSelectionStart: 1, initialSelectionEnd: 1 });
    expect(screen.getByTestId('plain')).toHaveTextContent(/^50000$/);
  });

  it('refuses a digit past the limit instead of dropping another one, and keeps the caret after its digit', async () => {
    const user = userEvent.setup();
    function Limited() {
      const [value, setValue] = useState('3000000');
      return <MoneyInput label="Amount" value={value} onChange={setValue} decimals={false} maxIntegerDigits={7} />;
    }
    renderWithProviders(<Limited />);
    const input = screen.getByRole('textbox', { name: 'Amount' }) as HTMLInputElement;
    expect(input).toHaveValue('3,000,000');
    // "5" after the "3" would make 8 digits: refused, not ₱3,500,000.
    await user.type(input, '5', { initialSelectionStart: 1, initialSelectionEnd: 1 });
    expect(input).toHaveValue('3,000,000');
    await user.clear(input);
    await user.type(input, '1000');
    expect(input).toHaveValue('1,000');
    await user.type(input, '2', { initialSelectionStart: 1, initialSelectionEnd: 1 });
    expect(input).toHaveValue('12,000');
    expect(input.selectionStart).toBe(2);
  });
});
