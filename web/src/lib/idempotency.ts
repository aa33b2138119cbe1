/**
 * A fresh `Idempotency-Key` (UUID v4) for a money call (apply, withdraw, recharge):
 * a repeat with the same key returns the first answer. `crypto.randomUUID` exists
 * only in secure contexts (https, localhost); a phone opening the app over plain
 * http on a LAN address falls back to `getRandomValues`, which every browser has.
 */
export function newIdempotencyKey(): string {
  const c = globalThis.crypto;
  if (typeof c?.randomUUID === 'function') return c.randomUUID();
  const bytes = new Uint8Array(16);
  c.getRandomValues(bytes);
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
