/**
 * A click handler that ignores clicks for `ms` after each click (PRODUCT.md 4.3:
 * the main button is disabled for one second after each click). Returns the
 * wrapped handler and whether the button is cooling down.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { MAIN_BUTTON_COOLDOWN_MS } from '@/config/constants';

export function useCooldown(handler: () => void, ms = MAIN_BUTTON_COOLDOWN_MS) {
  const [cooling, setCooling] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const onClick = useCallback(() => {
    if (cooling) return;
    setCooling(true);
    timer.current = window.setTimeout(() => setCooling(false), ms);
    handler();
  }, [cooling, handler, ms]);
  return { onClick, cooling };
}
