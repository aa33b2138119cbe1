/**
 * The applicant's ID photos (front, back, hand-held) fetched with the auditor
 * token, the identity status (PRODUCT.md 4.1) and, while photos await review
 * (status 1), "Verify identity" and "Reject identity" (with a reason). Shown on
 * the order page and the user page; the first review passes only once the
 * identity is verified (4.3).
 */
import { useState } from 'react';
import Button from 'antd-mobile/es/components/button';
import CenterPopup from 'antd-mobile/es/components/center-popup';
import { useTranslation } from 'react-i18next';
import { AuthImage } from '@/components/auth-image';
import { ActionButtons, ActionOutcome, type ActionButton } from './action-buttons';
import { useAdminUserActionMutation, type UserAction } from './admin-api';
import { identityLabel, type Tone } from './admin-format';
import { useAdminSession } from './admin-session';
import type { IdImages } from '@/lib/api-types';
import { ToneTag } from './admin-ui';
import { useAction } from './use-action';

/** A photo served by `/files/...` with the auditor token; a click shows it large. */
export function Photo({ src, label }: { src: string | null | undefined; label: string }) {
  const { t } = useTranslation();
  const token = useAdminSession()?.token ?? null;
  const [open, setOpen] = useState(false);
  return (
    <figure className="admin-photo">
      <button
        type="button"
        className="admin-photo__frame"
        onClick={() => src && setOpen(true)}
        aria-label={t('admin_enlarge', { name: label })}
        disabled={!src}
      >
        <AuthImage src={src} token={token} alt={label} />
      </button>
      <figcaption>{label}</figcaption>
      <CenterPopup visible={open} onMaskClick={() => setOpen(false)} destroyOnClose className="admin-photo-popup">
        <div className="admin-photo__large" role="dialog" aria-label={label}>
          <AuthImage src={src} token={token} alt={label} />
          <Button size="small" onClick={() => setOpen(false)}>
            {t('admin_close')}
          </Button>
        </div>
      </CenterPopup>
    </figure>
  );
}

function identityTone(status: number | null | undefined): Tone {
  if (status === 2) return 'success';
  if (status === 1) return 'primary';
  if (status === 3) return 'danger';
  return 'default';
}

export function IdentityStatus({ status }: { status: number | null | undefined }) {
  const { t } = useTranslation();
  return (
    <span data-testid="admin-identity-status" data-status={status ?? ''}>
      <ToneTag tone={identityTone(status)}>{identityLabel(t, status)}</ToneTag>
    </span>
  );
}

export interface IdentityPanelProps {
  userId: string | null;
  status: number | null | undefined;
  rejectReason?: string | null;
  images: IdImages | null;
  /** The account is closed for good (its personal data erased): no review is awaited. */
  closed?: boolean;
}

export function IdentityPanel({ userId, status, rejectReason, images, closed = false }: IdentityPanelProps) {
  const { t } = useTranslation();
  const [send] = useAdminUserActionMutation();
  const action = useAction<UserAction>((kind, text, idempotencyKey) =>
    userId ? send({ action: kind, userId, reason: text, idempotencyKey }) : Promise.resolve({ error: null }),
  );
  const awaitingReview = status === 1 && userId !== null && !closed;
  const buttons: ActionButton<UserAction>[] = [
    { action: 'verifyIdentity', label: t('admin_verify_identity'), color: 'success' },
    {
      action: 'rejectIdentity',
      label: t('admin_reject_identity'),
      color: 'danger',
      fill: 'outline',
      reason: t('admin_reject_identity_hint'),
    },
  ];

  return (
    <div className="admin-identity">
      <div className="admin-photos">
        <Photo src={images?.front.url} label={t('admin_photo_front')} />
        <Photo src={images?.back.url} label={t('admin_photo_back')} />
        <Photo src={images?.handHold.url} label={t('admin_photo_hand')} />
      </div>
      <div className="admin-identity__status">
        <span className="admin-muted">{t('admin_identity_status')}</span>{' '}
        {closed ? (
          <span data-testid="admin-identity-status" data-status="closed">
            <ToneTag tone="default">{t('admin_identity_closed')}</ToneTag>
          </span>
        ) : (
          <IdentityStatus status={status} />
        )}
        {status === 3 && rejectReason && (
          <span className="admin-muted"> {t('admin_reason_is', { reason: rejectReason })}</span>
        )}
      </div>
      {awaitingReview && <ActionButtons buttons={buttons} action={action} />}
      <ActionOutcome action={action} />
    </div>
  );
}
