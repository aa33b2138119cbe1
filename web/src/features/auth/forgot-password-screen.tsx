/**
 * `/forgotPassword` (PRODUCT.md 12.3): phone, the `/sms/reset` code, a new password
 * twice. The server checks the code, sets the password, revokes every session of
 * the account and lifts a security lock (never a compliance hold); the borrower then
 * signs in with the new password. The answer is the same whether or not the phone
 * has an account (12.2).
 */
import { useState } from 'react';
import Form from 'antd-mobile/es/components/form';
import Input from 'antd-mobile/es/components/input';
import { useTranslation } from 'react-i18next';
import { FormSubmit, useFormAction } from '@/components/form-action';
import { Page } from '@/components/page';
import { SecretItem } from '@/components/secret-item';
import { SmsCodeField } from '@/components/sms-code-field';
import { useSendSmsMutation } from '@/lib/shared-api';
import { checkConfirm, checkPassword, checkPhone, checkSmsCode, phoneInput } from '@/lib/validation';
import { useResetPasswordMutation } from './auth-api';

export default function ForgotPasswordScreen() {
  const { t } = useTranslation();
  const [mobile, setMobile] = useState('');
  const [smsCode, setSmsCode] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [sendSms] = useSendSmsMutation();
  const [reset] = useResetPasswordMutation();
  const filled = !!(mobile && smsCode && password && confirm);
  const action = useFormAction({
    check: () => checkPhone(mobile) ?? checkSmsCode(smsCode) ?? checkPassword(password) ?? checkConfirm(password, confirm),
    send: () => reset({ mobile, smsCode: smsCode.trim(), password }).unwrap(),
    done: 'password_reset_done',
    next: '/login',
  });

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
              onChange={(v) => setMobile(phoneInput(v))}
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
        <FormSubmit label={t('reset_password')} filled={filled} {...action} onSubmit={() => void action.submit()} />
      </div>
    </Page>
  );
}
