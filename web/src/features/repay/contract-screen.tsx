/**
 * `/contract` (PRODUCT.md 3, P5, P14): the signed contract of the latest order —
 * the parties (the lender's legal name, registration and licence numbers; the
 * borrower), the terms, the full cost disclosure with its schedule and the line
 * "We never ask you to pay to receive a loan." (components/disclosure-table), and
 * the borrower's signature. The signature is a `/files/...` image served only
 * with the borrower's bearer token, so it is fetched and shown as an object URL.
 * "Download" saves the server's PDF of the signed contract (`/loan/contractPdf`,
 * docs/adr/0010-pdf-documents.md: the disclosure, schedule, signature, lender's
 * licence and the SHA-256 of the signed disclosure), the same document the order page
 * offers. An order without a disclosure has no contract.
 */
import { useEffect, useState } from 'react';
import Button from 'antd-mobile/es/components/button';
import DotLoading from 'antd-mobile/es/components/dot-loading';
import Toast from 'antd-mobile/es/components/toast';
import { useTranslation } from 'react-i18next';
import { useAppSelector } from '@/app/hooks';
import { DisclosureTable } from '@/components/disclosure-table';
import { downloadPdf } from '@/components/pdf-download';
import { Page } from '@/components/page';
import { QueryGate } from '@/components/query-gate';
import { EmptyState, ErrorState, Loading } from '@/components/states';
import { useDates } from '@/components/use-dates';
import { useMoney } from '@/components/use-money';
import { mask } from '@/lib/mask';
import { useLatestOrderQuery, useUserInfoQuery } from '@/lib/shared-api';
import { storage } from '@/lib/storage';
import type { Disclosure, Order, User } from '@/lib/api-types';
import { contractDisclosure } from './contract-model';
import './repay.css';

