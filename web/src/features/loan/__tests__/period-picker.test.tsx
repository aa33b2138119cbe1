/**
 * The apply screen's period tiles by keyboard (WCAG 2.1.1): Tab reaches the
 * chosen period, the arrow keys move the choice, Space picks a focused tile, and
 * the group is named by its legend.
 */
import { useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PeriodPicker } from '@/features/loan/period-picker';

const options = [6, 12, 18, 24].map((days) => ({ days, label: `${days} days`, description: '0.2%/day' }));

function Harness({ onChange }: { onChange?: (days: number) => void }) {
  const [value, setValue] = useState<number | null>(24);
  return (
    <>
      <button type="button">before</button>
      <PeriodPicker
        legend="Loan period"
        options={options}
        value={value}
        onChange={(days) => {
          setValue(days);
          onChange?.(days);
        }}
      />
      <button type="button">after</button>
    </>
  );
}

describe('period picker', () => {
  it('is a named group of radios, one per period, the chosen one checked', () => {
    render(<Harness />);
    const group = screen.getByRole('group', { name: 'Loan period' });
    expect(group).toBeInTheDocument();
    expect(screen.getAllByRole('radio')).toHaveLength(4);
    expect(screen.getByRole('radio', { name: /24 days/ })).toBeChecked();
  });

  it('is reached with one Tab, on the chosen period, and left with the next', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('button', { name: 'before' }));
    await user.tab();
    expect(screen.getByRole('radio', { name: /24 days/ })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'after' })).toHaveFocus();
  });

  it('moves the choice with the arrow keys', async () => {
    const user = userEvent.setup();
    const changed: number[] = [];
    render(<Harness onChange={(d) => changed.push(d)} />);
    await user.click(screen.getByRole('button', { name: 'before' }));
    await user.tab();
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('radio', { name: /18 days/ })).toBeChecked();
    expect(screen.getByRole('radio', { name: /18 days/ })).toHaveFocus();
    await user.keyboard('{ArrowUp}');
    expect(screen.getByRole('radio', { name: /12 days/ })).toBeChecked();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('radio', { name: /18 days/ })).toBeChecked();
    expect(changed).toEqual([18, 12, 18]);
  });

  it('picks a tile by its text (mouse or touch)', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByText('6 days'));
    expect(screen.getByRole('radio', { name: /6 days/ })).toBeChecked();
    expect(screen.getByRole('radio', { name: /24 days/ })).not.toBeChecked();
  });
});
