/** The small shared helpers: amount input, minor units, masked accounts and idempotency keys. */
import { newIdempotencyKey } from '@/lib/idempotency';
import { lastFour } from '@/lib/mask';
import { decimalInput, formatPct, groupAmount, minorToText, toMinor } from '@/lib/money';

describe('amounts', () => {
  it('keeps digits, one dot and two decimals while typing', () => {
    const typed = ['1,2a3.456', '.5', '1.2.3', '12345678901', ''];
    expect(typed.map((text) => decimalInput(text))).toEqual(['123.45', '0.5', '1.23', '123456789', '']);
  });

  it('turns minor units back into the wire decimal', () => {
    expect([12345n, 5n, -100n, toMinor('50000.5')!].map(minorToText)).toEqual(['123.45', '0.05', '-1.00', '50000.50']);
  });
});

describe('percentages and grouped amounts', () => {
  it('writes a percentage with two decimals at least, never rounding', () => {
    expect(['0.1', '0.15', '0.125', '36.5', '3', '100'].map(formatPct)).toEqual(['0.10%', '0.15%', '0.125%', '36.50%', '3.00%', '100.00%']);
  });
  it('groups an amount input\'s whole part and keeps what was typed after the dot', () => {
    expect(['', '5', '1000', '1234567.8', '100000.', '0.55'].map(groupAmount)).toEqual(['', '5', '1,000', '1,234,567.8', '100,000.', '0.55']);
  });
});

describe('lastFour', () => {
  it('shows the last four digits of a masked or plain account number', () => {
    expect(lastFour('********5678')).toBe('****5678');
    expect(lastFour('1234567890')).toBe('****7890');
    expect(lastFour(null)).toBe('');
  });
});

describe('newIdempotencyKey', () => {
  const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  it('is a fresh UUID v4, also where crypto.randomUUID is missing (plain http)', () => {
    const first = newIdempotencyKey();
    expect(first).toMatch(uuidV4);
    expect(newIdempotencyKey()).not.toBe(first);
    // Outside a secure context the browser has no randomUUID at all.
    const own = Object.getOwnPropertyDescriptor(globalThis.crypto, 'randomUUID');
    Object.defineProperty(globalThis.crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      expect(newIdempotencyKey()).toMatch(uuidV4);
    } finally {
      if (own) Object.defineProperty(globalThis.crypto, 'randomUUID', own);
      else delete (globalThis.crypto as { randomUUID?: unknown }).randomUUID;
    }
    expect(typeof globalThis.crypto.randomUUID).toBe('function');
  });
});
