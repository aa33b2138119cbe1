/**
 * The questionnaire's job and loan purpose (issue 52): each is picked from a short
 * list with the platform's picker, or "Other" with the borrower's own words. The
 * answer sent stays a string: the item's English label in every language, or the
 * words typed for Other; a stored answer that is no item opens as Other with its
 * text; all six answers are still required.
 */
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import QuestionScreen from '@/features/profile/question-screen';
import { answerOf, choiceOf, JOB_LIST, PURPOSE_LIST } from '@/features/profile/question-lists';
import { setLanguage } from '@/lib/i18n';
import type { User } from '@/lib/api-types';
import { userFixture } from '@/testing/fixtures';
import { renderWithProviders } from '@/testing/render';
import { answer, server } from '@/testing/server';

const session = { token: 'tok', redirect: null };

/** The questionnaire of `user`, with every update it sends. */
function open(user: Partial<User> = {}) {
  const sent: Record<string, unknown>[] = [];
  server.use(
    answer('jackey/user/info', { ...userFixture(), ...user }),
    answer('jackey/loan/getLoanProgress', null),
    answer('jackey/loan/appList', []),
    answer('jackey/loan/getAllCompanyConfigs', {}),
    answer('jackey/loan/getCustomerService', null),
    http.post('http://localhost/jackey/user/update', async ({ request }) => {
      sent.push((await request.json()) as Record<string, unknown>);
      return HttpResponse.json({ code: 0, msg: 'ok', data: null });
    }),
  );
  renderWithProviders(<QuestionScreen />, {
    route: '/question',
    preloadedState: { session },
    others: { '/loan': <p>products</p> },
  });
  return sent;
}

const picker = (name: string) => screen.getByRole('combobox', { name }) as HTMLSelectElement;
const optionTexts = (name: string) => [...picker(name).options].map((o) => o.textContent);
const next = () => screen.getByRole('button', { name: 'Next' });

const JOBS = ['Please choose', 'Employed (private company)', 'Government employee', 'Self-employed / business owner',
  'Freelancer', 'OFW (overseas worker)', 'Student', 'Unemployed', 'Retired', 'Other'];
const PURPOSES = ['Please choose', 'Daily expenses', 'Bills and utilities', 'Tuition / school fees', 'Medical',
  'Business capital', 'Home repair', 'Emergency', 'Other'];

