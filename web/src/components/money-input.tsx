/**
 * An amount the borrower types (the loan amount, income and expenses, a withdrawal,
 * a repayment): the configured currency's symbol before it and the digits in groups
 * of three ("₱ 100,000.50", PRODUCT.md 1), while the value held and sent stays plain
 * ("100000.50"). With `decimals` (the default) it takes up to two decimals; without,
 * whole amounts only.
 */
import type { Ref } from 'react';
import Input, { type InputRef } from 'antd-mobile/es/components/input';
import { DEFAULT_CURRENCY, decimalInput, groupAmount } from '@/lib/money';
import { useCompanyConfigQuery } from '@/lib/shared-api';
import { digitsOnly } from '@/lib/validation';

export interface MoneyInputProps {
  /** The accessible name (the field's label). */
  label: string;
  /** The plain amount: digits, at most one dot and two decimals. */
  value: string;
  onChange: (plain: string) => void;
  decimals?: boolean;
  /** Digits before the dot (9 by default: below a billion). */
  maxIntegerDigits?: number;
  placeholder?: string;
  className?: string;
  onBlur?: () => void;
  ref?: Ref<InputRef>;
}

export function MoneyInput({
  label, value, onChange, decimals = true, maxIntegerDigits = 9, placeholder, className, onBlur, ref,
}: MoneyInputProps) {
  const { data } = useCompanyConfigQuery();
  const symbol = (data?.currency ?? DEFAULT_CURRENCY).symbol;
  const plain = (text: string) => (decimals ? decimalInput(text, maxIntegerDigits) : digitsOnly(text, maxIntegerDigits));
  return (
    <div className={className ? `money-input ${className}` : 'money-input'}>
      <span className="money-input__symbol" aria-hidden="true">
        {symbol}
      </span>
      <Input
        ref={ref}
        aria-label={label}
        inputMode={decimals ? 'decimal' : 'numeric'}
        placeholder={placeholder}
        value={groupAmount(value)}
        onChange={(text) => onChange(plain(text))}
        onBlur={onBlur}
      />
    </div>
  );
}
