/**
 * A list choice rendered as the platform's own picker (a native `<select>`), which
 * phones show as their wheel or sheet and which keyboards and screen readers
 * handle well.
 */
import { useTranslation } from 'react-i18next';

export interface SelectFieldProps {
  label: string;
  value: string;
  options: { value: string; label: string }[];
  onChange: (value: string) => void;
  disabled?: boolean;
}

export function SelectField({ label, value, options, onChange, disabled }: SelectFieldProps) {
  const { t } = useTranslation();
  return (
    <select
      // Nothing chosen yet: "Please choose" reads as a placeholder, not as a value.
      className={value === '' ? 'select-field select-field--empty' : 'select-field'}
      aria-label={label}
      value={value}
      disabled={disabled}
      onChange={(e) => onChange(e.target.value)}
    >
      <option value="" disabled>
        {t('please_choose')}
      </option>
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  );
}

/** Options from a plain list of strings, each shown as `label(value)` (the value itself by default). */
export const optionsOf = (values: readonly string[] | undefined, label: (value: string) => string = (v) => v) =>
  (values ?? []).map((v) => ({ value: v, label: label(v) }));
