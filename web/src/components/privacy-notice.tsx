/**
 * The lender's privacy notice (PRODUCT.md 12.6): its text and version come from the
 * company configuration (`privacy-notice`, `privacyNoticeVersion`), so the version a
 * borrower accepts at sign-up is the one whose text was shown. Opened from the
 * sign-up consent and from the My page.
 */
import type { TFunction } from 'i18next';
import type { CompanyConfig } from '@/lib/types';
import { showAlert } from './feedback';

export function showPrivacyNotice(t: TFunction, company: CompanyConfig | undefined) {
  const version = company?.privacyNoticeVersion ?? '';
  showAlert({
    title: t('privacy_notice_title'),
    content: (
      <div className="stack" data-testid="privacy-notice">
        <p>{company?.['privacy-notice'] ?? ''}</p>
        {version && <p className="muted">{t('privacy_notice_version', { version })}</p>}
      </div>
    ),
    confirmText: t('ok'),
  });
}
