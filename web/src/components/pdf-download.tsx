/**
 * The server's PDF documents (PRODUCT.md 12.5; docs/adr/0010-pdf-documents.md): the
 * signed contract, a receipt per payment or refund, the statement of account. The
 * calls answer the PDF itself, or the usual envelope when refused, and need the
 * bearer token, so a plain link cannot fetch them: `downloadPdf` POSTs with the
 * token, turns a PDF answer into a blob and saves it under its file name, and hands
 * back the envelope of a refusal (lib/save-file `downloadFile`). `PdfLink` is the
 * button both apps show; the borrower's token by default, the console passes its own.
 */
import { useState } from 'react';
import Toast from 'antd-mobile/es/components/toast';
import { useTranslation } from 'react-i18next';
import { useAppSelector } from '@/app/hooks';
import { downloadFile, type FileOutcome } from '@/lib/save-file';
import { storage } from '@/lib/storage';
import './pdf-download.css';

export interface PdfRequest {
  /** The call, e.g. `/jackey/loan/contractPdf`. */
  path: string;
  /** Its JSON body (the order, the receipt number); `lang` is added. */
  body: Record<string, unknown>;
  /** The bearer token. */
  token: string | null;
  /** The saved file's name. */
  fileName: string;
  /** The language to print in (`en`, `zh`, `fil`). */
  lang: string;
}

/** What a download came to: saved, or the envelope's refusal. */
export type PdfOutcome = FileOutcome;

/** POSTs the request; saves a PDF answer, returns a refusal's code and message. */
export function downloadPdf(request: PdfRequest): Promise<PdfOutcome> {
  const { lang, body, ...rest } = request;
  return downloadFile({ ...rest, body: { ...body, lang }, type: 'application/pdf' });
}

export interface PdfLinkProps {
  /** The call. */
  path: string;
  /** Its body. */
  body: Record<string, unknown>;
  /** The saved file's name. */
  fileName: string;
  /** What the button says. */
  label: string;
  /** Overrides the borrower token (the console passes its own). */
  token?: string | null;
  /** Called after a PDF was saved (the console re-reads the download record). */
  onSaved?: () => void;
  testId?: string;
}

/** A button that downloads one document; a refusal shows as a toast. */
export function PdfLink({ path, body, fileName, label, token, onSaved, testId }: PdfLinkProps) {
  const { t, i18n } = useTranslation();
  const sessionToken = useAppSelector((state) => state.session.token);
  const bearer = token === undefined ? (sessionToken ?? storage.get('token')) : token;
  const [busy, setBusy] = useState(false);

  const onClick = async () => {
    setBusy(true);
    try {
      const outcome = await downloadPdf({ path, body, token: bearer, fileName, lang: i18n.language });
      if (outcome.ok) onSaved?.();
      else {
        const key = `service_error_${outcome.code}`;
        const message = outcome.code !== null && i18n.exists(key) ? t(key) : (outcome.message ?? t('document_download_failed'));
        Toast.show({ content: message });
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <button type="button" className="pdf-link" onClick={() => void onClick()} disabled={busy} aria-busy={busy} data-testid={testId}>
      <span aria-hidden="true" className="pdf-link__icon">
        PDF
      </span>
      {label}
    </button>
  );
}
