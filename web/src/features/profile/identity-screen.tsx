/** `/identity`: the identity step (PRODUCT.md 2.2, 3). */
import { useTranslation } from 'react-i18next';
import { Page } from '@/components/page';
import { QueryGate } from '@/components/query-gate';
import { useUserInfoQuery } from '@/lib/shared-api';
import { ProfileForm } from './profile-form';

export default function IdentityScreen() {
  const { t } = useTranslation();
  const user = useUserInfoQuery(undefined, { refetchOnMountOrArgChange: true });
  return (
    <Page title={t('identity_title')} back>
      <QueryGate query={user} fresh>{(u) => <ProfileForm user={u} full={false} next="/baseInfo" />}</QueryGate>
    </Page>
  );
}
