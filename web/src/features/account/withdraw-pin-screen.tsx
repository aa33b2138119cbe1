/**
 * `/withdrawPin` (PRODUCT.md 12.3, P2), from the My page: a new six-digit PIN twice
 * and the `/sms/pin` code sent to the registered phone. The same screen sets the
 * PIN the first time and changes or resets a forgotten one; only the borrower can,
 * and never without the code once a PIN exists (the User aggregate decides).
 */
import { useState } from 'react';
import Form from 'antd-mobile/es/components/form';
import { useTranslation } from 'react-i18next';
import { FormSubmit, useFormAction } from '@/components/form-action';
import { Page } from '@/components/page';
import { SecretItem } from '@/components/secret-item';
import { QueryGate } from '@/components/query-gate';
import { SmsCodeField } from '@/components/sms-code-field';
import { useSendSmsMutation, useUserInfoQuery } from '@/lib/shared-api';
import type { User } from '@/lib/api-types';
import { checkNewPin } from '@/lib/new-pin';
import { checkSmsCode } from '@/lib/validation';
import { useChangeWithdrawPinMutation } from './credentials-api';

function PinForm({ user }: { user: User }) {
  const { t } = useTranslation();
  const [pin, setPin] = useState('');
  const [confirm, setConfirm] = useState('');
  const [smsCode, setSmsCode] = useState('');
  const [sendSms] = useSendSmsMutation();
  const [save] = useChangeWithdrawPinMutation();
  const filled = !!(pin && confirm && smsCode);
  const action = useFormAction({
    check: () => checkNewPin(pin) ?? (pin === confirm ? null : 'withdraw_pin_mismatch') ?? checkSmsCode(smsCode),
    send: () => save({ pin, smsCode: smsCode.trim() }).unwrap(),
    done: 'pin_saved',
    next: '/my',
  });

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
      <FormSubmit label={t('save_pin')} filled={filled} {...action} onSubmit={() => void action.submit()} />
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
