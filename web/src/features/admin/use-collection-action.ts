/**
 * Sends one collection command (issue 53: a contact, an assignment, a promise, a
 * payment plan's proposal or approval); answers the server's refusal in the
 * officer's terms, or null when done. The record refetches through its tag.
 */
import { useTranslation } from 'react-i18next';
import { useAdminCollectionActionMutation, type CollectionAction } from './admin-api';
import { adminErrorMessage } from './admin-format';

export function useCollectionAction() {
  const { t } = useTranslation();
  const [send, { isLoading }] = useAdminCollectionActionMutation();
  const run = async (action: CollectionAction): Promise<string | null> => {
    const result = await send(action);
    return 'error' in result ? adminErrorMessage(t, result.error) : null;
  };
  return { run, isLoading };
}
