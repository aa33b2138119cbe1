/**
 * `/login` and `/register`: one screen, two modes (PRODUCT.md 3). Phone (digits
 * only, max 11), password; register adds the SMS code that proves the phone
 * (PRODUCT.md 12.2), confirm password and invite code, the latter pre-filled from
 * the saved `code` parameter, and the privacy notice consent (12.6): the borrower
 * ticks it for the version shown (its text opens from the link), and that version
 * is sent. The button is enabled only when the required fields are filled and, to
 * register, the notice is accepted (PRODUCT.md 5). When the server says the notice
 * changed meanwhile, the new version is fetched and the box waits to be ticked again.
 */
import { useId, useRef, useState } from 'react';
import Button from 'antd-mobile/es/components/button';
import Input, { type InputRef } from 'antd-mobile/es/components/input';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { useAppDispatch } from '@/app/hooks';
import { showToast } from '@/components/feedback';
import { useFieldError } from '@/components/field-error';
import { LenderFooter } from '@/components/lender-footer';
import { LanguageSwitch } from '@/components/language-switch';
import { showPrivacyNotice } from '@/components/privacy-notice';
import { ServiceButton } from '@/components/service-button';
import { SmsCodeField } from '@/components/sms-code-field';
import { companyText, companyTextLanguage } from '@/lib/company-text';
import { LOCK_CODE, type ApiFailure } from '@/lib/envelope';
import { signedIn } from '@/lib/session';
import { storage } from '@/lib/storage';
import { useCompanyConfigQuery, useSendSmsMutation } from '@/lib/shared-api';
import { checkConfirm, checkPassword, checkPhone, checkSmsCode, phoneInput } from '@/lib/validation';
import { useLoginMutation, useRegisterMutation, type LockedLogin } from './auth-api';

