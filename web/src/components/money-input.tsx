/**
 * An amount the borrower types (the loan amount, income and expenses, a withdrawal,
 * a repayment): the configured currency's symbol before it and the digits in groups
 * of three ("₱ 100,000.50", PRODUCT.md 1), while the value held and sent stays plain
 * ("100000.50"). With `decimals` (the default) it takes up to two decimals; without,
 * whole amounts only ("25,000.00" pasted reads 25,000, never 2,500,000): a dot typed
 * there says so under the field, and the centavos typed after it are left out, so
 * "5000.50" reads ₱5,000, never ₱500,050.
 *
 * What is shown is always what is sent. A keystroke past `maxIntegerDigits` is
 * refused rather than cutting a digit elsewhere, and the caret stays after the digit
 * it was after when the grouping commas move.
 */
import { useImperativeHandle, useLayoutEffect, useRef, useState, type Ref } from 'react';
import Input, { type InputRef } from 'antd-mobile/es/components/input';
import { useTranslation } from 'react-i18next';
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

/** The characters of `text` that the plain value keeps (digits, and the dot with decimals). */
const kept = (text: string, decimals: boolean) => (text.match(decimals ? /[\d.]/g : /\d/g) ?? []).length;

/** The position in `shown` just after its `count`-th kept character. */
function positionAfter(shown: string, count: number, decimals: boolean): number {
  if (count <= 0) return 0;
  let seen = 0;
  for (let i = 0; i < shown.length; i += 1) {
    if ((decimals ? /[\d.]/ : /\d/).test(shown[i])) seen += 1;
    if (seen === count) return i + 1;
  }
  return shown.length;
}

export function MoneyInput({
  label, value, onChange, decimals = true, maxIntegerDigits = 9, placeholder, className, onBlur, ref,
}: MoneyInputProps) {
  const { t } = useTranslation();
  const { data } = useCompanyConfigQuery();
  const symbol = (data?.currency ?? DEFAULT_CURRENCY).symbol;
  const input = useRef<InputRef>(null);
  useImperativeHandle(ref, () => input.current as InputRef, []);
  // Kept characters left of the caret at the last change, to put it back after them.
  const caret = useRef<number | null>(null);
  // A whole-amount field after a dot: what is typed next is centavos, left out
  // (and said so) until the borrower edits elsewhere or leaves the field.
  const [centavos, setCentavos] = useState(false);
  useLayoutEffect(() => {
    const element = input.current?.nativeElement;
    if (caret.current === null || !element || document.activeElement !== element) return;
    const position = positionAfter(element.value, caret.current, decimals);
    element.setSelectionRange(position, position);
    caret.current = null;
  });

  const change = (text: string) => {
    const [whole] = text.split('.');
    const digits = whole.replace(/\D/g, '');
    if (digits.length > maxIntegerDigits) return; // refused: the field keeps its value
    const element = input.current?.nativeElement;
    if (!decimals) {
      // A digit typed at the end, right after the dot was: a centavo.
      const atEnd = element?.selectionStart === text.length;
      const appended = atEnd && digits.length === value.length + 1 && digits.startsWith(value);
      if (text.includes('.')) setCentavos(value !== '' || digits !== '');
      else if (centavos && appended) return; // a centavo digit: left out
      else setCentavos(false);
    }
    if (element?.selectionStart !== null && element?.selectionStart !== undefined) {
      caret.current = kept(text.slice(0, element.selectionStart), decimals);
    }
    onChange(decimals ? decimalInput(text, maxIntegerDigits) : digitsOnly(whole, maxIntegerDigits));
  };

  return (
    <>
      <div className={className ? `money-input ${className}` : 'money-input'}>
        <span className="money-input__symbol" aria-hidden="true">
          {symbol}
        </span>
        <Input
          ref={input}
          aria-label={label}
          inputMode={decimals ? 'decimal' : 'numeric'}
          placeholder={placeholder}
          value={groupAmount(value)}
          onChange={change}
          onBlur={() => {
            setCentavos(false);
            onBlur?.();
          }}
        />
      </div>
      {centavos && (
        <div className="muted" role="status">
          {t('whole_amount_only')}
        </div>
      )}
    </>
  );
}
