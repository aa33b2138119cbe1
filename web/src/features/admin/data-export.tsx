/**
 * A borrower's personal data in the console (PRODUCT.md 12.6, 7): "Export borrower
 * data" downloads everything held about the borrower as JSON with the auditor's
 * token, and the record of every export of their data — who, when — that the server
 * keeps (`data_export`) is listed under it, re-read after each export. The erasure
 * of the data after the retention period follows (erase-personal-data.tsx).
 */
import { useState, type ReactNode } from 'react';
import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import type { ApiFailure } from '@/lib/envelope';
import { localDay, saveJson } from '@/lib/save-file';
import type { Wire } from '@/lib/wire';
import { adminApi, adminBaseQuery } from './admin-api';
import { ActionDone, ActionError, Section, WhenWho } from './admin-ui';

/** One recorded export (`/admin/api/users/exportLog`). */
export type DataExportRecord = Wire['ExportLogEntry'];

const dataExportApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    /** A mutation: each export is fresh, and recorded with the auditor's id. */
    adminDataExport: build.mutation<Wire['DataExport'], string>({
      queryFn: (userId, queryApi, extra) =>
        adminBaseQuery<Wire['DataExport']>({ url: 'admin/api/users/dataExport', body: { userId } }, queryApi, extra),
    }),
    adminDataExports: build.query<DataExportRecord[], string>({
      queryFn: (userId, queryApi, extra) =>
        adminBaseQuery<DataExportRecord[]>({ url: 'admin/api/users/exportLog', body: { userId } }, queryApi, extra),
      providesTags: (_r, _e, id) => [{ type: 'AdminUser', id }],
    }),
  }),
});

export const { useAdminDataExportMutation, useAdminDataExportsQuery } = dataExportApi;

/** The saved file's name for `userId` on `date` (the device's day). */
export function borrowerExportFileName(userId: string, date: Date = new Date()): string {
  return `borrower-data-${userId}-${localDay(date)}.json`;
}

/** The export, its record and, under them, `children` (the erasure of the data). */
export function BorrowerDataExport({ userId, children }: { userId: string; children?: ReactNode }) {
  const { t } = useTranslation();
  const [exportData, state] = useAdminDataExportMutation();
  const log = useAdminDataExportsQuery(userId);
  const [done, setDone] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const onExport = async () => {
    setDone(null);
    setProblem(null);
    try {
      const data = await exportData(userId).unwrap();
      const file = borrowerExportFileName(userId);
      saveJson(data, file);
      setDone(t('admin_data_export_saved', { file }));
    } catch (error) {
      setProblem((error as ApiFailure).message);
    } finally {
      void log.refetch();
    }
  };

  return (
    <Section title={t('admin_data_export')} testId="admin-data-export">
      <p className="admin-muted">{t('admin_data_export_hint')}</p>
      <div className="admin-actions">
        <Button size="small" color="primary" fill="outline" loading={state.isLoading} onClick={() => void onExport()}>
          {t('admin_data_export_button')}
        </Button>
      </div>
      <ActionDone message={done} />
      <ActionError message={problem} />
      <h3 className="admin-subtitle">{t('admin_data_export_log')}</h3>
      {log.data && log.data.length > 0 ? (
        <ol className="admin-actions-log">
          {log.data.map((record, index) => (
            <li key={`${record.at}-${index}`} data-testid="admin-data-export-record">
              <WhenWho
                at={record.at}
                who={
                  record.actor.startsWith('auditor:')
                    ? (record.actorName ?? record.actor)
                    : t('admin_data_export_by_borrower')
                }
                title={record.actor}
                testId="admin-data-export-actor"
              />
            </li>
          ))}
        </ol>
      ) : (
        log.isSuccess && <p className="admin-muted">{t('admin_data_export_none')}</p>
      )}
      {children}
    </Section>
  );
}
