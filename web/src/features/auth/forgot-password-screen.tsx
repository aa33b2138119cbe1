/**
 * `/forgotPassword` (PRODUCT.md 12.3): phone, the `/sms/reset` code, a new password
 * twice. The server checks the code, sets the password, revokes every session of
 * the account and lifts a security lock (never a compliance hold); the borrower then
 * signs in with the new password. The answer is the same whether or not the phone
 * has an account (12.2).
 */
import { useState } from 'react';
import Button from 'antd-mobile/es/components/button';
import Form from 'antd-mobile/es/components/form';
import Input from 'antd-mobile/es/components/input';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { showToast } from '@/components/feedback';
import { Page } from '@/components/page';
import { SecretItem } from '@/components/secret-item';
import { SmsCodeField } from '@/components/sms-code-field';
import type { ApiFailure } from '@/lib/envelope';
import { useSendSmsMutation } from '@/lib/shared-api';
import { checkConfirm, checkPassword, checkPhone, checkSmsCode, digitsOnly } from '@/lib/validation';
import { useResetPasswordMutation } from './auth-api';

export default function ForgotPasswordScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [mobile, setMobile] = useState('');
  const [smsCode, setSmsCode] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [sendSms] = useSendSmsMutation();
  const [reset, resetState] = useResetPasswordMutation();
  const filled = !!(mobile && smsCode && password && confirm);

  const submit = async () => {
    const check = checkPhone(mobile) ?? checkSmsCode(smsCode) ?? checkPassword(password) ?? checkConfirm(password, confirm);
    if (check) {
      setProblem(t(check));
      return;
    }
    setProblem(null);
    try {
      await reset({ mobile, smsCode: smsCode.trim(), password }).unwrap();
      showToast({ icon: 'success', content: t('password_reset_done') });
      navigate('/login', { replace: true });
    } catch (error) {
      setProblem((error as ApiFailure).message);
    }
  };

  return (
    <Page title={t('forgot_password_title')} back="/login">
      <div className="card">
        <p className="muted">{t('forgot_password_text')}</p>
        <Form layout="vertical">
          <Form.Item label={t('phone')}>
            <Input
              aria-label={t('phone')}
              placeholder="09XXXXXXXXX"
              inputMode="numeric"
              autoComplete="tel"
              value={mobile}
              onChange={(v) => setMobile(digitsOnly(v, 11))}
            />
          </Form.Item>
          <Form.Item label={t('sms_code')}>
            <SmsCodeField
              value={smsCode}
              onChange={setSmsCode}
              disabled={!!checkPhone(mobile)}
              mobile={mobile}
              send={() => sendSms({ purpose: 'reset', mobile }).unwrap()}
            />
          </Form.Item>
          <SecretItem
            label={t('new_password')}
            autoComplete="new-password"
            placeholder={t('password_placeholder')}
            value={password}
            onChange={setPassword}
          />
          <SecretItem label={t('confirm_password')} autoComplete="new-password" value={confirm} onChange={setConfirm} />
        </Form>
        {problem && (
          <p className="error-text" role="alert" data-testid="form-error">
            {problem}
          </p>
        )}
        <Button block color="primary" size="large" disabled={!filled} loading={resetState.isLoading} onClick={submit}>
          {t('reset_password')}
        </Button>
      </div>
    </Page>
  );
}
