/** `/partner`: the cooperation page, its image from the company config (PRODUCT.md 3). */
import Image from 'antd-mobile/es/components/image';
import { useTranslation } from 'react-i18next';
import { Page } from '@/components/page';
import { QueryGate } from '@/components/query-gate';
import { useCompanyConfigQuery } from '@/lib/shared-api';

export default function PartnerScreen() {
  const { t } = useTranslation();
  const company = useCompanyConfigQuery();
  return (
    <Page title={t('cooperation')} back>
      <QueryGate query={company}>
        {(c) => (
          <section className="card card--flush">
            {typeof c['partner-image'] === 'string' && (
              <Image src={c['partner-image']} alt={t('cooperation')} fit="contain" style={{ width: '100%' }} />
            )}
            <div style={{ padding: 16 }}>
              <h2 className="card__title">{t('partner_title')}</h2>
              <p className="muted">{t('partner_text')}</p>
            </div>
          </section>
        )}
      </QueryGate>
    </Page>
  );
}
