/**
 * Floating customer-service button, 60 px from the bottom and 10 px from the
 * right (PRODUCT.md 3). Opens the configured link in a new window, or says
 * "Please contact customer service." when none is configured.
 */
import { Dialog, FloatingBubble } from 'antd-mobile';
import { MessageOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { useCustomerServiceQuery } from '@/lib/shared-api';

/** Opens customer service: the link in a new window, else a dialog. */
export function useOpenService() {
  const { t } = useTranslation();
  const { data: link } = useCustomerServiceQuery();
  return () => {
    if (link) window.open(link, '_blank', 'noopener,noreferrer');
    else void Dialog.alert({ content: t('contact_service_dialog'), confirmText: t('ok') });
  };
}

export function ServiceButton() {
  const { t } = useTranslation();
  const open = useOpenService();
  return (
    <FloatingBubble
      aria-label={t('customer_service')}
      style={{
        '--initial-position-bottom': '60px',
        '--initial-position-right': '10px',
        '--edge-distance': '10px',
        '--size': '48px',
        '--z-index': '900',
      } as React.CSSProperties}
      onClick={open}
    >
      <MessageOutline fontSize={24} />
    </FloatingBubble>
  );
}
