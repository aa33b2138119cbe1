/**
 * `/lock` (PRODUCT.md 3, P4). A security lock (too many wrong passwords or PINs)
 * shows the account, the reason, a "send code" button and the unlock-code input;
 * the SMS code lifts it on the account itself (no separate unlock token). A compliance hold shows
 * who set it and why, what happens next and the contact button only. Unlocking never involves a
 * payment.
 */
import { useState } from 'react';
import Button from 'antd-mobile/es/components/button';
import Form from 'antd-mobile/es/components/form';
import Input from 'antd-mobile/es/components/input';
import Result from 'antd-mobile/es/components/result';
import Toast from 'antd-mobile/es/components/toast';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useAppSelector } from '@/app/hooks';
import { Page } from '@/components/page';
import { useOpenService } from '@/components/service-button';
import { SmsCodeField } from '@/components/sms-code-field';
import type { ApiFailure } from '@/lib/envelope';
import { useSendSmsMutation, useUserInfoQuery } from '@/lib/shared-api';
import { mask } from '@/lib/mask';
import { checkPhone, phoneInput } from '@/lib/validation';
import { useUnlockMutation, type LockedLogin } from './auth-api';
import './lock-i18n';

export default function LockScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const token = useAppSelector((state) => state.session.token);
  const { data: user, refetch } = useUserInfoQuery(undefined, { skip: !token });
  // From the login screen, when the right password met the lock: the phone typed.
  const fromLogin = useLocation().state as LockedLogin | null;
  const [mobileInput, setMobileInput] = useState(fromLogin?.mobile ?? '');
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [sendSms] = useSendSmsMutation();
  const [unlock, unlockState] = useUnlockMutation();
  const openService = useOpenService();
  const mobile = user?.mobile ?? mobileInput;
  const lock = user?.lock;
  const compliance = lock?.kind === 'compliance';

  const submit = async () => {
    if (!code.trim()) {
      setProblem(t('unlock_code_required'));
      return;
    }
    try {
      await unlock({ mobile, unlockCode: code.trim() }).unwrap();
      Toast.show({ icon: 'success', content: t('unlocked') });
      if (token) await refetch();
      navigate(token ? '/' : '/login', { replace: true });
    } catch (error) {
      setProblem((error as ApiFailure).message);
    }
  };

  // Signed in and not locked: say so, instead of a lock screen for a lock that is not there.
  if (user && !lock) {
    return (
      <Page title={t('lock_title')} back="/">
        <div className="card">
          <Result status="success" title={t('lock_none_title')} description={t('lock_none_text')} />
        </div>
        <Button block color="primary" size="large" onClick={() => navigate('/', { replace: true })}>
          {t('tab_home')}
        </Button>
      </Page>
    );
  }

  return (
    <Page title={t(compliance ? 'lock_compliance_title' : 'lock_title')} back={token ? '/' : '/login'}>
      <div className="card">
        <Result
          status={compliance ? 'warning' : 'info'}
          title={t(compliance ? 'lock_compliance_title' : 'lock_security_title')}
          description={
            // A hold's reason is the officer's words; a security lock's is worded in
            // the borrower's language by its cause (issue 52).
            compliance && lock?.reason
              ? t('lock_reason', { reason: lock.reason })
              : t(lock?.cause ? `lock_cause_${lock.cause}` : 'lock_security_text')
          }
        />
        {/* A hold says who set it and what happens next, so that it never reads as an
            unexplained "frozen account" (P4). */}
        {compliance && <p className="center">{t('lock_compliance_text')}</p>}
        {user && <p className="center muted">{t('account')}: {mask(user.mobile, 4)}</p>}
        <p className="info-box">{t('lock_never_pay')}</p>
      </div>
      {compliance ? (
        <Button block color="primary" size="large" onClick={openService}>
          {t('contact_service')}
        </Button>
      ) : (
        <div className="card">
          <Form layout="vertical">
            {!user && (
              <Form.Item label={t('phone')}>
                <Input aria-label={t('phone')} inputMode="numeric" value={mobileInput} onChange={(v) => setMobileInput(phoneInput(v))} />
              </Form.Item>
            )}
            <Form.Item label={t('unlock_code')}>
              <SmsCodeField
                value={code}
                onChange={setCode}
                disabled={!!checkPhone(mobile)}
                mobile={mobile}
                send={() => sendSms({ purpose: 'unlock', mobile }).unwrap()}
              />
            </Form.Item>
          </Form>
          {problem && <p className="error-text" role="alert">{problem}</p>}
          <Button block color="primary" size="large" loading={unlockState.isLoading} onClick={submit}>
            {t('unlock')}
          </Button>
        </div>
      )}
    </Page>
  );
}
