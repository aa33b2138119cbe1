/**
 * Read-your-writes by log position (DESIGN.md "Read models"): every command answers
 * `X-Log-Position` (`"<transaction>:<position>"`, where its last event sits in the
 * event log); every call sends the highest position this page has been answered as
 * `X-Min-Position`, and the server waits (bounded) until its read models have passed
 * it. So a screen shown after a command always includes that command, and a call
 * never waits for anyone else's writes. Kept in memory: one page, one sequence.
 */

/** The response header a command answers with. */
export const LOG_POSITION = 'X-Log-Position';
/** The request header every call sends. */
export const MIN_POSITION = 'X-Min-Position';

type Position = readonly [bigint, bigint];

let highest: { text: string; at: Position } | null = null;

function parse(text: string): Position | null {
  const match = /^(\d{1,19}):(\d{1,19})$/.exec(text.trim());
  return match ? [BigInt(match[1]), BigInt(match[2])] : null;
}

function after(a: Position, b: Position): boolean {
  return a[0] > b[0] || (a[0] === b[0] && a[1] > b[1]);
}

/** Keeps the position an answer carries, if it is beyond the one known. */
export function rememberPosition(headers: Headers | undefined) {
  const text = headers?.get(LOG_POSITION);
  const at = text ? parse(text) : null;
  if (text && at && (!highest || after(at, highest.at))) highest = { text: text.trim(), at };
}

/** Adds `X-Min-Position` to a call's headers once the page has written anything. */
export function sendPosition(headers: Headers) {
  if (highest) headers.set(MIN_POSITION, highest.text);
  return headers;
}

/** Forgets the position (tests; a new session starts from nothing it wrote). */
export function forgetPosition() {
  highest = null;
}
