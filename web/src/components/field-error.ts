/**
 * Ties an error message to the field it is about (WCAG 1.3.1, 3.3.1): the field
 * gets `aria-invalid="true"` and `aria-describedby` naming the message, so a
 * screen reader reads the message with the field. antd-mobile's Input passes
 * neither attribute to its native `<input>`, so they are set on it here.
 */
import { useEffect, type RefObject } from 'react';
import type { InputRef } from 'antd-mobile/es/components/input';

/** Marks the input of `ref` invalid and described by `errorId` while `invalid`. */
export function useFieldError(ref: RefObject<InputRef | null>, errorId: string, invalid: boolean) {
  useEffect(() => {
    const input = ref.current?.nativeElement;
    if (!input) return;
    if (invalid) {
      input.setAttribute('aria-invalid', 'true');
      input.setAttribute('aria-describedby', errorId);
    } else {
      input.removeAttribute('aria-invalid');
      input.removeAttribute('aria-describedby');
    }
  });
}
