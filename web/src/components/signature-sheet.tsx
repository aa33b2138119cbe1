/**
 * Bottom-sheet signature pad (PRODUCT.md 3): pen width 6, black, with reset and
 * confirm; confirming an empty pad says "please sign first". `onConfirm`
 * receives an 800×300 PNG data URL.
 *
 * Why the ink lands under the finger: signature_pad takes each point in CSS
 * pixels (event position minus the canvas's client rect) and draws it with the
 * canvas's 2D context. The drawing buffer therefore has to be the canvas's CSS
 * size × devicePixelRatio with the context scaled by that ratio; a fixed
 * 800×300 buffer shown 358 px wide put the ink at 358/800 ≈ 45 % of the finger's
 * position. The buffer follows the canvas's size (a ResizeObserver: the sheet
 * mounts lazily, phones rotate, zoom changes the ratio) and the strokes drawn so
 * far are rescaled to the new size. The 800×300 of the specification is the
 * size of the saved image, drawn from the buffer on confirm.
 */
import { useCallback, useRef } from 'react';
import Button from 'antd-mobile/es/components/button';
import Popup from 'antd-mobile/es/components/popup';
import Toast from 'antd-mobile/es/components/toast';
import SignaturePad from 'signature_pad';
import { useTranslation } from 'react-i18next';
import { SIGNATURE } from '@/config/constants';

export interface SignatureSheetProps {
  visible: boolean;
  onClose: () => void;
  onConfirm: (pngDataUrl: string) => void | Promise<void>;
  busy?: boolean;
}

const BACKGROUND = 'rgba(255,255,255,1)';

/**
 * Sizes the canvas's drawing buffer to its CSS box × devicePixelRatio, scales
 * the context to match, and redraws the strokes so far scaled from the previous
 * CSS width `from` (points are in CSS pixels). Returns the new CSS width, or
 * `from` when the canvas is not laid out yet (0 wide).
 */
export function fitCanvas(canvas: HTMLCanvasElement, pad: SignaturePad, from: number): number {
  const cssWidth = canvas.clientWidth;
  const cssHeight = canvas.clientHeight;
  if (cssWidth === 0 || cssHeight === 0) return from;
  const ratio = Math.max(window.devicePixelRatio || 1, 1);
  const width = Math.round(cssWidth * ratio);
  const height = Math.round(cssHeight * ratio);
  if (canvas.width === width && canvas.height === height && from === cssWidth) return from;
  const scale = from > 0 ? cssWidth / from : 1;
  const strokes = pad.toData().map((group) => ({
    ...group,
    points: group.points.map((p) => ({ ...p, x: p.x * scale, y: p.y * scale })),
  }));
  canvas.width = width; // also resets the context's transform
  canvas.height = height;
  canvas.getContext('2d')?.scale(ratio, ratio);
  pad.clear();
  if (strokes.length > 0) pad.fromData(strokes);
  return cssWidth;
}

/** The pad's drawing as an 800×300 PNG on white (the saved signature image). */
function exportPng(canvas: HTMLCanvasElement): string {
  const out = document.createElement('canvas');
  out.width = SIGNATURE.width;
  out.height = SIGNATURE.height;
  const ctx = out.getContext('2d');
  if (!ctx) return canvas.toDataURL('image/png');
  ctx.fillStyle = BACKGROUND;
  ctx.fillRect(0, 0, out.width, out.height);
  ctx.drawImage(canvas, 0, 0, out.width, out.height);
  return out.toDataURL('image/png');
}

export function SignatureSheet({ visible, onClose, onConfirm, busy }: SignatureSheetProps) {
  const { t } = useTranslation();
  const pad = useRef<SignaturePad | null>(null);
  const canvasRef = useRef<HTMLCanvasElement | null>(null);
  const detach = useRef<(() => void) | null>(null);

  // The pad attaches when the canvas node mounts (the sheet renders its content
  // lazily, so an effect keyed on `visible` can run before the canvas exists) and
  // detaches when it unmounts.
  const attach = useCallback((node: HTMLCanvasElement | null) => {
    detach.current?.();
    detach.current = null;
    canvasRef.current = node;
    if (!node) {
      pad.current = null;
      return;
    }
    const signaturePad = new SignaturePad(node, {
      minWidth: SIGNATURE.penWidth / 2,
      maxWidth: SIGNATURE.penWidth,
      penColor: SIGNATURE.color,
      backgroundColor: BACKGROUND,
    });
    pad.current = signaturePad;
    let cssWidth = 0;
    const fit = () => {
      cssWidth = fitCanvas(node, signaturePad, cssWidth);
    };
    fit();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(fit);
    observer?.observe(node);
    // Zooming changes devicePixelRatio without resizing the canvas's CSS box.
    window.addEventListener('resize', fit);
    detach.current = () => {
      observer?.disconnect();
      window.removeEventListener('resize', fit);
      signaturePad.off();
    };
  }, []);

  const confirm = () => {
    if (!pad.current || !canvasRef.current || pad.current.isEmpty()) {
      Toast.show({ content: t('sign_first') });
      return;
    }
    void onConfirm(exportPng(canvasRef.current));
  };

  return (
    <Popup
      visible={visible}
      onMaskClick={onClose}
      bodyClassName="signature-sheet"
    >
      <h3 className="signature-sheet__title">{t('signature_title')}</h3>
      <p className="signature-sheet__hint">{t('signature_hint')}</p>
      <div className="signature-sheet__pad">
        <canvas ref={attach} className="signature-sheet__canvas" data-testid="signature-canvas" />
      </div>
      <div className="signature-sheet__actions">
        <Button onClick={() => pad.current?.clear()}>{t('reset')}</Button>
        <Button color="primary" loading={busy} onClick={confirm}>
          {t('confirm')}
        </Button>
      </div>
    </Popup>
  );
}
