/**
 * `/contract` (PRODUCT.md 3, P5, P14): the signed contract of the latest order —
 * the parties (the lender's legal name, registration and licence numbers; the
 * borrower), the terms, the full cost disclosure with its schedule and the line
 * "We never ask you to pay to receive a loan." (components/disclosure-table), and
 * the borrower's signature. The signature is a `/files/...` image served only
 * with the borrower's bearer token, so it is fetched and shown as an object URL.
 * "Download" saves the contract as one self-contained HTML file (the signature
 * embedded as a data URL). An order without a disclosure has no contract.
 */
import { useEffect, useRef, useState } from 'react';
import Button from 'antd-mobile/es/components/button';
import DotLoading from 'antd-mobile/es/components/dot-loading';
import Toast from 'antd-mobile/es/components/toast';
import { useTranslation } from 'react-i18next';
import { useAppSelector } from '@/app/hooks';
import { DisclosureTable } from '@/components/disclosure-table';
import { Page } from '@/components/page';
import { QueryGate } from '@/components/query-gate';
import { EmptyState, ErrorState, Loading } from '@/components/states';
import { useDates } from '@/components/use-dates';
import { useMoney } from '@/components/use-money';
import { mask } from '@/lib/mask';
import { useLatestOrderQuery, useUserInfoQuery } from '@/lib/shared-api';
import { storage } from '@/lib/storage';
import type { Disclosure, Order, User } from '@/lib/types';
import { contractDisclosure, contractDocument } from './contract-model';
import './repay.css';

/** The signature image fetched with the bearer token: an object URL and its blob. */
function useSignature(url: string | null) {
  const sessionToken = useAppSelector((state) => state.session.token);
  const token = sessionToken ?? storage.get('token');
  const [state, setState] = useState<{ src: string | null; blob: Blob | null; failed: boolean; loading: boolean }>({
    src: null,
    blob: null,
    failed: false,
    loading: !!url,
  });
  useEffect(() => {
    if (!url) {
      setState({ src: null, blob: null, failed: false, loading: false });
      return;
    }
    const abort = new AbortController();
    let objectUrl: string | null = null;
    setState({ src: null, blob: null, failed: false, loading: true });
    fetch(url, { headers: token ? { Authorization: `Bearer ${token}` } : {}, signal: abort.signal })
      .then(async (response) => {
        if (!response.ok) throw new Error(String(response.status));
        const blob = await response.blob();
        objectUrl = URL.createObjectURL(blob);
        setState({ src: objectUrl, blob, failed: false, loading: false });
      })
      .catch(() => {
        if (!abort.signal.aborted) setState({ src: null, blob: null, failed: true, loading: false });
      });
    return () => {
      abort.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [url, token]);
  return state;
}

/** A blob as a `data:` URL (base64), to embed the signature in the downloaded file. */
async function dataUrlOf(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return `data:${blob.type || 'image/png'};base64,${btoa(binary)}`;
}

function ContractView({ order, user, disclosure }: { order: Order; user: User; disclosure: Disclosure }) {
  const { t, i18n } = useTranslation();
  const money = useMoney();
  const dates = useDates();
  const signature = useSignature(user.signatureImg);
  const article = useRef<HTMLElement>(null);
  const [saving, setSaving] = useState(false);

  const { lender } = disclosure;
  const disbursed = order.status === 4 || order.status === 10;
  const title = t('contract_title');

  const download = async () => {
    if (!article.current) return;
    setSaving(true);
    try {
      const copy = article.current.cloneNode(true) as HTMLElement;
      const img = copy.querySelector('img[data-signature]');
      if (img && signature.blob) img.setAttribute('src', await dataUrlOf(signature.blob));
      const html = contractDocument(`${title} ${order.orderId}`, i18n.language, copy.outerHTML);
      const url = URL.createObjectURL(new Blob([html], { type: 'text/html;charset=utf-8' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = `contract-${order.orderId}.html`;
      document.body.appendChild(link);
      link.click();
      link.remove();
      window.setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch {
      Toast.show({ content: t('contract_download_failed') });
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      <article ref={article} className="card stack repay-contract" data-testid="contract">
        <header>
          <h2 className="repay-contract__title">{title}</h2>
          <p className="muted">
            {t('contract_number', { id: order.orderId })} · {t('contract_signed_on', { date: dates.dateTime(order.applyTime) })}
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
