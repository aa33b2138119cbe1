/**
 * `SignatureSheet` whose code (signature_pad, Popup) loads the first time the
 * sheet opens, so the screens that may ask for a signature do not carry it on
 * their first paint. It stays mounted afterwards, so closing it animates.
 */
import { lazy, Suspense, useState } from 'react';
import type { SignatureSheetProps } from './signature-sheet';

const SignatureSheet = lazy(() => import('./signature-sheet').then((m) => ({ default: m.SignatureSheet })));

export function LazySignatureSheet(props: SignatureSheetProps) {
  const [opened, setOpened] = useState(props.visible);
  if (props.visible && !opened) setOpened(true);
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <SignatureSheet {...props} />
    </Suspense>
  );
}
