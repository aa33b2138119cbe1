/**
 * Phone photos made small enough to upload (issue 52): a camera photo is often
 * over the 5 MB the server takes (PRODUCT.md 5). The browser decodes it, scales it
 * so that its longer side is at most `MAX_SIDE` pixels (an ID card stays legible
 * far below that) and re-encodes it as JPEG, lowering the quality until it fits.
 * The server still checks, re-encodes and strips metadata as before.
 */
import { MAX_IMAGE_BYTES } from '@/config/constants';

/** The longer side of a shrunk photo, in pixels. */
export const MAX_SIDE = 2048;

/** JPEG qualities tried in turn until the photo fits. */
const QUALITIES = [0.85, 0.7, 0.55];

/**
 * `file` as is when it is under the limit; otherwise a JPEG of it under the limit,
 * or null when the browser cannot decode it (not an image) or no quality fits.
 */
export async function shrinkPhoto(file: Blob): Promise<Blob | null> {
  if (file.size < MAX_IMAGE_BYTES) return file;
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    return null;
  }
  const scale = Math.min(1, MAX_SIDE / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(bitmap.width * scale));
  canvas.height = Math.max(1, Math.round(bitmap.height * scale));
  canvas.getContext('2d')?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  for (const quality of QUALITIES) {
    const blob = await new Promise<Blob | null>((done) => canvas.toBlob(done, 'image/jpeg', quality));
    if (blob && blob.size < MAX_IMAGE_BYTES) return blob;
  }
  return null;
}
