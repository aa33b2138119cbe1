/**
 * Erasing a borrower's personal data after the retention period (PRODUCT.md 12.6,
 * RA 10173), under the data export on the borrower page: a red button that first
 * asks to confirm (TextDialog, no note), then `/admin/api/users/erase` with an
 * `Idempotency-Key`. The server decides: 40005 while an order is open, 10004 with
 * the date the retention period ends, otherwise the data key is destroyed and every
 * personal field reads "[erased]"; the user query refetches through its tag. Once
 * the `PersonalDataErased` event is recorded the button gives way to who erased it
 * and when (erasing again would change nothing).
 */
import { useTranslation } from 'react-i18next';
import { ActionButtons, ActionOutcome, type ActionButton } from './action-buttons';
import { useAdminUserActionMutation, type UserAction } from './admin-api';
import type { UserDetail } from '@/lib/api-types';
import { WhenWho } from './admin-ui';
import { useAction } from './use-action';

/** The recorded erasure of this borrower's personal data, if any. */
export function erasureOf(data: UserDetail) {
  return (data.auditorActions ?? []).find((entry) => entry.type === 'PersonalDataErased');
}

export function ErasePersonalData({ data }: { data: UserDetail }) {
  const { t } = useTranslation();
  const [send] = useAdminUserActionMutation();
  const userId = data.profile.userId;
  const action = useAction<UserAction>((kind, _text, idempotencyKey) => send({ action: kind, userId, idempotencyKey }));
  const erased = erasureOf(data);
  const erase: ActionButton<UserAction> = {
    action: 'erase',
    label: t('admin_erase_button'),
    color: 'danger',
    fill: 'outline',
    confirm: t('admin_erase_confirm'),
  };
  return (
    <div className="admin-erase" data-testid="admin-erase">
      <h3 className="admin-subtitle">{t('admin_erase_title')}</h3>
      {erased ? (
        <p data-testid="admin-erased">
          {t('admin_erased')}{' '}
          <span className="admin-muted">
            <WhenWho
              at={erased.time ?? ''}
              who={erased.actorName ?? erased.actor}
              title={erased.actor}
              testId="admin-erased-actor"
            />
          </span>
        </p>
      ) : (
        <>
          <p className="admin-muted">{t('admin_erase_hint')}</p>
          <ActionButtons buttons={[erase]} action={action} />
        </>
      )}
      <ActionOutcome action={action} />
    </div>
  );
}
