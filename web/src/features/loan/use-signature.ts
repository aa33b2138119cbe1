/**
 * The signature sheet of the home and apply screens (PRODUCT.md 3): whether it
 * is open, and the upload of a confirmed signature (a toast either way; the
 * sheet closes once the signature is saved). Spread `sheet` on `SignatureSheet`.
 */
import { useCallback, useState } from 'react';
import Toast from 'antd-mobile/es/components/toast';
import { useTranslation } from 'react-i18next';
import type { SignatureSheetProps } from '@/components/signature-sheet';
import type { ApiFailure } from '@/lib/envelope';
import { useUploadSignatureMutation } from '@/lib/shared-api';

export function useSignature() {
  const { t } = useTranslation();
  const [signing, setSigning] = useState(false);
  const [upload, { isLoading }] = useUploadSignatureMutation();
  const open = useCallback(() => setSigning(true), []);

  const save = async (png: string) => {
    try {
      await upload(png).unwrap();
      setSigning(false);
      Toast.show({ icon: 'success', content: t('signature_saved') });
    } catch (error) {
      Toast.show({ content: (error as ApiFailure).message });
    }
  };

  const sheet: SignatureSheetProps = {
    visible: signing,
    busy: isLoading,
    onClose: () => setSigning(false),
    onConfirm: save,
  };
  return { open, sheet };
}
