/**
 * The customer-service button, in the header bar of every borrower screen
 * (beside the screen's own actions) and on the sign-in screen's brand row.
 *
 * It used to float 60 px from the bottom and 10 px from the right over the
 * content, where it covered Next, "Sign and submit", the bank "Change" link,
 * select arrows and the schedule's status column (issue 15). The header is
 * reserved space that content never scrolls under, so the button is always
 * reachable and never covers a control.
 *
 * It opens the configured link in a new window only when that link can open
 * (an https URL on a public host, src/lib/service-link.ts); otherwise, e.g. the
 * demo's placeholder link, it shows the in-app dialog with the lender's contact
 * details (the dialog's code loads on first use).
 */
import { lazy, Suspense } from 'react';
import { MessageOutline } from 'antd-mobile-icons';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { openableLink } from '@/lib/service-link';
import type { CompanyConfig } from '@/lib/api-types';
import { useCompanyConfigQuery, useCustomerServiceQuery } from '@/lib/shared-api';
import { showAlert } from './feedback';

const ContactDetailsList = lazy(() => import('./contact-dialog').then((m) => ({ default: m.ContactDetailsList })));

/** The in-app dialog with the lender's contact details (components/contact-dialog.tsx). */
function showContactDialog(config: CompanyConfig | undefined, t: TFunction) {
  showAlert({
    title: t('customer_service'),
    content: (
      <Suspense fallback={null}>
        <ContactDetailsList config={config} t={t} />
      </Suspense>
    ),
    confirmText: t('ok'),
  });
}

/** Opens customer service: a link that can open in a new window, else the contact dialog. */
export function useOpenService() {
  const { t } = useTranslation();
  const { data: link } = useCustomerServiceQuery();
  const { data: config } = useCompanyConfigQuery();
  return () => {
    const href = openableLink(link);
    if (href) {
      window.open(href, '_blank', 'noopener,noreferrer');
      return;
    }
    showContactDialog(config, t);
  };
}

export function ServiceButton() {
  const { t } = useTranslation();
  const open = useOpenService();
  return (
    <button
      type="button"
      className="service-button"
      aria-label={t('customer_service')}
      title={t('customer_service')}
      data-testid="service-button"
      onClick={open}
    >
      <MessageOutline aria-hidden="true" fontSize={22} />
    </button>
  );
}
