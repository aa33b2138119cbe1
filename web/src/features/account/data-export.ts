/**
 * "Download my data" (PRODUCT.md 12.6): fetches the borrower's export with their
 * token and saves it as `my-data-YYYY-MM-DD.json` (the device's date). A refusal
 * shows its translated message; nothing is saved then.
 */
import { useTranslation } from 'react-i18next';
import { showToast } from '@/components/feedback';
import type { ApiFailure } from '@/lib/envelope';
import { localDay, saveJson } from '@/lib/save-file';
import { useDataExportMutation } from './account-api';

/** The saved file's name on `date`. */
export function exportFileName(date: Date = new Date()): string {
  return `my-data-${localDay(date)}.json`;
}

export function useDownloadMyData() {
  const { t } = useTranslation();
  const [fetchExport, state] = useDataExportMutation();
  const download = async () => {
    if (state.isLoading) return;
    try {
      const data = await fetchExport().unwrap();
      const file = exportFileName();
      saveJson(data, file);
      showToast({ icon: 'success', content: t('data_export_done', { file }) });
    } catch (error) {
      showToast({ content: (error as ApiFailure).message ?? t('data_export_failed') });
    }
  };
  return { download, busy: state.isLoading };
}
