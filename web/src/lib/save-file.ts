/**
 * Saving what a call answered as a file on the device: the server's PDF documents
 * (components/pdf-download), the personal data export (PRODUCT.md 12.6) and the
 * console's audit trail as CSV (issue 55). The
 * calls need the bearer token, so a plain link cannot fetch them; the app fetches,
 * then saves the blob through a temporary link.
 */

/** A file a call answers: POSTed as JSON with the bearer token, saved under `fileName`. */
export interface FileRequest {
  /** The call, e.g. `/admin/api/audit/export`. */
  path: string;
  /** Its JSON body. */
  body: Record<string, unknown>;
  /** The bearer token. */
  token: string | null;
  /** The saved file's name. */
  fileName: string;
  /** The answer's content type that is the file (`application/pdf`, `text/csv`). */
  type: string;
}

/** What a download came to: saved, or the envelope's refusal (code and `msg`; null when none came). */
export type FileOutcome = { ok: true } | { ok: false; code: number | null; message: string | null };

/**
 * POSTs the request and saves an answer of the file's type; anything else is the
 * usual envelope of a refusal, whose code and message come back.
 */
export async function downloadFile(request: FileRequest): Promise<FileOutcome> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (request.token) headers.Authorization = `Bearer ${request.token}`;
  let response: Response;
  try {
    response = await fetch(request.path, { method: 'POST', headers, body: JSON.stringify(request.body) });
  } catch {
    return { ok: false, code: null, message: null };
  }
  const type = response.headers.get('content-type') ?? '';
  if (response.ok && type.startsWith(request.type)) {
    saveBlob(await response.blob(), request.fileName);
    return { ok: true };
  }
  try {
    const envelope = (await response.json()) as { code?: number; msg?: string };
    return { ok: false, code: envelope.code ?? null, message: envelope.msg ?? null };
  } catch {
    return { ok: false, code: null, message: null };
  }
}

/** Saves `blob` as `fileName` through a temporary link. */
export function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** `date` as `YYYY-MM-DD` in the device's time zone, for file names. */
export function localDay(date: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Saves `data` as indented JSON under `fileName`. */
export function saveJson(data: unknown, fileName: string) {
  saveBlob(new Blob([`${JSON.stringify(data, null, 2)}\n`], { type: 'application/json' }), fileName);
}
