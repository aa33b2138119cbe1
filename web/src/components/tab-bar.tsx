/**
 * Bottom tab bar: Home `/` and My `/my` (PRODUCT.md 3). Selecting the current
 * tab does nothing.
 */
import Bar from 'antd-mobile/es/components/tab-bar';
import { AppOutline, UserOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';

export function TabBar() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const active = pathname === '/my' ? '/my' : '/';
  return (
    <div className="tab-bar">
      <Bar activeKey={active} onChange={(key) => key !== active && navigate(key)}>
        <Bar.Item key="/" icon={<AppOutline />} title={t('tab_home')} />
        <Bar.Item key="/my" icon={<UserOutline />} title={t('tab_my')} />
      </Bar>
    </div>
  );
}
