/**
 * The providers around the app: Redux store, antd-mobile locale (follows the
 * i18n language: Chinese is antd-mobile's own, Filipino's words load with its
 * strings, lib/i18n.ts) and the company theme colour (PRODUCT.md 10 "theme
 * colours").
 */
import { useEffect, useMemo, type ReactNode } from 'react';
import { Provider } from 'react-redux';
import ConfigProvider from 'antd-mobile/es/components/config-provider';
import enUS from 'antd-mobile/es/locales/en-US';
import zhCN from 'antd-mobile/es/locales/zh-CN';
import { useTranslation } from 'react-i18next';
import { antdLocale } from '@/lib/i18n';
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
  const language = i18n.language;
  const locale = useMemo(() => (language === 'zh' ? zhCN : antdLocale(language, enUS)), [language]);
  return <ConfigProvider locale={locale}>{children}</ConfigProvider>;
}

export function AppProvider({ store, children }: { store: AppStore; children: ReactNode }) {
  return (
    <Provider store={store}>
      <Theme>{children}</Theme>
    </Provider>
  );
}
