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
 *
 * Why the ink reaches where the finger lifted: signature_pad 5 draws the curve
 * for each new point only up to the point before it (a curve needs the next
 * point for its tangent) and draws nothing more when the stroke ends, so every
 * stroke stopped one recorded point short of the lift, and with its default
 * 16 ms move throttle a fast stroke's points were far apart (corners were cut
 * and the missing end was long). Pointer moves come coalesced per frame already,
 * so the throttle is off, and `drawStrokeEnds` draws each stroke's last segment
 * when the stroke ends and after every redraw.
 */
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import Button from 'antd-mobile/es/components/button';
import Popup from 'antd-mobile/es/components/popup';
import { keepTabInside } from './focus-trap';
import Toast from 'antd-mobile/es/components/toast';
import SignaturePad, { type PointGroup } from 'signature_pad';
import { useTranslation } from 'react-i18next';
import { SIGNATURE } from '@/config/constants';
import { cleanTypedName, TYPED_NAME_MAX, typedSignaturePng } from './typed-signature';

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
  if (strokes.length > 0) {
    pad.fromData(strokes);
    drawStrokeEnds(canvas, strokes);
  }
  return cssWidth;
}

/**
 * Draws the last segment of each stroke in `groups` (points in CSS pixels), the
 * part signature_pad leaves out (see the file's comment): a round-capped line
 * from the stroke's second-to-last point to its last, in the stroke's colour, as
 * thick as the stroke's thinnest curve (signature_pad's widths are radii, so the
 * line is 2 × `minWidth`). A one-point stroke is a dot and has no segment.
 */
export function drawStrokeEnds(canvas: HTMLCanvasElement, groups: PointGroup[]): void {
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  for (const { points, penColor, minWidth } of groups) {
    if (points.length < 2) continue;
    const from = points[points.length - 2];
    const to = points[points.length - 1];
    ctx.save();
    ctx.beginPath();
    ctx.moveTo(from.x, from.y);
    ctx.lineTo(to.x, to.y);
    ctx.lineWidth = minWidth * 2;
    ctx.lineCap = 'round';
    ctx.strokeStyle = penColor;
    ctx.stroke();
    ctx.restore();
  }
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
      throttle: 0,
    });
    // The stroke just ended is the last group of the pad's data.
    signaturePad.addEventListener('endStroke', () => drawStrokeEnds(node, signaturePad.toData().slice(-1)));
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

  // Accessibility (WCAG 2.1.1, 2.4.3, 4.1.2): the sheet is a named dialog, Escape
  // closes it, focus moves into it on opening and Tab stays inside it while it is
  // open, and a typed name signs for whoever cannot draw.
  const titleId = useId();
  const hintId = useId();
  const [typedName, setTypedName] = useState('');
  const dialogRef = useRef<HTMLDivElement | null>(null);
  // The latest onClose, without re-running the focus effect when its identity changes.
  const closeRef = useRef(onClose);
  useEffect(() => {
    closeRef.current = onClose;
  });
  useEffect(() => {
    if (!visible) return;
    const opener = document.activeElement as HTMLElement | null;
    // Focus moves into the sheet once it has opened, unless something in it already
    // has focus (a quick tap on the name field must keep its keystrokes).
    const timer = window.setTimeout(() => {
      const dialog = dialogRef.current;
      if (dialog && !dialog.contains(document.activeElement)) dialog.focus();
    }, 50);
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') closeRef.current();
      if (dialogRef.current) keepTabInside(dialogRef.current, event);
    };
    document.addEventListener('keydown', onKey);
    return () => {
      window.clearTimeout(timer);
      document.removeEventListener('keydown', onKey);
      if (opener && document.contains(opener)) opener.focus();
    };
  }, [visible]);

  const confirm = () => {
    const typed = cleanTypedName(typedName);
    if ((!pad.current || pad.current.isEmpty()) && typed) {
      const png = typedSignaturePng(typed);
      if (png) {
        void onConfirm(png);
        return;
      }
    }
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
      <div
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={hintId}
        tabIndex={-1}
        ref={dialogRef}
        className="signature-sheet__dialog"
      >
        <h2 id={titleId} className="signature-sheet__title">{t('signature_title')}</h2>
        <p id={hintId} className="signature-sheet__hint">{t('signature_hint')}</p>
        <div className="signature-sheet__pad">
          <canvas
            ref={attach}
            className="signature-sheet__canvas"
            data-testid="signature-canvas"
            role="img"
            aria-label={t('signature_pad_label')}
          />
        </div>
        <label className="signature-sheet__typed">
          <span className="signature-sheet__typed-label">{t('signature_typed_label')}</span>
          <input
            className="signature-sheet__typed-input"
            type="text"
            autoComplete="name"
            maxLength={TYPED_NAME_MAX}
            value={typedName}
            onChange={(event) => setTypedName(event.target.value)}
          />
        </label>
        <div className="signature-sheet__actions">
          <Button
            onClick={() => {
              pad.current?.clear();
              setTypedName('');
            }}
          >
            {t('reset')}
          </Button>
          <Button color="primary" loading={busy} onClick={confirm}>
            {t('confirm')}
          </Button>
        </div>
      </div>
    </Popup>
  );
}
