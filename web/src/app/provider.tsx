/**
 * The providers around the app: Redux store, antd-mobile locale (follows the
 * i18n language) and the company theme colour (PRODUCT.md 10 "theme colours").
 */
import { useEffect, type ReactNode } from 'react';
import { Provider } from 'react-redux';
import ConfigProvider from 'antd-mobile/es/components/config-provider';
import enUS from 'antd-mobile/es/locales/en-US';
import zhCN from 'antd-mobile/es/locales/zh-CN';
import { useTranslation } from 'react-i18next';
import { useCompanyConfigQuery } from '@/lib/shared-api';
import type { AppStore } from './store';

function Theme({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const { data } = useCompanyConfigQuery();
  const theme = data?.theme;
  useEffect(() => {
    const root = document.documentElement.style;
    if (theme?.primary) root.setProperty('--adm-color-primary', theme.primary);
    if (theme?.background) root.setProperty('--app-background', theme.background);
    if (theme?.text) root.setProperty('--app-text', theme.text);
    if (typeof data?.title === 'string') document.title = data.title;
  }, [theme, data?.title]);
  return <ConfigProvider locale={i18n.language === 'zh' ? zhCN : enUS}>{children}</ConfigProvider>;
}

export function AppProvider({ store, children }: { store: AppStore; children: ReactNode }) {
  return (
    <Provider store={store}>
      <Theme>{children}</Theme>
    </Provider>
  );
}
