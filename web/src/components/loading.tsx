/**
 * The loading state. A module of its own: the router shows it while a screen's
 * chunk loads, so it is in the entry, which must not carry the error and empty
 * states (components/states.tsx) with their images.
 */
import DotLoading from 'antd-mobile/es/components/dot-loading';
import { useTranslation } from 'react-i18next';

export function Loading() {
  const { t } = useTranslation();
  return (
    <div className="state state--loading" role="status">
      <DotLoading color="primary" />
      <span>{t('loading')}</span>
    </div>
  );
}
