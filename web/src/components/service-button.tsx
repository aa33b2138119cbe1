/**
 * Floating customer-service button, 60 px from the bottom and 10 px from the
 * right (PRODUCT.md 3). Opens the configured link in a new window, or says
 * "Please contact customer service." when none is configured. A plain fixed
 * button: it is on every screen, so it stays light (the dialog loads on demand).
 */
import { MessageOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { useCustomerServiceQuery } from '@/lib/shared-api';
import { showAlert } from './feedback';

/** Opens customer service: the link in a new window, else a dialog. */
export function useOpenService() {
  const { t } = useTranslation();
  const { data: link } = useCustomerServiceQuery();
  return () => {
    if (link) {
      window.open(link, '_blank', 'noopener,noreferrer');
      return;
    }
    showAlert({ content: t('contact_service_dialog'), confirmText: t('ok') });
  };
}

export function ServiceButton() {
  const { t } = useTranslation();
  const open = useOpenService();
  return (
    <button type="button" className="service-button" aria-label={t('customer_service')} title={t('customer_service')} onClick={open}>
      <MessageOutline fontSize={24} />
    </button>
  );
}
