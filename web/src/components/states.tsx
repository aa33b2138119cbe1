/** Loading, error and empty states shared by every screen. */
import { Button, DotLoading, ErrorBlock } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import type { ApiFailure } from '@/lib/envelope';

export function Loading() {
  const { t } = useTranslation();
  return (
    <div className="state state--loading" role="status">
      <DotLoading color="primary" />
      <span>{t('loading')}</span>
    </div>
  );
}

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

export function EmptyState({ text }: { text?: string }) {
  const { t } = useTranslation();
  return (
    <div className="state">
      <ErrorBlock status="empty" title={text ?? t('no_data')} description="" />
    </div>
  );
}
