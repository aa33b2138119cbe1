/**
 * `/loan`: the product list (PRODUCT.md 3): logo, name, maximum amount, daily
 * rate and an Apply button; disabled products are greyed. No star score: a fixed
 * "5.0" on every product (PRODUCT.md 3 `/loan`) would be a rating nobody gave. The button
 * reads "Complete info" while the borrower is not qualified (4.1).
 */
import Button from 'antd-mobile/es/components/button';
import Image from 'antd-mobile/es/components/image';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Page } from '@/components/page';
import { QueryGate } from '@/components/query-gate';
import { EmptyState } from '@/components/states';
import { useMoney } from '@/components/use-money';
import { formatPct } from '@/lib/money';
import { useProductName } from '@/lib/product-name';
import { isQualified } from '@/lib/rules';
import { useProductsQuery, useUserInfoQuery } from '@/lib/shared-api';

export default function ProductsScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const money = useMoney();
  const name = useProductName();
  const products = useProductsQuery();
  const { data: user } = useUserInfoQuery();
  const qualified = isQualified(user?.userQualificationView);
  return (
    <Page title={t('products_title')} back="/">
      <QueryGate query={products}>
        {(list) =>
          list.length === 0 ? (
            <EmptyState />
          ) : (
            <div className="stack">
              {list.map((p) => (
                <div key={p.id} className={`card product${p.enabled ? '' : ' product--disabled'}`} data-testid={`product-${p.id}`}>
                  <div className="row">
                    <Image src={p.logo} width={48} height={48} fit="cover" style={{ borderRadius: 12 }} alt="" />
                    <div style={{ flex: 1 }}>
                      <div className="product__name">{name(p)}</div>
                      <div className="muted">
                        {t('up_to')} {money(p.maxAmount)} · {t('daily_rate')} {formatPct(p.defaultRate)}
                      </div>
                    </div>
                    <Button
                      color="primary"
                      size="small"
                      disabled={!p.enabled}
                      onClick={() => navigate(!qualified ? '/baseInfo' : user?.job ? `/apply/${p.id}` : '/question')}
                    >
                      {!p.enabled ? t('unavailable') : qualified ? t('apply') : t('main_completeInfo')}
                    </Button>
                  </div>
                </div>
              ))}
            </div>
          )
        }
      </QueryGate>
    </Page>
  );
}
