/** Hides all but the last `visible` characters with `*` (as the server's `mask`). */
export function mask(text: string | null | undefined, visible = 4): string {
  if (!text) return '';
  const chars = [...text];
  return chars.map((c, i) => (i + visible < chars.length ? '*' : c)).join('');
}

/** "****1234" from a masked or plain account number; '' without one. */
export function lastFour(cardNo: string | null | undefined): string {
  if (!cardNo) return '';
  return `****${cardNo.replace(/\*/g, '').slice(-4)}`;
}
