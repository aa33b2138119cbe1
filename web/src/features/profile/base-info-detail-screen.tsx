/**
 * `/baseInfoDetail`: the profile, read-only; ID number and card number masked
 * with a reveal toggle (PRODUCT.md 3); the birthday as every other day of the app
 * reads (`May 1, 1990`). The card number arrives masked from the
 * server, so revealing shows only what the server sent.
 */
import { useState } from 'react';
import Button from 'antd-mobile/es/components/button';
import List from 'antd-mobile/es/components/list';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Page } from '@/components/page';
import { QueryGate } from '@/components/query-gate';
import { useDates } from '@/components/use-dates';
import { mask } from '@/lib/mask';
import { formatPlace } from '@/lib/place';
import { useReferenceLabel } from '@/lib/reference-label';
import { useUserInfoQuery } from '@/lib/shared-api';
import { IdPhotos } from './id-photos';

export default function BaseInfoDetailScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useUserInfoQuery();
  const [reveal, setReveal] = useState(false);
  const dates = useDates();
  const marriageLabel = useReferenceLabel('marriage');
  const educationLabel = useReferenceLabel('education');
  return (
    <Page title={t('base_info_detail_title')} back right={<Button size="mini" fill="none" onClick={() => setReveal((r) => !r)}>{t(reveal ? 'hide' : 'reveal')}</Button>}>
      <QueryGate query={user}>
        {(u) => (
          <>
            {u.idImages && (
              <div className="card">
                <IdPhotos photos={{}} onChange={() => undefined} existing={u.idImages} readOnly />
              </div>
            )}
            <List mode="card">
              <List.Item extra={u.realName ?? '—'}>{t('real_name')}</List.Item>
              <List.Item extra={(reveal ? u.identity : mask(u.identity, 4)) || '—'}>{t('id_number')}</List.Item>
              <List.Item extra={u.sex === 1 ? t('male') : u.sex === 2 ? t('female') : '—'}>{t('sex')}</List.Item>
              <List.Item extra={dates.day(u.birthday)}>{t('birthday')}</List.Item>
              <List.Item extra={u.marriage ? marriageLabel(u.marriage) : '—'}>{t('marriage')}</List.Item>
              <List.Item extra={u.email ?? '—'}>{t('email')}</List.Item>
              <List.Item extra={formatPlace(u.provinceCity) || '—'}>{t('province_city')}</List.Item>
              <List.Item extra={u.address ?? '—'}>{t('address')}</List.Item>
              <List.Item extra={u.education ? educationLabel(u.education) : '—'}>{t('education')}</List.Item>
              <List.Item extra={u.bankName ?? '—'}>{t('bank_name')}</List.Item>
              <List.Item extra={u.cardNo ?? '—'}>{t('card_no')}</List.Item>
            </List>
            <Button block color="primary" fill="outline" onClick={() => navigate('/baseInfo')}>
              {t('edit_profile')}
            </Button>
          </>
        )}
      </QueryGate>
    </Page>
  );
}
