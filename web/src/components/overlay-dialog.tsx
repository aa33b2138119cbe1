/**
 * A modal dialog over the screen: a dimmed backdrop (a click on it closes) and a
 * card that is a named `role="dialog"`. Unlike antd-mobile's Mask, whose layer is
 * `aria-hidden`, the dialog stays in the accessibility tree; focus moves to it on
 * opening and returns on closing, and Escape closes it (WCAG 2.1.1, 2.4.3, 4.1.2).
 */
import { useEffect, useId, useRef, type ReactNode } from 'react';

export interface OverlayDialogProps {
  visible: boolean;
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
}

export function OverlayDialog({ visible, title, onClose, children }: OverlayDialogProps) {
  const titleId = useId();
  const card = useRef<HTMLDivElement | null>(null);
  // The latest onClose, without re-running the focus effect when its identity changes.
  const closeRef = useRef(onClose);
  useEffect(() => {
    closeRef.current = onClose;
  });
  useEffect(() => {
    if (!visible) return;
    const opener = document.activeElement as HTMLElement | null;
    const first = card.current?.querySelector<HTMLElement>('button, a[href], input, [tabindex]:not([tabindex="-1"])');
    (first ?? card.current)?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') closeRef.current();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      if (opener && document.contains(opener)) opener.focus();
    };
  }, [visible]);
  if (!visible) return null;
  return (
    <div className="overlay-dialog" onClick={(event) => event.target === event.currentTarget && onClose()}>
      <div ref={card} className="overlay-card card" role="dialog" aria-modal="true" aria-labelledby={titleId} tabIndex={-1}>
        <h2 id={titleId} className="card__title">
          {title}
        </h2>
        {children}
      </div>
    </div>
  );
}
