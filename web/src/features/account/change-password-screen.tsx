/**
 * `/changePassword` (PRODUCT.md 12.3), from the My page: the current password and
 * the new one twice; on success every other session of the account is signed out
 * (the server does, moments after). A wrong current password counts as a failed
 * login; the server's message says how many attempts are left before the lock (P4),
 * and the fifth sends the borrower to `/lock` (the base query does).
 */
import { useState } from 'react';
import Form from 'antd-mobile/es/components/form';
import { useTranslation } from 'react-i18next';
import { FormSubmit, useFormAction } from '@/components/form-action';
import { Page } from '@/components/page';
import { SecretItem } from '@/components/secret-item';
import { checkConfirm, checkPassword } from '@/lib/validation';
import { useChangePasswordMutation } from './credentials-api';

export default function ChangePasswordScreen() {
  const { t } = useTranslation();
  const [oldPassword, setOldPassword] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [change] = useChangePasswordMutation();
  const filled = !!(oldPassword && password && confirm);
  const action = useFormAction({
    check: () => checkPassword(password) ?? checkConfirm(password, confirm),
    send: () => change({ oldPassword, password }).unwrap(),
    done: 'password_changed',
    next: '/my',
  });

  return (
    <Page title={t('change_password')} back="/my">
      <div className="card">
        <Form layout="vertical">
          <SecretItem label={t('current_password')} autoComplete="current-password" value={oldPassword} onChange={setOldPassword} />
          <SecretItem
            label={t('new_password')}
            autoComplete="new-password"
            placeholder={t('password_placeholder')}
            value={password}
            onChange={setPassword}
          />
          <SecretItem label={t('confirm_password')} autoComplete="new-password" value={confirm} onChange={setConfirm} />
        </Form>
        <p className="muted">{t('password_lock_warning')}</p>
        <FormSubmit label={t('change_password')} filled={filled} {...action} onSubmit={() => void action.submit()} />
      </div>
    </Page>
  );
}
