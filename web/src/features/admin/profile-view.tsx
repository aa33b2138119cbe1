/**
 * The applicant's profile, questionnaire answers and emergency contacts as the
 * console shows them (PRODUCT.md 10 "User"). The account number stays masked as
 * the api sends it.
 */
import { useTranslation } from 'react-i18next';
import { useDates } from '@/components/use-dates';
import { useMoney } from '@/components/use-money';
import { formatPlace } from '@/lib/place';
import { useReferenceLabel } from '@/lib/reference-label';
import type { EmergencyContact, Questionnaire, User, UserDoc } from '@/lib/api-types';
import { KeyValues, TableHead, type KeyValue } from './admin-ui';

function useYesNo() {
  const { t } = useTranslation();
  return (value: boolean | null | undefined) => (value === null || value === undefined ? '—' : value ? t('admin_yes') : t('admin_no'));
}

/** The applicant: the order review has the read model's document, the user screen `/user/info`'s. */
export function ApplicantProfile({ user }: { user: UserDoc & Partial<Pick<User, 'creditScore'>> }) {
  const { t } = useTranslation();
  const dates = useDates();
  const yesNo = useYesNo();
  // As the borrower reads them (lib/reference-label.ts): in Chinese on a Chinese console.
  const marriage = useReferenceLabel('marriage');
  const education = useReferenceLabel('education');
  // The consent registration recorded (PRODUCT.md 12.6): version, the language the
  // text was read in (where recorded) and when.
  const consentText = (consent: User['privacyNotice']) =>
    consent
      ? [`v${consent.version}`, consent.language && t(`language_${consent.language}`), dates.dateTime(consent.acceptedAt)]
          .filter(Boolean)
          .join(' · ')
      : t('admin_privacy_notice_none');
  const sex = user.sex === 1 ? t('admin_sex_1') : user.sex === 2 ? t('admin_sex_2') : '—';
  const rows: KeyValue[] = [
    [t('admin_real_name'), user.realName],
    [t('admin_id_number'), <span className="admin-mono">{user.identity}</span>],
    [t('admin_mobile'), <span className="admin-mono">{user.mobile}</span>],
    [t('admin_sex'), sex],
    [t('admin_birthday'), dates.day(user.birthday)],
    [t('admin_marriage'), user.marriage && marriage(user.marriage)],
    [t('admin_email'), user.email],
    [t('admin_facebook'), user.facebook],
    [t('admin_education'), user.education && education(user.education)],
    [t('admin_province_city'), formatPlace(user.provinceCity)],
    [t('admin_address'), user.address],
    [t('admin_bank'), user.bankName ? `${user.bankName} ${user.cardNo ?? ''}` : null],
    [t('admin_has_pin'), yesNo(user.hasWithdrawPin)],
    [t('admin_invite_code'), user.inviteCode],
    [t('admin_privacy_notice'), consentText(user.privacyNotice)],
  ];
  if (user.creditScore !== undefined && user.creditScore !== null) rows.push([t('admin_credit_score'), String(user.creditScore)]);
  return <KeyValues rows={rows} columns={2} />;
}

/** The answers, each null when not given (the user document keeps them one by one). */
type Answers = { [K in keyof Questionnaire]: Questionnaire[K] | null };

export function QuestionnaireView({ answers }: { answers: Answers | null }) {
  const { t } = useTranslation();
  const money = useMoney();
  const yesNo = useYesNo();
  if (!answers) return <p className="admin-muted">{t('admin_no_questionnaire')}</p>;
  const amount = (value: string | null) => (value && /^\d+(\.\d+)?$/.test(value) ? money(value) : value);
  return (
    <KeyValues
      columns={2}
      rows={[
        [t('admin_job'), answers.job],
        [t('admin_monthly_income'), amount(answers.monthlyIncome)],
        [t('admin_expenses'), amount(answers.expenses)],
        [t('admin_loan_purpose'), answers.loanPurpose],
        [t('admin_loan_before'), yesNo(answers.loanBefore)],
        [t('admin_guarantee'), yesNo(answers.guarantee)],
      ]}
    />
  );
}

export function ContactsView({ contacts }: { contacts: EmergencyContact[] }) {
  const { t } = useTranslation();
  return (
    <table className="admin-table admin-table--compact">
      <TableHead columns={[t('admin_contact_name'), t('admin_contact_relation'), t('admin_mobile')]} />
      <tbody>
        {contacts.map((contact) => (
          <tr key={`${contact.mobile}-${contact.name}`}>
            <td>{contact.name}</td>
            <td>{contact.relation}</td>
            <td className="admin-mono">{contact.mobile}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
