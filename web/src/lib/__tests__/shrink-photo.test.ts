/**
 * Issue 52: a phone photo over the 5 MB limit is shrunk in the browser. jsdom has
 * no image decoder, so the browser's pieces are stood in for: what is checked here
 * is the scaling and the quality steps; the end-to-end run uploads a real one.
 */
import { MAX_IMAGE_BYTES } from '@/config/constants';
import { MAX_SIDE, shrinkPhoto } from '@/lib/shrink-photo';

const big = () => new Blob([new Uint8Array(MAX_IMAGE_BYTES + 1)], { type: 'image/jpeg' });

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('shrinkPhoto', () => {
  it('passes a photo under the limit as it is', async () => {
    const small = new Blob([new Uint8Array(1000)], { type: 'image/png' });
    expect(await shrinkPhoto(small)).toBe(small);
  });

  it('scales the longer side to the maximum and lowers the quality until it fits', async () => {
    vi.stubGlobal('createImageBitmap', async () => ({ width: 4032, height: 3024, close: () => {} }));
    const drawn: number[][] = [];
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue({
      drawImage: (_: unknown, x: number, y: number, w: number, h: number) => drawn.push([x, y, w, h]),
    } as unknown as CanvasRenderingContext2D);
    const qualities: number[] = [];
    vi.spyOn(HTMLCanvasElement.prototype, 'toBlob').mockImplementation(function (done, _type, quality) {
      qualities.push(quality as number);
      // Too big at the first quality, fits at the second.
      done(new Blob([new Uint8Array(qualities.length === 1 ? MAX_IMAGE_BYTES : 100_000)], { type: 'image/jpeg' }));
    });
    const shrunk = await shrinkPhoto(big());
    expect(shrunk?.size).toBe(100_000);
    expect(drawn).toEqual([[0, 0, MAX_SIDE, 1536]]);
    expect(qualities).toEqual([0.85, 0.7]);
  });

  it('answers null for a file the browser cannot decode', async () => {
    vi.stubGlobal('createImageBitmap', async () => {
      throw new Error('not an image');
    });
    expect(await shrinkPhoto(big())).toBeNull();
  });
});
