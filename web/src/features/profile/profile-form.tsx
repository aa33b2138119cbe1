/**
 * The identity step (`/identity`) and the full profile (`/baseInfo`) share one
 * form (PRODUCT.md 3, 5): ID photos, name, ID number, sex, birthday and marital
 * status; the full profile adds email, address, province/city, education and the
 * bank account. Next stays disabled until the required values are set; verified
 * values (name and ID number once identity is verified) are read-only.
 */
import { useEffect, useId, useRef, useState } from 'react';
import Button from 'antd-mobile/es/components/button';
import Form from 'antd-mobile/es/components/form';
import Input, { type InputRef } from 'antd-mobile/es/components/input';
import Radio from 'antd-mobile/es/components/radio';
import Toast from 'antd-mobile/es/components/toast';
import { EyeInvisibleOutline, EyeOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useFieldError } from '@/components/field-error';
import { SelectField, optionsOf } from '@/components/select-field';
import type { ApiFailure } from '@/lib/envelope';
import type { Region } from '@/lib/place';
import { drafts } from '@/lib/drafts';
import { useReferenceLabel } from '@/lib/reference-label';
import { useReferenceListQuery } from '@/lib/shared-api';
import type { User } from '@/lib/api-types';
import { checkAccountNo, checkBirthday, checkEmail, checkIdNumber, digitsOnly } from '@/lib/validation';
import { allPhotos, IdPhotos, missingPhotos, type PhotoSet } from './id-photos';
import { PlacePicker } from './place-picker';
import { useBindBankMutation, useUpdateProfileMutation, useUploadIdPhotosMutation } from './profile-api';

export interface ProfileFormProps {
  user: User;
  /** `true` on `/baseInfo` (full profile and bank), `false` on `/identity`. */
  full: boolean;
  /** Where to go after saving. */
  next: string;
}

const today = () => new Date().toISOString().slice(0, 10);

