/**
 * `/changePassword` (PRODUCT.md 12.3), from the My page: the current password and
 * the new one twice. A wrong current password counts as a failed login; the
 * server's message says how many attempts are left before the lock (P4), and the
 * fifth sends the borrower to `/lock` (the base query does).
 */
import { useState } from 'react';
import Button from 'antd-mobile/es/components/button';
import Form from 'antd-mobile/es/components/form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { showToast } from '@/components/feedback';
import { Page } from '@/components/page';
import { SecretItem } from '@/components/secret-item';
import type { ApiFailure } from '@/lib/envelope';
import { checkConfirm, checkPassword } from '@/lib/validation';
import { useChangePasswordMutation } from './credentials-api';

export default function ChangePasswordScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [oldPassword, setOldPassword] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [change, changeState] = useChangePasswordMutation();
  const filled = !!(oldPassword && password && confirm);

  const submit = async () => {
    const check = checkPassword(password) ?? checkConfirm(password, confirm);
    if (check) {
      setProblem(t(check));
      return;
    }
    setProblem(null);
    try {
      await change({ oldPassword, password }).unwrap();
      showToast({ icon: 'success', content: t('password_changed') });
      navigate('/my', { replace: true });
    } catch (error) {
      setProblem((error as ApiFailure).message);
    }
  };

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
        {problem && (
          <p className="error-text" role="alert" data-testid="form-error">
            {problem}
          </p>
        )}
        <Button block color="primary" size="large" disabled={!filled} loading={changeState.isLoading} onClick={submit}>
          {t('change_password')}
        </Button>
      </div>
    </Page>
  );
}
