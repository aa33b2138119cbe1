/**
 * The lender's legal name, registration and licence numbers, and the line "We
 * never ask you to pay to receive a loan." (P14), on every borrower screen.
 */
import { useTranslation } from 'react-i18next';
import { useCompanyConfigQuery } from '@/lib/shared-api';

export function LenderFooter() {
  const { t } = useTranslation();
  const { data } = useCompanyConfigQuery();
  const lender = data?.lender;
  return (
    <footer className="lender-footer" data-testid="lender-footer">
      {lender && (
        <p>
          {lender.legal_name} · {t('registration_no')} {lender.registration_no} · {lender.licence_no}
        </p>
      )}
      <p className="lender-footer__notice">{t('never_pay_notice')}</p>
    </footer>
  );
}
