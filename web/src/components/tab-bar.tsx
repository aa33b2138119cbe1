/**
 * Bottom tab bar: Home `/` and My `/my` (PRODUCT.md 3). Selecting the current
 * tab does nothing; on another screen with the bar (the order list) neither tab
 * is current, so both lead somewhere. Real links in a `nav` landmark, so Tab
 * reaches them and a screen reader announces the current one
 * (`aria-current="page"`); antd-mobile's TabBar items are divs that the keyboard
 * never reaches.
 */
import type { MouseEvent } from 'react';
import { AppOutline, UserOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';

export function TabBar() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const active = pathname === '/' || pathname === '/my' ? pathname : null;
  const items = [
    { to: '/', icon: <AppOutline aria-hidden="true" />, title: t('tab_home') },
    { to: '/my', icon: <UserOutline aria-hidden="true" />, title: t('tab_my') },
  ];
  const stay = (to: string) => (event: MouseEvent) => {
    if (to === active) event.preventDefault();
  };
  return (
    <nav className="tab-bar" aria-label={t('main_navigation')}>
      {items.map((item) => (
        <Link
          key={item.to}
          to={item.to}
          className={`tab-bar__item${item.to === active ? ' tab-bar__item--active' : ''}`}
          aria-current={item.to === active ? 'page' : undefined}
          onClick={stay(item.to)}
        >
          <span className="tab-bar__icon">{item.icon}</span>
          <span className="tab-bar__title">{item.title}</span>
        </Link>
      ))}
    </nav>
  );
}
