/** `/baseInfo`: the full profile, ID photos to bank account (PRODUCT.md 2.3, 3). */
import { useTranslation } from 'react-i18next';
import { Page } from '@/components/page';
import { QueryGate } from '@/components/query-gate';
import { useThen } from '@/components/use-then';
import { useUserInfoQuery } from '@/lib/shared-api';
import { ProfileForm } from './profile-form';

export default function BaseInfoScreen() {
  const { t } = useTranslation();
  const user = useUserInfoQuery(undefined, { refetchOnMountOrArgChange: true });
  const next = useThen('/');
  return (
    <Page title={t('base_info_title')} back>
      <QueryGate query={user} fresh>{(u) => <ProfileForm user={u} full next={next} />}</QueryGate>
    </Page>
  );
}