/** The signature image fetched with the bearer token, as an object URL. */
function useSignature(url: string | null, token: string | null) {
  const [state, setState] = useState<{ src: string | null; failed: boolean; loading: boolean }>({
    src: null,
    failed: false,
    loading: !!url,
  });
  useEffect(() => {
    if (!url) {
      setState({ src: null, failed: false, loading: false });
      return;
    }
    const abort = new AbortController();
    let objectUrl: string | null = null;
    setState({ src: null, failed: false, loading: true });
    fetch(url, { headers: token ? { Authorization: `Bearer ${token}` } : {}, signal: abort.signal })
      .then(async (response) => {
        if (!response.ok) throw new Error(String(response.status));
        objectUrl = URL.createObjectURL(await response.blob());
        setState({ src: objectUrl, failed: false, loading: false });
      })
      .catch(() => {
        if (!abort.signal.aborted) setState({ src: null, failed: true, loading: false });
      });
    return () => {
      abort.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [url, token]);
  return state;
}

function ContractView({ order, user, disclosure }: { order: Order; user: User; disclosure: Disclosure }) {
  const { t, i18n } = useTranslation();
  const money = useMoney();
  const dates = useDates();
  const sessionToken = useAppSelector((state) => state.session.token);
  const token = sessionToken ?? storage.get('token');
  const signature = useSignature(user.signatureImg, token);
  const [saving, setSaving] = useState(false);

  const { lender } = disclosure;
  const disbursed = order.status === 4 || order.status === 10;
  const title = t('contract_title');

  const download = async () => {
    setSaving(true);
    try {
      const outcome = await downloadPdf({
        path: '/jackey/loan/contractPdf',
        body: { loanOrderId: order.orderId },
        token,
        fileName: `contract-${order.orderNo ?? order.orderId}.pdf`,
        lang: i18n.language,
      });
      if (!outcome.ok) {
        const key = `service_error_${outcome.code}`;
        Toast.show({ content: outcome.code !== null && i18n.exists(key) ? t(key) : t('contract_download_failed') });
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      <article className="card stack repay-contract" data-testid="contract">
        <header>
          <h2 className="repay-contract__title">{title}</h2>
          <p className="muted">
            {t('contract_number', { id: order.orderNo ?? order.orderId })} · {t('contract_signed_on', { date: dates.dateTime(order.applyTime) })}
          </p>
        </header>

        <section>
          <h2 className="card__title">{t('contract_parties')}</h2>
          <table className="disclosure">
            <tbody>
              <tr>
                <td>{t('contract_lender')}</td>
                <td>{lender.legal_name}</td>
              </tr>
              <tr>
                <td>{t('contract_registration_no')}</td>
                <td>{lender.registration_no}</td>
              </tr>
              <tr>
                <td>{t('contract_licence_no')}</td>
                <td>{lender.licence_no}</td>
              </tr>
              <tr>
                <td>{t('contract_borrower')}</td>
                <td>{user.realName ?? order.realName ?? '—'}</td>
              </tr>
              {user.identity && (
                <tr>
                  <td>{t('contract_id_number')}</td>
                  <td>{mask(user.identity, 4)}</td>
                </tr>
              )}
              <tr>
                <td>{t('contract_phone')}</td>
                <td>{mask(user.mobile, 4)}</td>
              </tr>
            </tbody>
          </table>
        </section>

        <section>
          <h2 className="card__title">{t('contract_terms')}</h2>
          <ol className="repay-contract__terms">
            <li>
              {t('contract_term_loan', {
                product: order.productName ?? '',
                amount: money(disclosure.principal),
                days: disclosure.periodDays,
              })}
            </li>
            <li>{disbursed ? t('contract_term_paid_out', { date: dates.dateTime(order.paidAt) }) : t('contract_term_payout')}</li>
            <li>{t('contract_term_interest')}</li>
            <li>{t('contract_term_allocation')}</li>
            <li>{t('contract_term_prepay', { days: disclosure.coolingOffDays })}</li>
            <li>{t('contract_term_cancel')}</li>
            <li>
              {t('contract_term_overdue', {
                rate: disclosure.overdueDailyRatePct,
                cap: disclosure.maxTotalCostPct,
              })}
            </li>
            <li>{t('contract_term_no_other_charges')}</li>
          </ol>
        </section>

        <section data-testid="contract-disclosure">
          <h2 className="card__title">{t('contract_disclosure')}</h2>
          <DisclosureTable disclosure={disclosure} scheduleOpen />
        </section>

        <section>
          <h2 className="card__title">{t('contract_signature')}</h2>
          {signature.loading ? (
            <DotLoading color="primary" />
          ) : signature.src ? (
            <img className="repay-contract__signature" data-signature src={signature.src} alt={t('contract_signature_alt')} />
          ) : (
            <p className="muted">{t(signature.failed ? 'contract_signature_failed' : 'contract_signature_none')}</p>
          )}
          <p className="muted">
            {user.realName ?? order.realName ?? ''} · {dates.dateTime(order.applyTime)}
          </p>
        </section>
      </article>

      <Button block color="primary" size="large" loading={saving} onClick={download}>
        {t('contract_download')}
      </Button>
    </>
  );
}

function Contract({ order, disclosure }: { order: Order; disclosure: Disclosure }) {
  const user = useUserInfoQuery();
  if (user.isLoading) return <Loading />;
  if (user.isError || !user.data) return <ErrorState error={user.error} onRetry={() => void user.refetch()} />;
  return <ContractView order={order} user={user.data} disclosure={disclosure} />;
}

export default function ContractScreen() {
  const { t } = useTranslation();
  const latest = useLatestOrderQuery();
  return (
    <Page title={t('contract_title')} back>
      <QueryGate query={latest}>
        {(order) => {
          // Every order keeps the disclosure it was applied with; without one there is nothing to sign.
          const disclosure = order && contractDisclosure(order);
          return order && disclosure ? <Contract order={order} disclosure={disclosure} /> : <EmptyState text={t('contract_empty')} />;
        }}
      </QueryGate>
    </Page>
  );
}
