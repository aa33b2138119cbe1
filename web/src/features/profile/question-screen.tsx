/**
 * `/question`: the six-question questionnaire (PRODUCT.md 2.5, 3); all six
 * answers are required. Afterwards the borrower goes to the apply screen of the
 * first enabled product at its longest period, pre-filled with the largest amount
 * the declared income allows, or to the detail of an order in progress (4.2, P7).
 * Nothing is created here.
 */
import { useState } from 'react';
import Button from 'antd-mobile/es/components/button';
import Form from 'antd-mobile/es/components/form';
import Input from 'antd-mobile/es/components/input';
import Radio from 'antd-mobile/es/components/radio';
import Toast from 'antd-mobile/es/components/toast';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { MoneyInput } from '@/components/money-input';
import { Page } from '@/components/page';
import { QueryGate } from '@/components/query-gate';
import type { ApiFailure } from '@/lib/envelope';
import { afterQuestionnaire } from '@/lib/rules';
import { sharedApi, useLoanProgressQuery, useProductsQuery, useUserInfoQuery } from '@/lib/shared-api';
import { useAppDispatch } from '@/app/hooks';
import type { User } from '@/lib/api-types';
import { useUpdateProfileMutation } from './profile-api';

type YesNo = '' | 'yes' | 'no';

function Questions({ user }: { user: User }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const { data: products } = useProductsQuery();
  const { data: progress } = useLoanProgressQuery();
  const [update, state] = useUpdateProfileMutation();
  const [problem, setProblem] = useState<string | null>(null);
  const [a, setA] = useState({
    job: user.job ?? '',
    monthlyIncome: user.monthlyIncome ?? '',
    expenses: user.expenses ?? '',
    loanPurpose: user.loanPurpose ?? '',
    loanBefore: (user.loanBefore === null ? '' : user.loanBefore ? 'yes' : 'no') as YesNo,
    guarantee: (user.guarantee === null ? '' : user.guarantee ? 'yes' : 'no') as YesNo,
  });
  const set = (key: keyof typeof a) => (value: string) => setA((old) => ({ ...old, [key]: value }));
  const complete = Object.values(a).every((x) => String(x).trim() !== '');

  const submit = async () => {
    if (!complete) {
      setProblem(t('question_all_required'));
      return;
    }
    try {
      await update({
        realName: user.realName ?? undefined,
        identity: user.identity ?? undefined,
        marriage: user.marriage ?? undefined,
        job: a.job.trim(),
        monthlyIncome: a.monthlyIncome.trim(),
        expenses: a.expenses.trim(),
        loanPurpose: a.loanPurpose.trim(),
        loanBefore: a.loanBefore === 'yes',
        guarantee: a.guarantee === 'yes',
      }).unwrap();
      Toast.show({ icon: 'success', content: t('saved') });
      const enabled = (products ?? []).find((p) => p.enabled);
      const periods = enabled
        ? await dispatch(sharedApi.endpoints.periodConfig.initiate(enabled.id)).unwrap()
        : undefined;
      navigate(afterQuestionnaire(progress, products ?? [], periods));
    } catch (error) {
      setProblem((error as ApiFailure).message);
    }
  };

  const yesNo = (key: 'loanBefore' | 'guarantee') => (
    <Radio.Group value={a[key]} onChange={(x) => set(key)(String(x))}>
      <Radio value="yes" style={{ marginRight: 16 }}>{t('yes')}</Radio>
      <Radio value="no">{t('no')}</Radio>
    </Radio.Group>
  );

  return (
    <>
      <p className="muted">{t('question_intro')}</p>
      <Form layout="vertical" mode="card">
        <Form.Item label={t('q_job')}>
          <Input aria-label={t('q_job')} value={a.job} onChange={set('job')} maxLength={80} />
        </Form.Item>
        <Form.Item label={t('q_monthly_income')}>
          <MoneyInput label={t('q_monthly_income')} decimals={false} value={a.monthlyIncome} onChange={set('monthlyIncome')} />
        </Form.Item>
        <Form.Item label={t('q_expenses')}>
          <MoneyInput label={t('q_expenses')} decimals={false} value={a.expenses} onChange={set('expenses')} />
        </Form.Item>
        <Form.Item label={t('q_loan_purpose')}>
          <Input aria-label={t('q_loan_purpose')} value={a.loanPurpose} onChange={set('loanPurpose')} maxLength={120} />
        </Form.Item>
        <Form.Item label={t('q_loan_before')}>{yesNo('loanBefore')}</Form.Item>
        <Form.Item label={t('q_guarantee')}>{yesNo('guarantee')}</Form.Item>
      </Form>
      {problem && <p className="error-text" role="alert" data-testid="form-error">{problem}</p>}
      <Button block color="primary" size="large" loading={state.isLoading} onClick={submit}>
        {t('next')}
      </Button>
    </>
  );
}

export default function QuestionScreen() {
  const { t } = useTranslation();
  const user = useUserInfoQuery(undefined, { refetchOnMountOrArgChange: true });
  return (
    <Page title={t('question_title')} back>
      <QueryGate query={user} fresh>{(u) => <Questions user={u} />}</QueryGate>
    </Page>
  );
}