export function ProfileForm({ user, full, next }: ProfileFormProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data: marriages } = useReferenceListQuery('marriage');
  const marriageLabel = useReferenceLabel('marriage');
  const educationLabel = useReferenceLabel('education');
  const { data: educations } = useReferenceListQuery('education', { skip: !full });
  const { data: regions } = useReferenceListQuery('provinces', { skip: !full });
  const { data: banks } = useReferenceListQuery('banks', { skip: !full });
  const { data: eWallets } = useReferenceListQuery('eWallets', { skip: !full });
  const [uploadPhotos] = useUploadIdPhotosMutation();
  const [updateProfile] = useUpdateProfileMutation();
  const [bindBank] = useBindBankMutation();
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  // The field a client-side check found wrong: the message stands under it, its input is
  // tied to the message (WCAG 3.3.1) and takes the focus, so a long form scrolls to it.
  const [problemField, setProblemField] = useState<'identity' | 'birthday' | 'email' | 'cardNo' | null>(null);
  const errorId = useId();
  const invalid = (field: NonNullable<typeof problemField>) => !!problem && problemField === field;
  const fieldProblem = (field: NonNullable<typeof problemField>) =>
    invalid(field) ? (
      <span className="error-text" role="alert" id={errorId} data-testid="form-error">
        {problem}
      </span>
    ) : undefined;
  const identityRef = useRef<InputRef>(null);
  const birthdayRef = useRef<HTMLInputElement>(null);
  const emailRef = useRef<InputRef>(null);
  const cardRef = useRef<InputRef>(null);
  useFieldError(identityRef, errorId, invalid('identity'));
  useFieldError(emailRef, errorId, invalid('email'));
  useFieldError(cardRef, errorId, invalid('cardNo'));
  const [showCard, setShowCard] = useState(false);

  // What the open order asks to fix (PRODUCT.md 12.4) opens even verified items.
  const asked = user.resubmissionItems ?? [];
  const verified = user.userQualificationView.identity === 2 && !asked.includes('profile');
  const identityStatus = user.userQualificationView.identity;
  const photosEditable = identityStatus === 0 || identityStatus === 3 || asked.includes('photos');
  // Asked for new photos: required until the verified ones are replaced (then 1).
  const needPhotos = identityStatus === 0 || identityStatus === 3 || (asked.includes('photos') && identityStatus === 2);
  const bankBound = user.userQualificationView.bankCard === 1;
  const [photos, setPhotos] = useState<PhotoSet>({});
  // A draft kept on the device until sent: a reload (cheap phones reload when the
  // camera opens) or leaving the screen loses nothing typed (issue 52). Photos are
  // files and are chosen again; the bank account number is never kept on the device
  // (a shared phone), so it is typed again.
  const draftName = `profile:${user.mobile}`;
  const [v, setV] = useState(() => {
    const fromUser = {
      realName: user.realName ?? '',
    identity: user.identity ?? '',
    sex: user.sex ? String(user.sex) : '',
    birthday: user.birthday ?? '',
    marriage: user.marriage ?? '',
    email: user.email ?? '',
    address: user.address ?? '',
    provinceCity: user.provinceCity ?? '',
    education: user.education ?? '',
      bankName: user.bankName ?? '',
      cardNo: '',
    };
    const draft = drafts.get(draftName) ?? {};
    const kept = Object.entries(fromUser).map(([key, value]) => {
      const saved = draft[key];
      // A verified name and ID number are the ones on file, whatever a draft says.
      const locked = (verified && (key === 'realName' || key === 'identity')) || key === 'cardNo';
      return [key, typeof saved === 'string' && !locked ? saved : value];
    });
    return Object.fromEntries(kept) as typeof fromUser;
  });
  useEffect(() => {
    const { cardNo: _notKept, ...kept } = v;
    drafts.set(draftName, kept);
  }, [draftName, v]);
  const set = (key: keyof typeof v) => (value: string) => setV((old) => ({ ...old, [key]: value }));

  const eWallet = (eWallets as string[] | undefined)?.includes(v.bankName) ?? false;

  const identityReady =
    (!needPhotos || allPhotos(photos)) && v.realName.trim() && v.identity && v.sex && v.birthday && v.marriage;
  const fullReady = v.email && v.address.trim() && v.provinceCity && v.education && (bankBound || (v.bankName && v.cardNo));
  const ready = !!identityReady && (!full || !!fullReady);

  const submit = async () => {
    const checks = [
      ['identity', checkIdNumber(v.identity)],
      ['birthday', checkBirthday(v.birthday)],
      ['email', full ? checkEmail(v.email) : null],
      ['cardNo', full && !bankBound ? checkAccountNo(v.cardNo, eWallet) : null],
    ] as const;
    const failed = checks.find(([, issue]) => issue);
    if (failed) {
      setProblem(t(failed[1] as string));
      setProblemField(failed[0]);
      ({ identity: identityRef, birthday: birthdayRef, email: emailRef, cardNo: cardRef })[failed[0]].current?.focus();
      return;
    }
    setProblem(null);
    setProblemField(null);
    setSaving(true);
    try {
      if (photosEditable && allPhotos(photos)) {
        await uploadPhotos({
          frontImage: photos.frontImage.file,
          backImage: photos.backImage.file,
          handHoldImage: photos.handHoldImage.file,
        }).unwrap();
      }
      await updateProfile({
        ...(verified ? {} : { realName: v.realName.trim(), identity: v.identity }),
        sex: Number(v.sex),
        birthday: v.birthday,
        marriage: v.marriage,
        ...(full
          ? { email: v.email.trim(), address: v.address.trim(), provinceCity: v.provinceCity, education: v.education }
          : {}),
      }).unwrap();
      if (full && !bankBound) await bindBank({ bankName: v.bankName, cardNo: v.cardNo }).unwrap();
      drafts.clear(draftName);
      Toast.show({ icon: 'success', content: t('saved') });
      navigate(next);
    } catch (error) {
      setProblem((error as ApiFailure).message);
      setProblemField(null);
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      {user.userQualificationView.identity === 3 && (
        <p className="warning-box" role="alert">
          {t('identity_rejected', { reason: user.identityRejectReason ?? '' })}
        </p>
      )}
      <div className="card">
        <h2 className="card__title">{t('id_photos')}</h2>
        <IdPhotos photos={photos} onChange={setPhotos} existing={user.idImages ?? undefined} readOnly={!photosEditable} />
        {photosEditable && <p className="muted">{t('img_size_tips')}</p>}
        {needPhotos && !allPhotos(photos) && (
          <p className="info-box" data-testid="photos-needed">
            {t('photos_still_needed', { names: missingPhotos(photos).map((key) => t(`photo_${key}`)).join(', ') })}
          </p>
        )}
      </div>
      <Form layout="horizontal" mode="card">
        <Form.Header>{t('identity_section')}</Form.Header>
        <Form.Item label={t('real_name')}>
          <Input aria-label={t('real_name')} value={v.realName} onChange={set('realName')} readOnly={verified} maxLength={80} />
        </Form.Item>
        <Form.Item label={t('id_number')} description={fieldProblem('identity')}>
          <Input
            ref={identityRef}
            aria-label={t('id_number')}
            inputMode="numeric"
            value={v.identity}
            onChange={(x) => set('identity')(digitsOnly(x, 30))}
            readOnly={verified}
          />
        </Form.Item>
        <Form.Item label={t('sex')}>
          <Radio.Group value={v.sex} onChange={(x) => set('sex')(String(x))}>
            <Radio value="1" style={{ marginRight: 16 }}>{t('male')}</Radio>
            <Radio value="2">{t('female')}</Radio>
          </Radio.Group>
        </Form.Item>
        <Form.Item label={t('birthday')} description={fieldProblem('birthday')}>
          <input
            ref={birthdayRef}
            className="date-field"
            type="date"
            aria-label={t('birthday')}
            aria-invalid={invalid('birthday') || undefined}
            aria-describedby={invalid('birthday') ? errorId : undefined}
            min="1900-01-01"
            max={today()}
            value={v.birthday}
            onChange={(e) => set('birthday')(e.target.value)}
          />
        </Form.Item>
        <Form.Item label={t('marriage')}>
          <SelectField label={t('marriage')} value={v.marriage} options={optionsOf(marriages as string[], marriageLabel)} onChange={set('marriage')} />
        </Form.Item>
        {full && (
          <>
            <Form.Header>{t('contact_section')}</Form.Header>
            <Form.Item label={t('email')} description={fieldProblem('email')}>
              <Input ref={emailRef} aria-label={t('email')} type="email" value={v.email} onChange={set('email')} maxLength={254} />
            </Form.Item>
            <PlacePicker regions={regions as Region[] | undefined} value={v.provinceCity} onChange={set('provinceCity')} />
            <Form.Item label={t('address')}>
              <Input aria-label={t('address')} value={v.address} onChange={set('address')} maxLength={200} />
            </Form.Item>
            <Form.Item label={t('education')}>
              <SelectField label={t('education')} value={v.education} options={optionsOf(educations as string[], educationLabel)} onChange={set('education')} />
            </Form.Item>
            <Form.Header>{t('bank_section')}</Form.Header>
            {bankBound ? (
              <Form.Item label={t('bank_account')} extra={<a href="/bankInfo">{t('change')}</a>}>
                {user.bankName} · {user.cardNo}
              </Form.Item>
            ) : (
              <>
                <Form.Item label={t('bank_name')}>
                  <SelectField label={t('bank_name')} value={v.bankName} options={optionsOf(banks as string[])} onChange={set('bankName')} />
                </Form.Item>
                <Form.Item
                  label={t(eWallet ? 'ewallet_no' : 'card_no')}
                  description={fieldProblem('cardNo')}
                  extra={
                    <button
                      type="button"
                      className="icon-button"
                      aria-label={t('show_hide')}
                      aria-pressed={showCard}
                      onClick={() => setShowCard((s) => !s)}
                    >
                      {showCard ? <EyeOutline aria-hidden="true" /> : <EyeInvisibleOutline aria-hidden="true" />}
                    </button>
                  }
                >
                  <Input
                    ref={cardRef}
                    aria-label={t(eWallet ? 'ewallet_no' : 'card_no')}
                    type={showCard ? 'text' : 'password'}
                    inputMode="numeric"
                    value={v.cardNo}
                    onChange={(x) => set('cardNo')(digitsOnly(x, eWallet ? 11 : 20))}
                  />
                </Form.Item>
                <Form.Item label={t('holder_name')}>
                  <Input aria-label={t('holder_name')} value={v.realName} readOnly />
                </Form.Item>
              </>
            )}
          </>
        )}
      </Form>
      {problem && !problemField && (
        <p className="error-text" role="alert" id={errorId} data-testid="form-error">
          {problem}
        </p>
      )}
      <Button block color="primary" size="large" disabled={!ready} loading={saving} onClick={submit}>
        {t('next')}
      </Button>
    </>
  );
}
