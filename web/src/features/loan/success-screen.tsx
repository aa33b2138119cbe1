/** `/success/:orderId`: application received, with contact and back-home buttons (PRODUCT.md 3). */
import Button from 'antd-mobile/es/components/button';
import Result from 'antd-mobile/es/components/result';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { Page } from '@/components/page';
import { useOpenService } from '@/components/service-button';

export default function SuccessScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { orderId = '' } = useParams();
  const openService = useOpenService();
  return (
    <Page title={t('apply_success')}>
      <div className="card">
        <Result status="success" title={t('apply_success')} description={t('success_text')} />
        <p className="muted center">{t('order_number', { id: orderId })}</p>
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