export default function LoginScreen() {
  const { t, i18n } = useTranslation();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const registering = pathname.endsWith('/register');
  const [mobile, setMobile] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [smsCode, setSmsCode] = useState('');
  const [sendSms] = useSendSmsMutation();
  const [invite, setInvite] = useState(() => storage.get('inviteCode') ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  // The field a client-side check found wrong: its input is tied to the message (WCAG 3.3.1).
  const [problemField, setProblemField] = useState<'phone' | 'password' | 'confirm' | null>(null);
  const errorId = useId();
  const phoneRef = useRef<InputRef>(null);
  const passwordRef = useRef<InputRef>(null);
  const confirmRef = useRef<InputRef>(null);
  useFieldError(phoneRef, errorId, !!problem && problemField === 'phone');
  useFieldError(passwordRef, errorId, !!problem && problemField === 'password');
  useFieldError(confirmRef, errorId, !!problem && problemField === 'confirm');
  const [login, loginState] = useLoginMutation();
  const [register, registerState] = useRegisterMutation();
  const busy = loginState.isLoading || registerState.isLoading;
  // The notice shown and what was ticked: consent is to that version, read in that
  // language, only; so a new version (fetched after the server refused the old one)
  // or another language unticks the box.
  const company = useCompanyConfigQuery();
  const noticeVersion = company.data?.privacyNoticeVersion ?? null;
  const noticeLanguage = companyTextLanguage(company.data, 'privacy-notice', i18n.language);
  // A deployment may make the invite code optional; either way the lender says where
  // one comes from (issue 52), so "invalid invite code" is never the only answer.
  const inviteRequired = company.data?.inviteCodeRequired ?? true;
  const inviteHelp = companyText(company.data, 'invite-code-help', i18n.language);
  const [accepted, setAccepted] = useState<{ version: string; language: string } | null>(null);
  const consented = !!noticeVersion && accepted !== null && accepted.version === noticeVersion && accepted.language === noticeLanguage;

  const filled = registering
    ? !!(mobile && smsCode && password && confirm && (invite || !inviteRequired) && consented)
    : !!(mobile && password);

  const submit = async () => {
    const checks = [
      ['phone', checkPhone(mobile)],
      [null, registering ? checkSmsCode(smsCode) : null],
      ['password', checkPassword(password)],
      ['confirm', registering ? checkConfirm(password, confirm) : null],
    ] as const;
    const failed = checks.find(([, issue]) => issue);
    if (failed) {
      setProblem(t(failed[1] as string));
      setProblemField(failed[0]);
      return;
    }
    setProblem(null);
    setProblemField(null);
    const body = {
      mobile,
      password,
      smsCode: registering ? smsCode : undefined,
      telemarketingCode: registering ? invite.trim() || undefined : undefined,
      installationSource: storage.get('channel') ?? undefined,
      privacyNoticeVersion: registering ? accepted?.version : undefined,
      privacyNoticeLanguage: registering ? accepted?.language : undefined,
    };
    try {
      const { token } = await (registering ? register(body) : login(body)).unwrap();
      dispatch(signedIn(token));
      showToast({ icon: 'success', content: t(registering ? 'register_success' : 'login_success') });
      navigate('/', { replace: true });
    } catch (error) {
      const failure = error as ApiFailure;
      // The right password of a locked account (issue 52): to the lock screen, with
      // the phone filled in, to lift the lock with an SMS code.
      if (!registering && failure.code === LOCK_CODE) {
        navigate('/lock', { replace: true, state: { mobile } satisfies LockedLogin });
        return;
      }
      const noticeChanged = registering && failure.code === 10004 && !!failure.serverMessage?.includes('privacyNoticeVersion');
      if (noticeChanged) void company.refetch();
      // A failed login says nothing about the account (PRODUCT.md 12.2): not the
      // attempts left, nor a lock; so say here what wrong passwords do and how to undo it.
      const wrongLogin = !registering && failure.code === 10002;
      setProblem(
        noticeChanged ? t('privacy_notice_changed') : wrongLogin ? `${failure.message} ${t('login_lock_hint')}` : failure.message,
      );
      setProblemField(null);
    }
  };

  return (
    <main className="auth">
      <div className="auth__brand">
        <div className="auth__logo">₱</div>
        <div>
          <h1 className="auth__title">{t(registering ? 'sign_up' : 'sign_in')}</h1>
          <div className="muted">{t('auth_subtitle')}</div>
        </div>
        <ServiceButton />
      </div>
      {/* Plain labelled fields: the first screen stays light (no form library). */}
      <div className="auth__fields">
        <label className="field">
          <span className="field__label">{t('phone')}</span>
          <Input
            ref={phoneRef}
            aria-label={t('phone')}
            placeholder="09XXXXXXXXX"
            inputMode="numeric"
            autoComplete="tel"
            value={mobile}
            onChange={(v) => setMobile(phoneInput(v))}
            onEnterPress={submit}
            clearable
          />
          <span className="field__help">{t('phone_hint')}</span>
        </label>
        {registering && (
          <label className="field">
            <span className="field__label">{t('sms_code')}</span>
            <SmsCodeField
              value={smsCode}
              onChange={setSmsCode}
              disabled={!!checkPhone(mobile)}
              mobile={mobile}
              send={() => sendSms({ purpose: 'register', mobile }).unwrap()}
            />
          </label>
        )}
        <label className="field">
          <span className="field__label">{t('password')}</span>
          <Input
            ref={passwordRef}
            aria-label={t('password')}
            type="password"
            autoComplete={registering ? 'new-password' : 'current-password'}
            placeholder={t('password_placeholder')}
            value={password}
            onChange={setPassword}
            onEnterPress={submit}
          />
        </label>
        {registering && (
          <>
            <label className="field">
              <span className="field__label">{t('confirm_password')}</span>
              <Input ref={confirmRef} aria-label={t('confirm_password')} type="password" autoComplete="new-password" value={confirm} onChange={setConfirm} />
            </label>
            <label className="field">
              <span className="field__label">{t(inviteRequired ? 'invite_code' : 'invite_code_optional')}</span>
              <Input aria-label={t('invite_code')} value={invite} onChange={setInvite} clearable />
              {inviteHelp && <span className="field__help">{inviteHelp}</span>}
            </label>
            {/* A native checkbox: the first screen carries no checkbox component. */}
            <div className="auth__consent">
              <label>
                <input
                  type="checkbox"
                  checked={consented}
                  disabled={!noticeVersion}
                  onChange={(e) =>
                    setAccepted(e.target.checked && noticeVersion ? { version: noticeVersion, language: noticeLanguage } : null)
                  }
                  data-testid="privacy-consent"
                />{' '}
                {noticeVersion ? t('privacy_accept', { version: noticeVersion }) : t('privacy_accept_loading')}
              </label>{' '}
              <button
                type="button"
                className="link-button"
                disabled={!noticeVersion}
                onClick={() => showPrivacyNotice(t, company.data)}
              >
                {t('privacy_notice_read')}
              </button>
            </div>
          </>
        )}
      </div>
      {problem && (
        <p className="error-text" role="alert" id={errorId} data-testid="form-error">
          {problem}
        </p>
      )}
      <Button block color="primary" size="large" disabled={!filled} loading={busy} onClick={submit} style={{ marginTop: 16 }}>
        {t(registering ? 'sign_up' : 'sign_in')}
      </Button>
      <p className="center">
        <Link to={registering ? '/login' : '/register'} onClick={() => setProblem(null)}>
          {t(registering ? 'have_account' : 'no_account')}
        </Link>
      </p>
      {!registering && (
        <p className="center">
          <Link to="/forgotPassword">{t('forgot_password')}</Link>
        </p>
      )}
      <LanguageSwitch />
      <LenderFooter />
    </main>
  );
}
