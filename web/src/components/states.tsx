/** Error and empty states shared by every screen, and the loading state (./loading). */
import Button from 'antd-mobile/es/components/button';
import ErrorBlock from 'antd-mobile/es/components/error-block';
import { useTranslation } from 'react-i18next';
import type { ApiFailure } from '@/lib/envelope';

/** Shows a failed request's message with a retry button. */
export function ErrorState({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { t } = useTranslation();
  const message = (error as ApiFailure | undefined)?.message ?? t('common_network_error');
  return (
    <div className="state" role="alert">
      <ErrorBlock status="default" title={t('error_title')} description={message}>
        {onRetry && (
          <Button color="primary" fill="outline" size="small" onClick={onRetry}>
            {t('retry')}
          </Button>
        )}
      </ErrorBlock>
    </div>
  );
}

/** Nothing to list: `text` ("No data" by default) and, where it helps, what will appear here. */
export function EmptyState({ text, description = '' }: { text?: string; description?: string }) {
  const { t } = useTranslation();
  return (
    <div className="state">
      <ErrorBlock status="empty" title={text ?? t('no_data')} description={description} />
    </div>
  );
}

export { Loading } from './loading';
