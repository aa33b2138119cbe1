/**
 * The lender's privacy notice (PRODUCT.md 12.6): its text and version come from the
 * company configuration (`privacy-notice`, `privacyNoticeVersion`), so the version a
 * borrower accepts at sign-up is the one whose text was shown, in the borrower's
 * language where the lender gave it in several (lib/company-text.ts). Opened from the
 * sign-up consent and from the My page.
 */
import type { TFunction } from 'i18next';
import { companyText } from '@/lib/company-text';
import i18n from '@/lib/i18n';
import type { CompanyConfig } from '@/lib/api-types';
import { showAlert } from './feedback';

export function showPrivacyNotice(t: TFunction, company: CompanyConfig | undefined) {
  const version = company?.privacyNoticeVersion ?? '';
  showAlert({
    title: t('privacy_notice_title'),
    content: (
      <div className="stack" data-testid="privacy-notice">
        <p>{companyText(company, 'privacy-notice', i18n.language)}</p>
        {version && <p className="muted">{t('privacy_notice_version', { version })}</p>}
      </div>
    ),
    confirmText: t('ok'),
  });
}
