/**
 * `/inbox` (PRODUCT.md 12.5), from the My page: the due-date reminders, newest
 * first, unread ones marked with a dot and in bold. A reminder whose installment is
 * paid (or whose loan closed) says so and is not unread (issue 52). Opening a notice marks it read
 * and shows its order (schedule and Repay); "Mark all as read" clears the count.
 * Further pages load on demand. Every amount and date is formatted for the
 * language (`useMoney`, `useDates`); the wording states amount and date, never a
 * threat (section 0).
 */
import { useState } from 'react';
import Badge from 'antd-mobile/es/components/badge';
import Button from 'antd-mobile/es/components/button';
import List from 'antd-mobile/es/components/list';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { showToast } from '@/components/feedback';
import { Page } from '@/components/page';
import { QueryGate } from '@/components/query-gate';
import { EmptyState } from '@/components/states';
import { useDates } from '@/components/use-dates';
import { useMoney } from '@/components/use-money';
import { paths } from '@/config/paths';
import type { ApiFailure } from '@/lib/envelope';
import {
  NOTICES_PER_PAGE,
  useMarkNoticesReadMutation,
  useNoticesQuery,
  type Notice,
  type NoticeKind,
} from './inbox-api';
import './inbox.css';
import './inbox-i18n';

/** The heading and text keys of each kind of reminder. */
const WORDING: Record<NoticeKind, { title: string; text: string }> = {
  due_in_3_days: { title: 'inbox_due_in_3_days_title', text: 'inbox_due_text' },
  due_in_1_day: { title: 'inbox_due_in_1_day_title', text: 'inbox_due_text' },
  overdue: { title: 'inbox_overdue_title', text: 'inbox_overdue_text' },
};

function wording(kind: string) {
  return WORDING[kind as NoticeKind] ?? WORDING.due_in_3_days;
}

function NoticeItem({ notice }: { notice: Notice }) {
  const { t } = useTranslation();
  const money = useMoney();
  const dates = useDates();
  const navigate = useNavigate();
  const [mark] = useMarkNoticesReadMutation();
  // A settled installment asks for nothing: its reminder is not news any more.
  const unread = !notice.readAt && !notice.settled;
  const words = notice.settled ? { title: 'inbox_settled_title', text: 'inbox_settled_text' } : wording(notice.kind);
  const open = () => {
    if (unread) {
      mark([notice.id])
        .unwrap()
        .catch((error: ApiFailure) => showToast({ content: error.message }));
    }
    navigate(paths.detail.to(notice.orderId));
  };
  return (
    <List.Item
      data-testid="notice"
      data-unread={unread}
      prefix={
        <span className="inbox__dot" aria-hidden={!unread}>
          {unread && <Badge content={Badge.dot} color="var(--adm-color-danger)" />}
        </span>
      }
      description={
        <>
          <div>
            {t(words.text, { period: notice.period, amount: money(notice.amount), date: dates.day(notice.dueDate) })}
          </div>
          <div className="muted">{dates.dateTime(notice.createdAt)}</div>
        </>
      }
      arrow
      onClick={open}
    >
      <span style={{ fontWeight: unread ? 600 : 400 }}>
        {unread && <span className="visually-hidden">{t('inbox_unread')} </span>}
        {t(words.title)}
      </span>
    </List.Item>
  );
}

/** Page `page` of the inbox (pages after the first load when asked for). */
function NoticePageItems({ page }: { page: number }) {
  const { data } = useNoticesQuery(page);
  return <>{data?.notices.map((notice) => <NoticeItem key={notice.id} notice={notice} />)}</>;
}

export default function InboxScreen() {
  const { t } = useTranslation();
  const first = useNoticesQuery(1);
  const [pages, setPages] = useState(1);
  const [mark, markState] = useMarkNoticesReadMutation();
  const markAll = async () => {
    try {
      await mark('all').unwrap();
    } catch (error) {
      showToast({ content: (error as ApiFailure).message });
    }
  };
  return (
    <Page title={t('inbox_title')} back="/my">
      <QueryGate query={first}>
        {(page) =>
          page.total === 0 ? (
            <EmptyState text={t('inbox_empty')} />
          ) : (
            <>
              <div className="row inbox__summary">
                <span className="muted" data-testid="inbox-unread">
                  {t('inbox_unread_count', { n: page.unread })}
                </span>
                {page.unread > 0 && (
                  <Button size="small" fill="outline" loading={markState.isLoading} onClick={() => void markAll()}>
                    {t('inbox_mark_all')}
                  </Button>
                )}
              </div>
              <List mode="card" data-testid="inbox">
                {Array.from({ length: pages }, (_, i) => (
                  <NoticePageItems key={i + 1} page={i + 1} />
                ))}
              </List>
              {pages * NOTICES_PER_PAGE < page.total && (
                <Button block fill="none" color="primary" onClick={() => setPages(pages + 1)}>
                  {t('inbox_more')}
                </Button>
              )}
            </>
          )
        }
      </QueryGate>
    </Page>
  );
}