describe('questionnaire lists', () => {
  afterEach(async () => {
    cleanup(); // before the language changes back, so no screen re-renders outside act
    await setLanguage('en', false);
  });

  it('offers the job and purpose lists; picking an item sends its English label', async () => {
    const user = userEvent.setup();
    const sent = open({ job: null, loanPurpose: null });
    await screen.findByRole('combobox', { name: 'Job' });
    expect(optionTexts('Job')).toEqual(JOBS);
    expect(optionTexts('Loan purpose')).toEqual(PURPOSES);
    // Nothing chosen yet, and no text box until Other is.
    expect(picker('Job').value).toBe('');
    expect(screen.queryByRole('textbox', { name: 'Your job' })).not.toBeInTheDocument();

    await user.selectOptions(picker('Job'), 'OFW (overseas worker)');
    await user.selectOptions(picker('Loan purpose'), 'Tuition / school fees');
    expect(screen.queryByRole('textbox', { name: 'Your job' })).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Your loan purpose' })).not.toBeInTheDocument();
    await user.click(next());

    expect(await screen.findByText('products')).toBeInTheDocument();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ job: 'OFW (overseas worker)', loanPurpose: 'Tuition / school fees', monthlyIncome: '30000' });
  });

  it('reads in the borrower language and still sends the English label', async () => {
    await act(() => setLanguage('zh', false));
    const user = userEvent.setup();
    const sent = open({ job: null, loanPurpose: null });
    await screen.findByRole('combobox', { name: '职业' });
    expect(optionTexts('职业')).toContain('政府雇员');
    expect(optionTexts('借款用途')).toContain('医疗');
    await user.selectOptions(picker('职业'), '政府雇员');
    await user.selectOptions(picker('借款用途'), '医疗');
    await user.click(screen.getByRole('button', { name: '下一步' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ job: 'Government employee', loanPurpose: 'Medical' });
  });

  it('Other shows a text box, limited as before, and sends the words typed', async () => {
    const user = userEvent.setup();
    const sent = open({ job: 'Student', loanPurpose: 'Emergency' });
    await screen.findByRole('combobox', { name: 'Job' });
    expect(picker('Job').selectedOptions[0].textContent).toBe('Student');
    expect(picker('Loan purpose').selectedOptions[0].textContent).toBe('Emergency');

    await user.selectOptions(picker('Job'), 'Other');
    const job = screen.getByRole('textbox', { name: 'Your job' });
    expect(job).toHaveAttribute('maxlength', '80');
    expect(job).toHaveValue('');
    await user.type(job, 'Jeepney driver');
    await user.selectOptions(picker('Loan purpose'), 'Other');
    const purpose = screen.getByRole('textbox', { name: 'Your loan purpose' });
    expect(purpose).toHaveAttribute('maxlength', '120');
    await user.type(purpose, '  A new tricycle  ');
    await user.click(next());

    expect(await screen.findByText('products')).toBeInTheDocument();
    expect(sent[0]).toMatchObject({ job: 'Jeepney driver', loanPurpose: 'A new tricycle' });
  });

  it('a stored answer that is no item opens as Other with its text, and is sent unchanged', async () => {
    const user = userEvent.setup();
    // The fixture's answers, from before the lists: "Teacher" and "School fees".
    const sent = open();
    await screen.findByRole('combobox', { name: 'Job' });
    expect(picker('Job').selectedOptions[0].textContent).toBe('Other');
    expect(screen.getByRole('textbox', { name: 'Your job' })).toHaveValue('Teacher');
    expect(picker('Loan purpose').selectedOptions[0].textContent).toBe('Other');
    expect(screen.getByRole('textbox', { name: 'Your loan purpose' })).toHaveValue('School fees');
    await user.click(next());
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ job: 'Teacher', loanPurpose: 'School fees' });
  });

  it('all six answers are still required, Other without words included', async () => {
    const user = userEvent.setup();
    const sent = open({ job: null, loanPurpose: null, monthlyIncome: null, expenses: null, loanBefore: null, guarantee: null });
    await screen.findByRole('combobox', { name: 'Job' });
    const refused = async () => {
      await user.click(next());
      expect(await screen.findByRole('alert')).toHaveTextContent('Please answer all six questions.');
      expect(sent).toEqual([]);
    };
    await refused();

    await user.selectOptions(picker('Job'), 'Other');
    await user.selectOptions(picker('Loan purpose'), 'Medical');
    await user.type(screen.getByRole('textbox', { name: 'Monthly income' }), '400000');
    await user.type(screen.getByRole('textbox', { name: 'Monthly expenses' }), '12000');
    await user.click(screen.getAllByText('No')[0]);
    await user.click(screen.getAllByText('No')[1]);
    // Other chosen, nothing typed: still unanswered.
    await refused();
    // Spaces are not an answer either.
    await user.type(screen.getByRole('textbox', { name: 'Your job' }), '   ');
    await refused();

    await user.type(screen.getByRole('textbox', { name: 'Your job' }), 'Tutor');
    await user.click(next());
    expect(await screen.findByText('products')).toBeInTheDocument();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ job: 'Tutor', loanPurpose: 'Medical', monthlyIncome: '400000', expenses: '12000', loanBefore: false, guarantee: false });
  });
});

describe('questionnaire list answers', () => {
  it('match a stored answer to its item regardless of case and spaces, else Other', () => {
    expect(choiceOf(JOB_LIST, ' retired ')).toEqual({ item: 'qlist_job_retired', text: '' });
    expect(choiceOf(JOB_LIST, 'Nurse')).toEqual({ item: 'qlist_job_other', text: 'Nurse' });
    expect(choiceOf(JOB_LIST, null)).toEqual({ item: '', text: '' });
    // "Other" itself is no item: the words "Other" are kept as typed.
    expect(choiceOf(PURPOSE_LIST, 'Other')).toEqual({ item: 'qlist_purpose_other', text: 'Other' });
    expect(answerOf(PURPOSE_LIST, { item: 'qlist_purpose_home_repair', text: 'ignored' })).toBe('Home repair');
    expect(answerOf(PURPOSE_LIST, { item: '', text: 'ignored' })).toBe('');
  });
});
