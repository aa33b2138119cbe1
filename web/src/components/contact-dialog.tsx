/**
 * The in-app customer-service dialog: the lender's contact details from the
 * company configuration (`customer-service-phone`, `-email`, `-hours`). Shown
 * when there is no link that can open (src/lib/service-link.ts); in the demo the
 * details are marked as examples and are plain text, not `tel:`/`mailto:` links
 * that would reach no one. Loaded on first use (components/service-button.tsx),
 * so the first screen does not carry it.
 */
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { CompanyConfig } from '@/lib/api-types';
import { contactDetails } from '@/lib/service-link';

function Row({ label, value, href }: { label: string; value: string; href: string | null }) {
  return (
    <div className="contact-dialog__row">
      <dt>{label}</dt>
      <dd>{href ? <a href={href}>{value}</a> : value}</dd>
    </div>
  );
}

export function ContactDetailsList({ config, t }: { config: CompanyConfig | undefined; t: TFunction }) {
  const { i18n } = useTranslation();
  const details = contactDetails(config, i18n.language);
  const lender = config?.lender?.legal_name;
  const any = details.phone || details.email;
  return (
    <div className="contact-dialog" data-testid="contact-dialog">
      {lender && <p className="contact-dialog__lender">{lender}</p>}
      {any ? (
        <dl className="contact-dialog__list">
          {details.phone && <Row label={t('contact_phone')} value={details.phone} href={details.phoneHref} />}
          {details.email && <Row label={t('email')} value={details.email} href={details.emailHref} />}
          {details.hours && <Row label={t('contact_hours')} value={details.hours} href={null} />}
        </dl>
      ) : (
        <p>{t('contact_service_dialog')}</p>
      )}
      {details.demo && any && <p className="contact-dialog__demo">{t('contact_demo_note')}</p>}
      <p className="contact-dialog__notice">{t('never_pay_notice')}</p>
    </div>
  );
}
