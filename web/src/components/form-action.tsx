/**
 * The submit of a small form (the credentials screens, PRODUCT.md 12.3): the client's
 * check first (a translation key of PRODUCT.md 5), then the call; on success a toast
 * and the next screen; a refusal shows the server's message under the form.
 */
import { useState } from 'react';
import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { ApiFailure } from '@/lib/envelope';
import { showToast } from './feedback';

export interface FormAction {
  /** The first failed check's translation key, or null. */
  check: () => string | null;
  /** The call; rejects with an `ApiFailure`. */
  send: () => Promise<unknown>;
  /** Translation key of the success toast. */
  done: string;
  /** Where to go after success (replacing this screen). */
  next: string;
}

export function useFormAction({ check, send, done, next }: FormAction) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const failed = check();
    if (failed) {
      setProblem(t(failed));
      return;
    }
    setProblem(null);
    setBusy(true);
    try {
      await send();
      showToast({ icon: 'success', content: t(done) });
      navigate(next, { replace: true });
    } catch (error) {
      setProblem((error as ApiFailure).message);
    } finally {
      setBusy(false);
    }
  };
  return { problem, busy, submit };
}

/** The form's refusal (if any) and its submit button, enabled once `filled`. */
export function FormSubmit({ label, problem, busy, filled, onSubmit }: {
  label: string;
  problem: string | null;
  busy: boolean;
  filled: boolean;
  onSubmit: () => void;
}) {
  return (
    <>
      {problem && (
        <p className="error-text" role="alert" data-testid="form-error">
          {problem}
        </p>
      )}
      <Button block color="primary" size="large" disabled={!filled} loading={busy} onClick={onSubmit}>
        {label}
      </Button>
    </>
  );
}
