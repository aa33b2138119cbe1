/**
 * The life of a console action: open the dialog that asks for its note or reason,
 * or only to confirm it (or run it at once when it needs none of these), send it
 * with a fresh `Idempotency-Key` (one per attempt, so a double click or a retry after a lost
 * answer applies once), then show the server's refusal in the auditor's terms
 * or a short "done" line. The queries the action changes refetch through their
 * tags, which refreshes the page.
 */
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { newIdempotencyKey } from '@/lib/idempotency';
import { adminErrorMessage } from './admin-format';
import type { Choices, TextDialogProps } from './admin-ui';

export interface DialogSpec<A> {
  action: A;
  /** The action's name: the dialog's title and the "done" line. */
  title: string;
  /** The field's label ("Note", "Reason"); unused when `field` is false. */
  label: string;
  required: boolean;
  hint?: string;
  /** Options of which at least one must be ticked (a resubmission's items, a refusal's reasons). */
  choices?: Choices;
  /** False for a confirmation only: no note or reason is asked (erasing personal data). */
  field?: boolean;
  /** The confirm button's text instead of "Confirm", and red for an action that cannot be undone. */
  confirmLabel?: string;
  danger?: boolean;
}

type Outcome = { data: unknown } | { error: unknown };

export function useAction<A>(
  send: (action: A, text: string, idempotencyKey: string, chosen: string[]) => Promise<Outcome>,
) {
  const { t } = useTranslation();
  const [spec, setSpec] = useState<DialogSpec<A> | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const key = useRef('');

  const execute = async (action: A, title: string, text: string, chosen: string[] = []) => {
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      const outcome = await send(action, text, key.current, chosen);
      if ('error' in outcome) setError(adminErrorMessage(t, outcome.error));
      // The action in the past tense ("First review passed."), else "<title>: done.".
      else setDone(t(`admin_done_${String(action)}`, { defaultValue: t('admin_action_done', { action: title }) }));
    } finally {
      setBusy(false);
      setSpec(null);
    }
  };

  return {
    busy,
    error,
    done,
    /** Asks for the note or reason first. */
    open(next: DialogSpec<A>) {
      key.current = newIdempotencyKey();
      setError(null);
      setDone(null);
      setSpec(next);
    },
    /** Runs an action that needs no note (start review, verify identity). */
    run(action: A, title: string) {
      key.current = newIdempotencyKey();
      return execute(action, title, '');
    },
    /** Shows an error found before sending. */
    fail(message: string) {
      setDone(null);
      setError(message);
    },
    dialog: {
      title: spec?.title ?? null,
      label: spec?.label ?? '',
      required: spec?.required ?? false,
      hint: spec?.hint,
      choices: spec?.choices,
      field: spec?.field,
      confirmLabel: spec?.confirmLabel,
      danger: spec?.danger,
      busy,
      onCancel: () => setSpec(null),
      onConfirm: (text: string, chosen: string[]) => {
        if (spec) void execute(spec.action, spec.title, text, chosen);
      },
    } satisfies TextDialogProps,
  };
}

/** What `useAction` returns: the state of one panel's actions. */
export type ActionState<A> = ReturnType<typeof useAction<A>>;
