/**
 * The buttons of console actions and what follows them: each button runs its
 * action at once, or first asks for an optional note, a required reason or only
 * a confirmation (TextDialog); the server's refusal or a short "done" line shows
 * under them (use-action.ts). The order page, the identity panel, the hold panel
 * and the erasure of personal data all act this way.
 */
import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { ActionDone, ActionError, TextDialog, type Choices } from './admin-ui';
import type { ActionState, DialogSpec } from './use-action';

export interface ActionButton<A> {
  action: A;
  label: string;
  color: 'primary' | 'success' | 'danger' | 'warning' | 'default';
  fill?: 'solid' | 'outline';
  /** Ask for an optional note first, under this line saying what the action does. */
  note?: string;
  /** Ask for a required reason first, under this line saying what the action does. */
  reason?: string;
  /**
   * Ask only to confirm first (no note), under this line saying what the action does;
   * the dialog's confirm button then reads `label`, in the button's colour.
   */
  confirm?: string;
  /** With `reason`: options of which at least one must be ticked. */
  choices?: Choices;
  /** With `reason` and `choices`: the text is an optional note (the choices are the reason). */
  noteOptional?: boolean;
  /**
   * Shown but not usable, with the id of the line saying why (`aria-describedby`):
   * an action this auditor may not take (the server refuses it too).
   */
  unavailable?: { hintId: string };
}

/** The buttons of the actions one may take; nothing when there are none. */
export function ActionButtons<A extends string>({ buttons, action }: { buttons: ActionButton<A>[]; action: ActionState<A> }) {
  const { t } = useTranslation();
  if (buttons.length === 0) return null;
  const dialog = (button: ActionButton<A>): DialogSpec<A> | null => {
    const base = { action: button.action, title: button.label };
    if (button.reason !== undefined)
      return {
        ...base,
        label: t(button.noteOptional ? 'admin_note' : 'admin_reason'),
        required: !button.noteOptional,
        hint: button.reason,
        choices: button.choices,
      };
    if (button.note !== undefined) return { ...base, label: t('admin_note'), required: false, hint: button.note };
    if (button.confirm !== undefined)
      return {
        ...base,
        label: '',
        required: false,
        hint: button.confirm,
        field: false,
        confirmLabel: button.label,
        danger: button.color === 'danger',
      };
    return null;
  };
  return (
    <div className="admin-actions">
      {buttons.map((button) => {
        const ask = dialog(button);
        return (
          <Button
            key={button.action}
            size="small"
            color={button.color}
            fill={button.fill ?? 'solid'}
            disabled={action.busy || !!button.unavailable}
            aria-describedby={button.unavailable?.hintId}
            loading={action.busy && !ask}
            onClick={() => (ask ? action.open(ask) : void action.run(button.action, button.label))}
          >
            {button.label}
          </Button>
        );
      })}
    </div>
  );
}

/** The action's refusal or "done" line, and its note, reason or confirmation dialog. */
export function ActionOutcome<A>({ action }: { action: ActionState<A> }) {
  return (
    <>
      <ActionError message={action.error} />
      <ActionDone message={action.done} />
      <TextDialog {...action.dialog} />
    </>
  );
}
