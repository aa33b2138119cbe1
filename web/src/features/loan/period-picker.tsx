/**
 * The period tiles of the apply screen (PRODUCT.md 3, P7): a radio group of real
 * radio inputs under a `fieldset`/`legend`, so Tab reaches the group, the arrow
 * keys move the choice and a screen reader reads "Loan period, 12 days, 0.2%/day,
 * 2 of 4". The inputs are invisible; the tiles are their labels.
 */
import { useId } from 'react';

export interface PeriodOption {
  /** Days of the period. */
  days: number;
  label: string;
  /** The daily rate line under the label, e.g. "0.2%/day". */
  description: string;
}

export interface PeriodPickerProps {
  legend: string;
  options: PeriodOption[];
  value: number | null;
  onChange: (days: number) => void;
}

export function PeriodPicker({ legend, options, value, onChange }: PeriodPickerProps) {
  const name = useId();
  return (
    <fieldset className="period-picker">
      <legend className="period-picker__legend muted">{legend}</legend>
      <div className="period-picker__tiles">
        {options.map((option) => (
          <label key={option.days} className={`period-tile${option.days === value ? ' period-tile--checked' : ''}`}>
            <input
              type="radio"
              className="period-tile__input"
              name={name}
              value={option.days}
              checked={option.days === value}
              onChange={() => onChange(option.days)}
            />
            <span className="period-tile__label">{option.label}</span>
            <span className="period-tile__rate">{option.description}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
