/**
 * Bottom-sheet signature pad (PRODUCT.md 3): an 800×300 canvas, pen width 6,
 * black, with reset and confirm; confirming an empty pad says "please sign first".
 * `onConfirm` receives a PNG data URL.
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

export function SignatureSheet({ visible, onClose, onConfirm, busy }: SignatureSheetProps) {
  const { t } = useTranslation();
  const pad = useRef<SignaturePad | null>(null);

  // The pad attaches when the canvas node mounts (the sheet renders its content
  // lazily, so an effect keyed on `visible` can run before the canvas exists) and
  // detaches when it unmounts. It measures the canvas on every stroke, so the
  // sheet's slide-in animation does not matter.
  const attach = useCallback((node: HTMLCanvasElement | null) => {
    pad.current?.off();
    pad.current = node
      ? new SignaturePad(node, {
          minWidth: SIGNATURE.penWidth / 2,
          maxWidth: SIGNATURE.penWidth,
          penColor: SIGNATURE.color,
          backgroundColor: 'rgba(255,255,255,1)',
        })
      : null;
  }, []);

  const confirm = () => {
    if (!pad.current || pad.current.isEmpty()) {
      Toast.show({ content: t('sign_first') });
      return;
    }
    void onConfirm(pad.current.toDataURL('image/png'));
  };

  return (
    <Popup
      visible={visible}
      onMaskClick={onClose}
      bodyClassName="signature-sheet"
    >
      <h3 className="signature-sheet__title">{t('signature_title')}</h3>
      <p className="signature-sheet__hint">{t('signature_hint')}</p>
      <canvas
        ref={attach}
        width={SIGNATURE.width}
        height={SIGNATURE.height}
        className="signature-sheet__canvas"
        data-testid="signature-canvas"
      />
      <div className="signature-sheet__actions">
        <Button onClick={() => pad.current?.clear()}>{t('reset')}</Button>
        <Button color="primary" loading={busy} onClick={confirm}>
          {t('confirm')}
        </Button>
      </div>
    </Popup>
  );
}
