/**
 * An order's status as the borrower reads it (PRODUCT.md 4.3): 0–3 "Under
 * review", the others their own label (lib/rules `statusLabelKey`), coloured by
 * what it means for the borrower.
 */
import Tag from 'antd-mobile/es/components/tag';
import { useTranslation } from 'react-i18next';
import { statusLabelKey } from '@/lib/rules';

type TagColor = 'default' | 'primary' | 'success' | 'warning' | 'danger';

export function statusColor(status: number): TagColor {
  if (status <= 3) return 'primary';
  if (status === 9) return 'success';
  if (status === 4) return 'warning';
  if (status === 5 || status === 12) return 'danger';
  if (status === 10) return 'success';
  return 'default';
}

export function StatusTag({ status }: { status: number }) {
  const { t } = useTranslation();
  return (
    <Tag color={statusColor(status)} round data-testid="status-tag">
      {t(statusLabelKey(status))}
    </Tag>
  );
}
