/** `/bankInfoDetail`: name, bank and masked card number, read-only (PRODUCT.md 3). */
import Button from 'antd-mobile/es/components/button';
import List from 'antd-mobile/es/components/list';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Page } from '@/components/page';
import { QueryGate } from '@/components/query-gate';
import { EmptyState } from '@/components/states';
import { useUserInfoQuery } from '@/lib/shared-api';

export default function BankInfoDetailScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useUserInfoQuery();
  return (
    <Page title={t('bank_info_detail_title')} back>
      <QueryGate query={user}>
        {(u) =>
          u.cardNo ? (
            <>
              <List mode="card">
                <List.Item extra={u.realName ?? '—'}>{t('holder_name')}</List.Item>
                <List.Item extra={u.bankName}>{t('bank_name')}</List.Item>
                <List.Item extra={u.cardNo}>{t('card_no')}</List.Item>
              </List>
              <Button block color="primary" fill="outline" onClick={() => navigate('/bankInfo')}>
                {t('change_bank')}
              </Button>
            </>
          ) : (
            <>
              <EmptyState text={t('no_bank')} />
              <Button block color="primary" onClick={() => navigate('/bankInfo')}>{t('bind_bank')}</Button>
            </>
          )
        }
      </QueryGate>
    </Page>
  );
}
