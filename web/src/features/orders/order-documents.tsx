/**
 * The order's documents on `/detail/:orderId` (PRODUCT.md 12.5): the signed
 * contract and the statement of account as PDF, and once the loan is paid out a
 * receipt per payment and per refund. Each is the server's PDF
 * (components/pdf-download), downloaded with the borrower's token.
 */
import { useTranslation } from 'react-i18next';
import { PdfLink } from '@/components/pdf-download';
import { useMoney } from '@/components/use-money';
import type { Order } from '@/lib/api-types';
import { useReceiptsQuery } from './orders-api';

/** Statuses after a payout: the order can have payments, refunds, and so receipts. */
const PAID_OUT = new Set([4, 10]);

export function OrderDocuments({ order }: { order: Order }) {
  const { t } = useTranslation();
  const money = useMoney();
  const paidOut = PAID_OUT.has(order.status);
  const receipts = useReceiptsQuery(order.orderId, { skip: !paidOut });
  const number = order.orderNo ?? order.orderId;
  const body = { loanOrderId: order.orderId };

  return (
    <section className="card stack" aria-label={t('documents_title')} data-testid="order-documents">
      <h2 className="card__title">{t('documents_title')}</h2>
      <PdfLink
        path="/jackey/loan/contractPdf"
        body={body}
        fileName={`contract-${number}.pdf`}
        label={t('documents_contract_pdf')}
        testId="contract-pdf"
      />
      <PdfLink
        path="/jackey/loan/statementPdf"
        body={body}
        fileName={`statement-${number}.pdf`}
        label={t('documents_statement_pdf')}
        testId="statement-pdf"
      />
      {paidOut &&
        (receipts.data && receipts.data.length > 0 ? (
          <ul className="orders-receipts" data-testid="receipts">
            {receipts.data.map((receipt) => (
              <li key={receipt.receiptNo}>
                <PdfLink
                  path="/jackey/loan/receiptPdf"
                  body={{ ...body, receiptNo: receipt.receiptNo }}
                  fileName={`receipt-${receipt.receiptNo}.pdf`}
                  label={t(receipt.kind === 'refund' ? 'documents_refund_pdf' : 'documents_receipt_pdf', {
                    number: receipt.receiptNo,
                    amount: money(receipt.amount),
                  })}
                  testId={`receipt-pdf-${receipt.receiptNo}`}
                />
              </li>
            ))}
          </ul>
        ) : (
          receipts.isSuccess && <p className="muted">{t('documents_no_receipts')}</p>
        ))}
    </section>
  );
}
