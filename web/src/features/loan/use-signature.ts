/**
 * The signature sheet of the home and apply screens (PRODUCT.md 3): whether it
 * is open, and the upload of a confirmed signature (a toast either way; the
 * sheet closes once the signature is saved). Spread `sheet` on `LazySignatureSheet`.
 */
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showToast } from '@/components/feedback';
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
      showToast({ icon: 'success', content: t('signature_saved') });
    } catch (error) {
      showToast({ content: (error as ApiFailure).message });
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
