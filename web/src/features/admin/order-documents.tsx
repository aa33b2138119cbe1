/**
 * The order's documents in the console (PRODUCT.md 12.5, 7): the signed contract,
 * the statement of account and a receipt per payment and per refund, as the
 * server's PDFs downloaded with the auditor's token (components/pdf-download), in
 * the console's language; and the record of every download of this order's
 * documents — who, which, when — that the server keeps (`document_download`).
 */
import { useTranslation } from 'react-i18next';
import { PdfLink } from '@/components/pdf-download';
import { useDates } from '@/components/use-dates';
import { useMoney } from '@/components/use-money';
import { adminApi, adminBaseQuery } from './admin-api';
import { adminSession } from './admin-session';
import { Section, Table } from './admin-ui';
import './order-documents.css';

/** One receipt (`/admin/api/documents/receipts`). */
export interface AdminReceipt {
  receiptNo: string;
  kind: 'payment' | 'refund';
  amount: string;
  at: string;
}

/** One recorded download (`/admin/api/documents/downloads`). */
export interface DocumentDownload {
  at: string;
  /** `user:<id>` or `auditor:<id>`. */
  actor: string;
  /** The auditor's username, for an auditor. */
  actorName: string | null;
  document: 'contract' | 'receipt' | 'statement';
  receiptNo: string | null;
  lang: string;
}

const documentsApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    adminReceipts: build.query<AdminReceipt[], string>({
      queryFn: (orderId, queryApi, extra) =>
        adminBaseQuery<AdminReceipt[]>({ url: 'admin/api/documents/receipts', body: { orderId } }, queryApi, extra),
      providesTags: (_r, _e, id) => [{ type: 'AdminOrder', id }],
    }),
    adminDownloads: build.query<DocumentDownload[], string>({
      queryFn: (orderId, queryApi, extra) =>
        adminBaseQuery<DocumentDownload[]>({ url: 'admin/api/documents/downloads', body: { orderId } }, queryApi, extra),
      providesTags: (_r, _e, id) => [{ type: 'AdminOrder', id }],
    }),
  }),
});

export const { useAdminReceiptsQuery, useAdminDownloadsQuery } = documentsApi;

export function OrderDocuments({ orderId, orderNo }: { orderId: string; orderNo: string | null }) {
  const { t } = useTranslation();
  const money = useMoney();
  const dates = useDates();
  const token = adminSession.token();
  const receipts = useAdminReceiptsQuery(orderId);
  const downloads = useAdminDownloadsQuery(orderId);
  const number = orderNo ?? orderId;
  const body = { orderId };
  const saved = () => void downloads.refetch();

  const documentName = (d: DocumentDownload) =>
    d.document === 'receipt'
      ? t('admin_document_receipt', { number: d.receiptNo ?? '' })
      : t(d.document === 'contract' ? 'admin_document_contract' : 'admin_document_statement');

  return (
    <Section title={t('admin_documents')} testId="admin-documents">
      <div className="admin-documents">
        <PdfLink
          path="/admin/api/documents/contractPdf"
          body={body}
          token={token}
          onSaved={saved}
          fileName={`contract-${number}.pdf`}
          label={t('admin_contract_pdf')}
          testId="admin-contract-pdf"
        />
        <PdfLink
          path="/admin/api/documents/statementPdf"
          body={body}
          token={token}
          onSaved={saved}
          fileName={`statement-${number}.pdf`}
          label={t('admin_statement_pdf')}
          testId="admin-statement-pdf"
        />
        {receipts.data?.map((receipt) => (
          <PdfLink
            key={receipt.receiptNo}
            path="/admin/api/documents/receiptPdf"
            body={{ ...body, receiptNo: receipt.receiptNo }}
            token={token}
            onSaved={saved}
            fileName={`receipt-${receipt.receiptNo}.pdf`}
            label={t(receipt.kind === 'refund' ? 'admin_refund_pdf' : 'admin_receipt_pdf', {
              number: receipt.receiptNo,
              amount: money(receipt.amount),
            })}
            testId={`admin-receipt-pdf-${receipt.receiptNo}`}
          />
        ))}
        {receipts.data?.length === 0 && <p className="admin-muted">{t('admin_no_receipts')}</p>}
      </div>
      <h3 className="admin-subtitle">{t('admin_downloads')}</h3>
      {downloads.data && downloads.data.length > 0 ? (
        <Table
          className="admin-downloads"
          columns={[t('admin_download_at'), t('admin_download_who'), t('admin_download_document'), t('admin_download_lang')]}
          busy={downloads.isFetching}
        >
          <tbody>
            {downloads.data.map((d, index) => (
              <tr key={`${d.at}-${index}`} data-testid="admin-download">
                <td>{dates.dateTime(d.at)}</td>
                <td>{d.actor.startsWith('auditor:') ? (d.actorName ?? d.actor) : t('admin_download_borrower')}</td>
                <td>{documentName(d)}</td>
                <td>{d.lang}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      ) : (
        downloads.isSuccess && <p className="admin-muted">{t('admin_no_downloads')}</p>
      )}
    </Section>
  );
}
