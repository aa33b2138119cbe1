/**
 * `/sessions` (PRODUCT.md 12.3), from the My page: every live login of the account,
 * newest first, this device marked; any other can be logged out. Logging out this
 * device is the My page's Log out.
 */
import Button from 'antd-mobile/es/components/button';
import List from 'antd-mobile/es/components/list';
import { useTranslation } from 'react-i18next';
import { showToast } from '@/components/feedback';
import { Page } from '@/components/page';
import { QueryGate } from '@/components/query-gate';
import { useDates } from '@/components/use-dates';
import type { ApiFailure } from '@/lib/envelope';
import { useRevokeSessionMutation, useSessionsQuery, type SessionView } from './credentials-api';

function SessionList({ sessions }: { sessions: SessionView[] }) {
  const { t } = useTranslation();
  const dates = useDates();
  const [revoke, revokeState] = useRevokeSessionMutation();
  const logOut = async (id: string) => {
    try {
      await revoke(id).unwrap();
      showToast({ icon: 'success', content: t('session_revoked') });
    } catch (error) {
      showToast({ content: (error as ApiFailure).message });
    }
  };
  return (
    <List data-testid="sessions">
      {sessions.map((s) => (
        <List.Item
          key={s.id}
          description={t('session_expires', { at: dates.dateTime(s.expiresAt) })}
          extra={
            s.current ? (
              <span className="muted">{t('session_this_device')}</span>
            ) : (
              <Button size="small" color="danger" fill="outline" loading={revokeState.isLoading} onClick={() => void logOut(s.id)}>
                {t('session_log_out')}
              </Button>
            )
          }
        >
          {t('session_signed_in', { at: dates.dateTime(s.createdAt) })}
        </List.Item>
      ))}
    </List>
  );
}

export default function SessionsScreen() {
  const { t } = useTranslation();
  const sessions = useSessionsQuery();
  return (
    <Page title={t('sessions_title')} back="/my">
      <p className="muted">{t('sessions_text')}</p>
      <QueryGate query={sessions}>{(list) => <SessionList sessions={list} />}</QueryGate>
    </Page>
  );
}
