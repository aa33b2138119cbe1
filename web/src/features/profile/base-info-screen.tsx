/** `/baseInfo`: the full profile, ID photos to bank account (PRODUCT.md 2.3, 3). */
import { useTranslation } from 'react-i18next';
import { Page } from '@/components/page';
import { QueryGate } from '@/components/query-gate';
import { useUserInfoQuery } from '@/lib/shared-api';
import { ProfileForm } from './profile-form';

export default function BaseInfoScreen() {
  const { t } = useTranslation();
  const user = useUserInfoQuery(undefined, { refetchOnMountOrArgChange: true });
  return (
    <Page title={t('base_info_title')} back>
      <QueryGate query={user} fresh>{(u) => <ProfileForm user={u} full next="/" />}</QueryGate>
    </Page>
  );
}
