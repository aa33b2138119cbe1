/**
 * The loading states. A module of its own: the router shows them while a screen's
 * chunk loads, so it is in the entry, which must not carry the error and empty
 * states (components/states.tsx) with their images.
 */
import { useEffect } from 'react';
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

/**
 * The lender's line the api wrote into index.html's splash (api/src/http/web_app.rs),
 * read before React replaces the splash, so the React copy below keeps it.
 */
const lenderLine = typeof document === 'undefined' ? null : (document.querySelector('.boot__lender')?.textContent ?? null);

/**
 * The branded first paint of index.html (its `.boot` styles are inline there), in
 * the visitor's language: shown while the first screen's code loads, so the page
 * goes from the HTML's splash to the screen without a blank or a bare "Loading…".
 */
export function BootScreen() {
  const { t } = useTranslation();
  return (
    <div className="boot" role="status">
      <div className="boot__logo" aria-hidden="true">₱</div>
      <p className="boot__name">{t('app_name')}</p>
      <div className="boot__spinner" aria-hidden="true" />
      <p className="boot__text">{t('loading')}</p>
      {lenderLine && <p className="boot__lender">{lenderLine}</p>}
      <p className="boot__notice">{t('never_pay_notice')}</p>
    </div>
  );
}

let booted = false;

/** The router's fallback: the splash until a first screen has shown, then `Loading`. */
export function ScreenFallback() {
  // Unmounted when the screen it stood for has rendered.
  useEffect(
    () => () => {
      booted = true;
    },
    [],
  );
  return booted ? <Loading /> : <BootScreen />;
}
