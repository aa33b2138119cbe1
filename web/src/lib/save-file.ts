/**
 * Saving what a call answered as a file on the device: the server's PDF documents
 * (components/pdf-download) and the personal data export (PRODUCT.md 12.6). The
 * calls need the bearer token, so a plain link cannot fetch them; the app fetches,
 * then saves the blob through a temporary link.
 */

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
