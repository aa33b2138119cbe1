/**
 * The native picker: "Please choose" is a placeholder (muted, not choosable again)
 * until a value is chosen.
 */
import { render, screen } from '@testing-library/react';
import { SelectField } from '@/components/select-field';
import '@/lib/i18n';

describe('the select field', () => {
  it('marks the placeholder as one until a value is chosen', () => {
    const options = [{ value: 'BDO', label: 'BDO Unibank' }];
    const { rerender } = render(<SelectField label="Bank" value="" options={options} onChange={() => undefined} />);
    const select = screen.getByRole('combobox', { name: 'Bank' });
    expect(select).toHaveClass('select-field--empty');
    expect(screen.getByRole('option', { name: 'Please choose' })).toBeDisabled();
    rerender(<SelectField label="Bank" value="BDO" options={options} onChange={() => undefined} />);
    expect(select).not.toHaveClass('select-field--empty');
    expect(select).toHaveValue('BDO');
  });
});
