/**
 * `/about`: who the lender is (P14): legal name, registration and licence
 * numbers, the about-us text and "We never ask you to pay to receive a loan."
 */
import List from 'antd-mobile/es/components/list';
import { useTranslation } from 'react-i18next';
import { Page } from '@/components/page';
import { QueryGate } from '@/components/query-gate';
import { useCompanyText } from '@/lib/company-text';
import { useCompanyConfigQuery } from '@/lib/shared-api';

export default function AboutScreen() {
  const { t } = useTranslation();
  const company = useCompanyConfigQuery();
  const companyText = useCompanyText();
  return (
    <Page title={t('about_us')} back footer={false}>
      <QueryGate query={company}>
        {(c) => (
          <>
            <section className="card">
              <h2 className="card__title">{c.lender?.legal_name}</h2>
              <p>{companyText(c, 'about-us')}</p>
              <p className="info-box" data-testid="never-pay">{t('never_pay_notice')}</p>
            </section>
            <List mode="card">
              <List.Item extra={c.lender?.legal_name}>{t('legal_name')}</List.Item>
              <List.Item extra={c.lender?.registration_no}>{t('registration_no')}</List.Item>
              <List.Item extra={c.lender?.licence_no}>{t('licence_no')}</List.Item>
              {typeof c.website === 'string' && c.website && (
                <List.Item extra={<a href={c.website} target="_blank" rel="noreferrer">{c.website}</a>}>{t('website')}</List.Item>
              )}
            </List>
            {companyText(c, 'faq') && (
              <section className="card">
                <h2 className="card__title">{t('faq')}</h2>
                <p>{companyText(c, 'faq')}</p>
              </section>
            )}
          </>
        )}
      </QueryGate>
    </Page>
  );
}
