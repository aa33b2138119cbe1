/** `/success/:orderId`: application received, with contact and back-home buttons (PRODUCT.md 3). */
import Button from 'antd-mobile/es/components/button';
import Result from 'antd-mobile/es/components/result';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { Page } from '@/components/page';
import { useOpenService } from '@/components/service-button';
import { useOrderInfoQuery } from '@/lib/shared-api';

export default function SuccessScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { orderId = '' } = useParams();
  const openService = useOpenService();
  // The human order number (HL-yymm-nnnnnn, PRODUCT.md 12.5) comes with the order;
  // the id in the path stays on the wire.
  const { data: order } = useOrderInfoQuery(orderId, { skip: !orderId });
  return (
    <Page title={t('apply_success')}>
      <div className="card">
        <Result status="success" title={t('apply_success')} description={t('success_text')} />
        {order?.orderNo && <p className="muted center">{t('order_number', { number: order.orderNo })}</p>}
      </div>
      <div className="stack">
        <Button block color="primary" size="large" onClick={() => navigate(`/detail/${orderId}`)}>
          {t('view_order')}
        </Button>
        <Button block onClick={openService}>{t('contact_service')}</Button>
        <Button block fill="none" onClick={() => navigate('/')}>{t('back_home')}</Button>
      </div>
    </Page>
  );
}
