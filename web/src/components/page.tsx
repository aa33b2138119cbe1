/**
 * The frame of every borrower screen: header bar (optional back button, title,
 * action slot and the customer-service button), the content, the lender footer
 * (P14) and, on tab screens, the bottom tab bar (PRODUCT.md 3). The service
 * button sits in the header, not floating over the content, where it covered
 * controls (issue 15).
 */
import type { ReactNode } from 'react';
import { LeftOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LenderFooter } from './lender-footer';
import { ServiceButton } from './service-button';
import { TabBar } from './tab-bar';

export interface PageProps {
  title: ReactNode;
  /** Show a back button: `true` goes back in history, a string goes to that path. */
  back?: boolean | string;
  /** The header's action slot. */
  right?: ReactNode;
  /** Show the bottom tab bar (Home, My). */
  tabs?: boolean;
  /** Show the lender footer (default true). */
  footer?: boolean;
  /** Show the customer-service button in the header (default true). */
  service?: boolean;
  children: ReactNode;
}

export function Page({ title, back, right, tabs, footer = true, service = true, children }: PageProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const onBack = () => {
    if (typeof back === 'string') navigate(back);
    else if (window.history.length > 1) navigate(-1);
    else navigate('/');
  };
  return (
    <div className={`page${tabs ? ' page--tabs' : ''}`}>
      {/* A plain header, not antd-mobile's NavBar: that one is an unnamed
          role="button" even without a back arrow, and its back arrow is a div
          that Tab never reaches. The title is the screen's one h1 (WCAG 2.4.6). */}
      <header className="page__header">
        <div className="page__header-side">
          {back && (
            <button type="button" className="page__back" aria-label={t('go_back')} onClick={onBack}>
              <LeftOutline aria-hidden="true" />
            </button>
          )}
        </div>
        <h1 className="page__title">{title}</h1>
        <div className="page__header-side page__header-side--right">
          {right}
          {service && <ServiceButton />}
        </div>
      </header>
      <main className="page__body">
        {children}
        {footer && <LenderFooter />}
      </main>
      {tabs && <TabBar />}
    </div>
  );
}
