/**
 * `/withdrawPin` (PRODUCT.md 12.3, P2), from the My page: a new six-digit PIN twice
 * and the `/sms/pin` code sent to the registered phone. The same screen sets the
 * PIN the first time and changes or resets a forgotten one; only the borrower can,
 * and never without the code once a PIN exists (the User aggregate decides).
 */
import { useState } from 'react';
import Button from 'antd-mobile/es/components/button';
import Form from 'antd-mobile/es/components/form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { showToast } from '@/components/feedback';
import { Page } from '@/components/page';
import { SecretItem } from '@/components/secret-item';
import { QueryGate } from '@/components/query-gate';
import { SmsCodeField } from '@/components/sms-code-field';
import type { ApiFailure } from '@/lib/envelope';
import { useSendSmsMutation, useUserInfoQuery } from '@/lib/shared-api';
import type { User } from '@/lib/types';
import { checkPin, checkSmsCode } from '@/lib/validation';
import { useChangeWithdrawPinMutation } from './credentials-api';

function PinForm({ user }: { user: User }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [pin, setPin] = useState('');
  const [confirm, setConfirm] = useState('');
  const [smsCode, setSmsCode] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [sendSms] = useSendSmsMutation();
  const [save, saveState] = useChangeWithdrawPinMutation();
  const filled = !!(pin && confirm && smsCode);

  const submit = async () => {
    const check = checkPin(pin) ?? (pin === confirm ? null : 'withdraw_pin_mismatch') ?? checkSmsCode(smsCode);
    if (check) {
      setProblem(t(check));
      return;
    }
    setProblem(null);
    try {
      await save({ pin, smsCode: smsCode.trim() }).unwrap();
      showToast({ icon: 'success', content: t('pin_saved') });
      navigate('/my', { replace: true });
    } catch (error) {
      setProblem((error as ApiFailure).message);
    }
  };

  return (
    <div className="card">
      <p className="muted">{t(user.hasWithdrawPin ? 'pin_change_text' : 'pin_set_text')}</p>
      <Form layout="vertical">
        <SecretItem label={t('new_pin')} pin autoComplete="off" value={pin} onChange={setPin} />
        <SecretItem label={t('confirm_pin')} pin autoComplete="off" value={confirm} onChange={setConfirm} />
        <Form.Item label={t('sms_code')}>
          <SmsCodeField
            value={smsCode}
            onChange={setSmsCode}
            mobile={user.mobile}
            send={() => sendSms({ purpose: 'pin', mobile: user.mobile }).unwrap()}
          />
        </Form.Item>
      </Form>
      {problem && (
        <p className="error-text" role="alert" data-testid="form-error">
          {problem}
        </p>
      )}
      <Button block color="primary" size="large" disabled={!filled} loading={saveState.isLoading} onClick={submit}>
        {t('save_pin')}
      </Button>
    </div>
  );
}

export default function WithdrawPinScreen() {
  const { t } = useTranslation();
  const user = useUserInfoQuery();
  return (
    <Page title={t('withdraw_pin')} back="/my">
      <QueryGate query={user}>{(u) => <PinForm user={u} />}</QueryGate>
    </Page>
  );
}
