/**
 * The one place where answers of the api are read (PRODUCT.md 8, 9): every call
 * answers `{code, msg, data}`; code 0 is success. `interpret` turns a raw fetch
 * result into data or an `ApiFailure`, and says which session effect applies.
 */
import i18n from './i18n';

/** An error the UI can show: the section 9 code (or "network") and a translated message. */
export interface ApiFailure {
  code: number | 'network';
  /** Translated message to show the borrower. */
  message: string;
  /** The server's own `msg`, kept for logs and field hints. */
  serverMessage?: string;
  /** HTTP status, when the failure was an HTTP error. */
  status?: number;
}

export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
}

/** What the session must do after an answer (PRODUCT.md 9). */
export type SessionEffect = 'signOut' | 'lock' | null;

/** Codes that end the session: 401 not logged in, 20001 token invalid, 7 session expired. */
export const SESSION_CODES = new Set([401, 20001, 7]);
/** Code that sends the borrower to the lock screen. */
export const LOCK_CODE = 20003;
/** Code 40007 "record not found": no such order of the borrower's, or nothing owed. */
export const NOTHING_FOUND = 40007;

function isEnvelope(value: unknown): value is Envelope {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Envelope).code === 'number' &&
    'msg' in value
  );
}

/** Numbers in a server message, e.g. "wrong withdraw PIN (3 attempts left)" → [3]. */
function numbersIn(text: string): string[] {
  return text.match(/\d[\d,]*(?:\.\d+)?/g) ?? [];
}

/**
 * The message for a section 9 code: the translation of `service_error_{code}`
 * when it exists (filled with the numbers the server message carries), else the
 * server's `msg`. A code whose message may carry a count (10002's attempts left
 * before the lock, P4) has a `_left` variant used when the count is there.
 */
export function messageFor(code: number, serverMessage: string): string {
  const base = `service_error_${code}`;
  if (!i18n.exists(base)) return serverMessage || i18n.t('service_error_500');
  const [first, second] = numbersIn(serverMessage);
  const key = first !== undefined && i18n.exists(`${base}_left`) ? `${base}_left` : base;
  const detail = serverMessage.includes(':') ? serverMessage.split(':').slice(1).join(':').trim() : serverMessage;
  return i18n.t(key, { n: first ?? '', min: first ?? '', max: second ?? '', detail });
}

/**
 * A payout failure's reason as the api words it ("connection to bank account
 * failed (10012)"), translated through the error catalogue when it names a code.
 */
export function payoutReason(text: string): string {
  const code = /\((\d{1,6})\)\s*$/.exec(text);
  return code ? messageFor(Number(code[1]), text) : text;
}

/** A network failure: no response, or an HTTP error without an envelope. */
export function networkFailure(status?: number): ApiFailure {
  const base = i18n.t('common_network_error');
  return { code: 'network', message: status ? `${base} (${status})` : base, status };
}

export type Interpreted<T> =
  | { data: T; effect: null }
  | { error: ApiFailure; effect: SessionEffect };

/**
 * Reads one answer. `status` is the HTTP status (undefined when no response
 * arrived); `body` the parsed JSON body, if any.
 */
export function interpret<T>(status: number | undefined, body: unknown): Interpreted<T> {
  if (status === undefined) return { error: networkFailure(), effect: null };
  if (isEnvelope(body)) {
    if (body.code === 0) return { data: body.data as T, effect: null };
    const error: ApiFailure = {
      code: body.code,
      message: messageFor(body.code, body.msg),
      serverMessage: body.msg,
      status,
    };
    if (SESSION_CODES.has(body.code)) return { error, effect: 'signOut' };
    if (body.code === LOCK_CODE) return { error, effect: 'lock' };
    return { error, effect: null };
  }
  if (status === 401) {
    return { error: { code: 401, message: messageFor(401, 'not logged in'), status }, effect: 'signOut' };
  }
  return { error: networkFailure(status), effect: null };
}
