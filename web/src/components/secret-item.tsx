/**
 * A labelled password or withdraw-PIN input as a row of a vertical form (the
 * recovery and credentials screens, PRODUCT.md 12.3). A PIN keeps six digits only.
 */
import Form from 'antd-mobile/es/components/form';
import Input from 'antd-mobile/es/components/input';
import { digitsOnly } from '@/lib/validation';

export interface SecretItemProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** `new-password`, `current-password`, or `off` for a PIN. */
  autoComplete: string;
  placeholder?: string;
  /** A six-digit withdraw PIN (numeric keyboard, digits only). */
  pin?: boolean;
}

export function SecretItem({ label, value, onChange, autoComplete, placeholder, pin }: SecretItemProps) {
  return (
    <Form.Item label={label}>
      <Input
        aria-label={label}
        type="password"
        inputMode={pin ? 'numeric' : undefined}
        autoComplete={autoComplete}
        placeholder={placeholder}
        value={value}
        onChange={(v) => onChange(pin ? digitsOnly(v, 6) : v)}
      />
    </Form.Item>
  );
}
