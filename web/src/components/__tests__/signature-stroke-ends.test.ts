/**
 * The end of each stroke (signature_pad 5 draws every stroke one recorded point
 * short): `drawStrokeEnds` draws the segment from a stroke's second-to-last point
 * to its last, round-capped, 2 × minWidth thick, in the stroke's colour, and
 * nothing for a one-point stroke (a dot). The pixels under a real pointer are
 * checked in Chromium by web/e2e/layout.test.mjs.
 */
import type { PointGroup } from 'signature_pad';
import { drawStrokeEnds } from '@/components/signature-sheet';

type Call = [string, ...unknown[]];

function recordingCanvas() {
  const calls: Call[] = [];
  const ctx = {
    save: () => calls.push(['save']),
    restore: () => calls.push(['restore']),
    beginPath: () => calls.push(['beginPath']),
    moveTo: (x: number, y: number) => calls.push(['moveTo', x, y]),
    lineTo: (x: number, y: number) => calls.push(['lineTo', x, y]),
    stroke() {
      calls.push(['stroke', this.lineWidth, this.lineCap, this.strokeStyle]);
    },
    lineWidth: 1,
    lineCap: 'butt',
    strokeStyle: '#000',
  };
  const canvas = { getContext: () => ctx } as unknown as HTMLCanvasElement;
  return { canvas, calls };
}

const group = (points: Array<[number, number]>, penColor = 'black', minWidth = 3): PointGroup => ({
  points: points.map(([x, y], i) => ({ x, y, pressure: 0.5, time: i })),
  penColor,
  minWidth,
  maxWidth: 6,
  dotSize: 0,
  velocityFilterWeight: 0.7,
  compositeOperation: 'source-over',
});

describe('drawStrokeEnds', () => {
  it("draws each stroke's last segment, from its second-to-last point to its last", () => {
    const { canvas, calls } = recordingCanvas();
    drawStrokeEnds(canvas, [
      group([[30, 30], [90, 70], [150, 40], [320, 100]]),
      group([[10, 10], [20, 25]], 'navy', 2),
    ]);
    const strokes = calls.filter(([name]) => name !== 'save' && name !== 'restore' && name !== 'beginPath');
    expect(strokes).toEqual([
      ['moveTo', 150, 40],
      ['lineTo', 320, 100],
      ['stroke', 6, 'round', 'black'],
      ['moveTo', 10, 10],
      ['lineTo', 20, 25],
      ['stroke', 4, 'round', 'navy'],
    ]);
    // The context's state is restored after each segment.
    expect(calls.filter(([name]) => name === 'save')).toHaveLength(2);
    expect(calls.filter(([name]) => name === 'restore')).toHaveLength(2);
  });

  it('draws nothing for a dot or for no strokes', () => {
    const { canvas, calls } = recordingCanvas();
    drawStrokeEnds(canvas, [group([[5, 5]])]);
    drawStrokeEnds(canvas, []);
    expect(calls).toEqual([]);
  });
});
