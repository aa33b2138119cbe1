/**
 * `/question`: the six-question questionnaire (PRODUCT.md 2.5, 3); all six
 * answers are required. Afterwards the borrower goes to the apply screen of the
 * first enabled product at its longest period, pre-filled with the largest amount
 * the declared income allows, or to the detail of an order in progress (4.2, P7).
 * Nothing is created here. Job and loan purpose are picked from a short list, with
 * "Other" for the borrower's own words (issue 52, question-lists.ts).
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
import { SelectField } from '@/components/select-field';
import type { ApiFailure } from '@/lib/envelope';
import { afterQuestionnaire } from '@/lib/rules';
import { sharedApi, useLoanProgressQuery, useProductsQuery, useUserInfoQuery } from '@/lib/shared-api';
import { useAppDispatch } from '@/app/hooks';
import type { User } from '@/lib/api-types';
import { useUpdateProfileMutation } from './profile-api';
import './question-i18n';
import { answerOf, choiceOf, JOB_LIST, PURPOSE_LIST, type AnswerList, type Choice } from './question-lists';

type YesNo = '' | 'yes' | 'no';

/**
 * One list question: the platform's picker (SelectField, as the profile picks
 * marital status and education), and under it, once Other is chosen, a text box
 * for the borrower's own words.
 */
function ListAnswer({
  label,
  list,
  choice,
  onChange,
}: {
  label: string;
  list: AnswerList;
  choice: Choice;
  onChange: (choice: Choice) => void;
}) {
  const { t } = useTranslation();
  const options = [...list.items, list.other].map((key) => ({ value: key, label: t(key) }));
  return (
    <>
      <Form.Item label={label}>
        <SelectField label={label} value={choice.item} options={options} onChange={(item) => onChange({ ...choice, item })} />
      </Form.Item>
      {choice.item === list.other && (
        <Form.Item label={t(list.otherText)}>
          <Input
            aria-label={t(list.otherText)}
            value={choice.text}
            onChange={(text) => onChange({ ...choice, text })}
            maxLength={list.maxLength}
          />
        </Form.Item>
      )}
    </>
  );
}

function Questions({ user }: { user: User }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const { data: products } = useProductsQuery();
  const { data: progress } = useLoanProgressQuery();
  const [update, state] = useUpdateProfileMutation();
  const [problem, setProblem] = useState<string | null>(null);
  const [job, setJob] = useState(() => choiceOf(JOB_LIST, user.job));
  const [purpose, setPurpose] = useState(() => choiceOf(PURPOSE_LIST, user.loanPurpose));
  const [a, setA] = useState({
    monthlyIncome: user.monthlyIncome ?? '',
    expenses: user.expenses ?? '',
    loanBefore: (user.loanBefore === null ? '' : user.loanBefore ? 'yes' : 'no') as YesNo,
    guarantee: (user.guarantee === null ? '' : user.guarantee ? 'yes' : 'no') as YesNo,
  });
  const set = (key: keyof typeof a) => (value: string) => setA((old) => ({ ...old, [key]: value }));
  const answers = { ...a, job: answerOf(JOB_LIST, job), loanPurpose: answerOf(PURPOSE_LIST, purpose) };
  const complete = Object.values(answers).every((x) => String(x).trim() !== '');

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
        job: answers.job,
        monthlyIncome: a.monthlyIncome.trim(),
        expenses: a.expenses.trim(),
        loanPurpose: answers.loanPurpose,
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
        <ListAnswer label={t('q_job')} list={JOB_LIST} choice={job} onChange={setJob} />
        <Form.Item label={t('q_monthly_income')}>
          <MoneyInput label={t('q_monthly_income')} decimals={false} value={a.monthlyIncome} onChange={set('monthlyIncome')} />
        </Form.Item>
        <Form.Item label={t('q_expenses')}>
          <MoneyInput label={t('q_expenses')} decimals={false} value={a.expenses} onChange={set('expenses')} />
        </Form.Item>
        <ListAnswer label={t('q_loan_purpose')} list={PURPOSE_LIST} choice={purpose} onChange={setPurpose} />
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
