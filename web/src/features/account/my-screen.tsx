/**
 * `/my` (PRODUCT.md 3): credit score, the menu (inbox with its unread count,
 * information, bank account, recharge, orders, language, about, logout) and the
 * home button via the tab bar; "Your data" (12.6): the privacy notice accepted at
 * sign-up, with its version and when (opens its text), and "Download my data".
 * Logout revokes the token on the server, clears it and goes to `/login` (4.5).
 */
import Badge from 'antd-mobile/es/components/badge';
import Button from 'antd-mobile/es/components/button';
import Dialog from 'antd-mobile/es/components/dialog';
import List from 'antd-mobile/es/components/list';
import ProgressCircle from 'antd-mobile/es/components/progress-circle';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useAppDispatch } from '@/app/hooks';
import { LanguageSwitch } from '@/components/language-switch';
import { Page } from '@/components/page';
import { QueryGate } from '@/components/query-gate';
import { showPrivacyNotice } from '@/components/privacy-notice';
import { useDates } from '@/components/use-dates';
import { api } from '@/lib/api';
import { mask } from '@/lib/mask';
import { signedOut } from '@/lib/session';
import { useCompanyConfigQuery, useUserInfoQuery } from '@/lib/shared-api';
import { useLogoutMutation } from './account-api';
import { useDownloadMyData } from './data-export';
import { useNoticesQuery } from './inbox-api';

/** The score shown when the api has none: the demo's neutral 5.0 (PRODUCT.md 3 `/loan`). */
const DEFAULT_SCORE = 5;

export default function MyScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const user = useUserInfoQuery();
  const [logout] = useLogoutMutation();
  const dates = useDates();
  const { data: company } = useCompanyConfigQuery();
  const myData = useDownloadMyData();
  // The inbox's first page: its unread count is the badge, and the inbox opens from cache.
  const unread = useNoticesQuery(1).data?.unread ?? 0;

  const onLogout = async () => {
    const sure = await Dialog.confirm({ content: t('logout_confirm'), confirmText: t('logout'), cancelText: t('cancel') });
    if (!sure) return;
    // The token is forgotten locally whatever the server says.
    await logout().unwrap().catch(() => undefined);
    dispatch(signedOut());
    dispatch(api.util.resetApiState());
    navigate('/login', { replace: true });
  };

  return (
    <Page title={t('tab_my')} tabs>
      <QueryGate query={user}>
        {(u) => {
          const score = u.creditScore ?? DEFAULT_SCORE;
          return (
            <>
              <section className="card card--hero row">
                <div>
                  <div className="muted">{t('account')}</div>
                  <div style={{ fontSize: 18, fontWeight: 600 }}>{u.realName ?? mask(u.mobile, 4)}</div>
                  <div className="muted">{mask(u.mobile, 4)}</div>
                </div>
                <ProgressCircle percent={(score / 5) * 100} style={{ '--size': '72px', '--track-width': '5px', '--fill-color': '#fff', '--track-color': 'rgba(255,255,255,.3)' } as React.CSSProperties}>
                  <div style={{ color: '#fff', fontWeight: 700 }}>{score.toFixed(1)}</div>
                  <div style={{ color: '#fff', fontSize: 10 }}>{t('credit_score')}</div>
                </ProgressCircle>
              </section>
              <List mode="card">
                <List.Item
                  onClick={() => navigate('/inbox')}
                  extra={
                    unread > 0 ? (
                      <span data-testid="inbox-badge">
                        <Badge content={unread > 99 ? '99+' : unread} aria-hidden="true" />
                        <span className="visually-hidden">{t('inbox_unread_count', { n: unread })}</span>
                      </span>
                    ) : undefined
                  }
                >
                  {t('inbox_title')}
                </List.Item>
                <List.Item onClick={() => navigate('/baseInfoDetail')}>{t('my_information')}</List.Item>
                <List.Item onClick={() => navigate('/bankInfoDetail')}>{t('bank_account')}</List.Item>
                <List.Item onClick={() => navigate('/order')}>{t('my_orders')}</List.Item>
                <List.Item onClick={() => navigate('/recharge')}>{t('recharge')}</List.Item>
                <List.Item onClick={() => navigate('/repayDetail')}>{t('repay_detail')}</List.Item>
                <List.Item onClick={() => navigate('/changePassword')}>{t('change_password')}</List.Item>
                <List.Item onClick={() => navigate('/withdrawPin')}>{t('withdraw_pin')}</List.Item>
                <List.Item onClick={() => navigate('/sessions')}>{t('sessions_title')}</List.Item>
                <List.Item onClick={() => navigate('/about')}>{t('about_us')}</List.Item>
              </List>
              <List mode="card" header={t('my_data_title')}>
                <List.Item onClick={() => showPrivacyNotice(t, company)} data-testid="privacy-consent">
                  {u.privacyNotice
                    ? t(u.privacyNotice.language ? 'privacy_consent_line_language' : 'privacy_consent_line', {
                        version: u.privacyNotice.version,
                        date: dates.dateTime(u.privacyNotice.acceptedAt),
                        language: t(`language_${u.privacyNotice.language}`),
                      })
                    : t('privacy_consent_none')}
                </List.Item>
                <List.Item
                  onClick={() => void myData.download()}
                  description={t('data_export_hint')}
                  disabled={myData.busy}
                  aria-busy={myData.busy}
                  data-testid="download-my-data"
                >
                  {t('data_export_download')}
                </List.Item>
              </List>
              <LanguageSwitch />
              <Button block color="danger" fill="outline" onClick={onLogout}>
                {t('logout')}
              </Button>
            </>
          );
        }}
      </QueryGate>
    </Page>
  );
}
