/**
 * The MSW server the component tests talk to, and helpers to answer a call with
 * an envelope (`answer('jackey/user/info', data)`) or an error code.
 */
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';

export const server = setupServer();

const url = (path: string) => `http://localhost/${path.replace(/^\//, '')}`;

/** Answers `POST /path` with `{code: 0, msg: "ok", data}`. */
export const answer = (path: string, data: unknown) =>
  http.post(url(path), () => HttpResponse.json({ code: 0, msg: 'ok', data }));

/** Answers `POST /path` with an error envelope. */
export const fail = (path: string, code: number, msg: string, status = 200) =>
  http.post(url(path), () => HttpResponse.json({ code, msg, data: null }, { status }));
