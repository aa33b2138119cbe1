/**
 * `/bankInfo`: bind or replace the payout account (PRODUCT.md 3, 5, P3). The
 * holder is the verified real name, read-only. Replacing a bound account needs an
 * SMS code; the server refuses it while a loan is being repaid (110012).
 * Submitting goes to `/loan`, or back to the order that asked for a new account
 * (`?then=`, PRODUCT.md 12.4).
 */
import { useId, useRef, useState } from 'react';
import Button from 'antd-mobile/es/components/button';
import Form from 'antd-mobile/es/components/form';
import Input, { type InputRef } from 'antd-mobile/es/components/input';
import Toast from 'antd-mobile/es/components/toast';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useFieldError } from '@/components/field-error';
import { Page } from '@/components/page';
import { QueryGate } from '@/components/query-gate';
import { SelectField, optionsOf } from '@/components/select-field';
import { SmsCodeField } from '@/components/sms-code-field';
import { useThen } from '@/components/use-then';
import type { ApiFailure } from '@/lib/envelope';
import { useLoanProgressQuery, useReferenceListQuery, useSendSmsMutation, useUserInfoQuery } from '@/lib/shared-api';
import type { User } from '@/lib/api-types';
import { checkAccountNo, checkSmsCode, digitsOnly } from '@/lib/validation';
import { useBindBankMutation } from './profile-api';

function BankForm({ user }: { user: User }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const next = useThen('/loan');
  const { data: banks } = useReferenceListQuery('banks');
  const { data: eWallets } = useReferenceListQuery('eWallets');
  const [bankName, setBankName] = useState(user.bankName ?? '');
  const [cardNo, setCardNo] = useState('');
  const [smsCode, setSmsCode] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  // A wrong account number: its input is tied to the message (WCAG 3.3.1).
  const [cardInvalid, setCardInvalid] = useState(false);
  const errorId = useId();
  const cardRef = useRef<InputRef>(null);
  useFieldError(cardRef, errorId, !!problem && cardInvalid);
  const [bind, bindState] = useBindBankMutation();
  const [sendSms] = useSendSmsMutation();
  const replacing = user.userQualificationView.bankCard === 1;
  // While a loan is repaid the account cannot change (P3, 110012): say so first,
  // instead of asking for an SMS code the server would then refuse.
  const { data: progress, isLoading: progressLoading } = useLoanProgressQuery();
  const frozen = replacing && progress?.status === 4;
  const ready = !!bankName && !!cardNo && (!replacing || !!smsCode);
  const eWallet = (eWallets as string[] | undefined)?.includes(bankName) ?? false;

  const submit = async () => {
    const cardIssue = checkAccountNo(cardNo, eWallet);
    const check = cardIssue ?? (replacing ? checkSmsCode(smsCode) : null);
    setCardInvalid(!!cardIssue);
    if (check) {
      setProblem(t(check));
      return;
    }
    try {
      await bind({ bankName, cardNo, smsCode: replacing ? smsCode : undefined }).unwrap();
      Toast.show({ icon: 'success', content: t('saved') });
      navigate(next);
    } catch (error) {
      setProblem((error as ApiFailure).message);
    }
  };

  const current = replacing && (
    <div className="card">
      <div className="muted">{t('current_account')}</div>
      <div>{user.bankName} · {user.cardNo}</div>
    </div>
  );
  // Until the progress answers, a replacement shows only the current account.
  if (replacing && progressLoading) return current || null;
  if (frozen) {
    return (
      <>
        {current}
        <p className="info-box" data-testid="bank-frozen">
          {t('bank_change_after_loan')}
        </p>
      </>
    );
  }

  return (
    <>
      {current}
      <Form layout="horizontal" mode="card">
        <Form.Item label={t('holder_name')}>
          <Input aria-label={t('holder_name')} value={user.realName ?? ''} readOnly />
        </Form.Item>
        <Form.Item label={t('bank_name')}>
          <SelectField label={t('bank_name')} value={bankName} options={optionsOf(banks as string[])} onChange={setBankName} />
        </Form.Item>
        <Form.Item label={t(eWallet ? 'ewallet_no' : 'card_no')}>
          <Input
            ref={cardRef}
            aria-label={t(eWallet ? 'ewallet_no' : 'card_no')}
            inputMode="numeric"
            value={cardNo}
            onChange={(x) => setCardNo(digitsOnly(x, eWallet ? 11 : 20))}
          />
        </Form.Item>
        {replacing && (
          <Form.Item label={t('sms_code')}>
            <SmsCodeField value={smsCode} onChange={setSmsCode} mobile={user.mobile} send={() => sendSms({ purpose: 'bank', mobile: user.mobile }).unwrap()} />
          </Form.Item>
        )}
      </Form>
      <p className="muted">{t('bank_own_name_only')}</p>
      {problem && (
        <p className="error-text" role="alert" id={errorId} data-testid="form-error">
          {problem}
        </p>
      )}
      <Button block color="primary" size="large" disabled={!ready} loading={bindState.isLoading} onClick={submit}>
        {t('submit')}
      </Button>
    </>
  );
}

export default function BankInfoScreen() {
  const { t } = useTranslation();
  const user = useUserInfoQuery(undefined, { refetchOnMountOrArgChange: true });
  return (
    <Page title={t('bank_info_title')} back>
      <QueryGate query={user} fresh>{(u) => <BankForm user={u} />}</QueryGate>
    </Page>
  );
}
