/**
 * An SMS code input with a "send code" button that counts down 60 s before it
 * can be pressed again (PRODUCT.md 5: one request per 60 s per phone). In the demo
 * (`demo` in the company config), where no real SMS is sent, a link to the demo
 * inbox of `mobile` appears once a code was sent.
 */
import { useEffect, useState } from 'react';
import Button from 'antd-mobile/es/components/button';
import Input from 'antd-mobile/es/components/input';
import { useTranslation } from 'react-i18next';
import { showToast } from '@/components/feedback';
import { SMS_RESEND_SECONDS } from '@/config/constants';
import type { ApiFailure } from '@/lib/envelope';
import { useCompanyConfigQuery } from '@/lib/shared-api';

export interface SmsCodeFieldProps {
  value: string;
  onChange: (code: string) => void;
  /** Sends the code; rejects with an `ApiFailure` when the server refuses. */
  send: () => Promise<unknown>;
  /** The phone the code goes to (for the demo inbox link). */
  mobile?: string;
  disabled?: boolean;
}

export function SmsCodeField({ value, onChange, send, mobile, disabled }: SmsCodeFieldProps) {
  const { t } = useTranslation();
  const [left, setLeft] = useState(0);
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);
  const { data: config } = useCompanyConfigQuery();

  useEffect(() => {
    if (left <= 0) return;
    const timer = window.setTimeout(() => setLeft((s) => s - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [left]);

  const onSend = async () => {
    setSending(true);
    try {
      await send();
      setSent(true);
      setLeft(SMS_RESEND_SECONDS);
      showToast({ content: t('sms_sent') });
    } catch (error) {
      showToast({ content: (error as ApiFailure).message });
    } finally {
      setSending(false);
    }
  };

  const inbox = config?.demo && sent && mobile ? `/sandbox/sms/${encodeURIComponent(mobile)}` : null;
  return (
    <>
      <div className="row">
        <Input
          aria-label={t('sms_code')}
          placeholder={t('sms_code_placeholder')}
          inputMode="numeric"
          maxLength={6}
          value={value}
          onChange={(v) => onChange(v.replace(/\D/g, '').slice(0, 6))}
        />
        <Button size="small" color="primary" fill="outline" disabled={disabled || left > 0} loading={sending} onClick={onSend}>
          {left > 0 ? t('resend_in', { s: left }) : t('send_code')}
        </Button>
      </div>
      {inbox && (
        <a className="field__help" href={inbox} target="_blank" rel="noreferrer">
          {t('demo_sms_inbox')}
        </a>
      )}
    </>
  );
}
