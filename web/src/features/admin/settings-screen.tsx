/**
 * `/admin/settings`: the lender's settings as data (issue 55), for admins (the
 * `settings` permission), beside the products and with the same maker-checker flow
 * (change-proposals.tsx). The settings in force: whether registration needs an invite
 * code and the codes, the company texts borrowers read (per language: about us, the
 * FAQ, the customer service hours, the invite code's help; English only: the contacts)
 * and the accounts borrowers may pay into by transfer. Then every version, every
 * proposal (newest first) with what it changes, Approve and Reject on the pending ones,
 * and "Propose a change", which starts from the latest approved version (perhaps one
 * scheduled for a moment still ahead) and sends the whole
 * settings as they would be: the codes one per line (trimmed, blanks dropped), each
 * text without its empty languages (a text with none is left out), the accounts
 * without empty rows.
 */
import { useState } from 'react';
import Button from 'antd-mobile/es/components/button';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { Wire } from '@/lib/wire';
import { useAdminDecideSettingsMutation, useAdminProposeSettingsMutation, useAdminSettingsQuery } from './admin-api';
import { CheckboxField, KeyValues, Table, TextAreaField, TextField } from './admin-ui';
import {
  ChangeForm,
  ChangePage,
  ChangeSection,
  changesColumn,
  inForceVersion,
  latestVersion,
  type ChangeColumn,
  type ChangeVersion,
} from './change-proposals';

type SettingsLine = Wire['SettingsLineView'];
type SettingsTerms = Wire['SettingsTerms'];
type Account = Wire['ReceivingAccountView'];
type Texts = SettingsTerms['texts'];

/** The texts written per language (English required). */
const TEXT_KEYS = ['about-us', 'faq', 'customer-service-hours', 'invite-code-help'] as const;
/** The contacts: one English text for every language. */
const CONTACT_KEYS = [
  'customer-service-link',
  'customer-service-phone',
  'customer-service-email',
  'customer-service-facebook',
  'website',
  'whatsapp',
  'line',
] as const;
/** The languages a text may be written in. */
const TEXT_LANGUAGES = ['en', 'zh', 'fil'] as const;
/** At most this many receiving accounts. */
const MAX_ACCOUNTS = 10;

const EDITABLE: ReadonlySet<string> = new Set([...TEXT_KEYS, ...CONTACT_KEYS]);

/** A text's name ("About us"); an unknown key as it is. */
const textLabel = (t: TFunction, key: string) => t(`admin_settings_text_${key.replace(/-/g, '_')}`, { defaultValue: key });
const languageLabel = (t: TFunction, language: string) => t(`admin_settings_lang_${language}`, { defaultValue: language });

/** Every text key of `texts`: the known ones in the console's order, then any other. */
function textKeys(...texts: Texts[]): string[] {
  const others = texts.flatMap((each) => Object.keys(each)).filter((key) => !EDITABLE.has(key));
  return [...TEXT_KEYS, ...CONTACT_KEYS, ...new Set(others)];
}

const sameText = (a: Record<string, string> = {}, b: Record<string, string> = {}) =>
  [...new Set([...Object.keys(a), ...Object.keys(b)])].every((language) => (a[language] ?? '') === (b[language] ?? ''));

const sameAccounts = (a: Account[], b: Account[]) =>
  a.length === b.length && a.every((x, i) => x.bankName === b[i].bankName && x.accountName === b[i].accountName && x.accountNo === b[i].accountNo);

/** What a proposal changes from the version it was based on: the names of what differs ("Invite codes", "FAQ"). */
function settingsChanges(t: TFunction, before: SettingsTerms, after: SettingsTerms): string[] {
  const changed: string[] = [];
  if (before.inviteCodeRequired !== after.inviteCodeRequired) changed.push(t('admin_settings_invite_required'));
  if (before.inviteCodes.join('\n') !== after.inviteCodes.join('\n')) changed.push(t('admin_settings_invite_codes'));
  for (const key of textKeys(before.texts, after.texts)) {
    if (!sameText(before.texts[key], after.texts[key])) changed.push(textLabel(t, key));
  }
  if (!sameAccounts(before.receivingAccounts, after.receivingAccounts)) changed.push(t('admin_settings_accounts_title'));
  return changed;
}

/** The settings in force: the invite codes, every text by language, the receiving accounts. */
function SettingsView({ terms }: { terms: SettingsTerms }) {
  const { t } = useTranslation();
  return (
    <>
      <h3 className="admin-subtitle">{t('admin_settings_in_force_title')}</h3>
      <KeyValues
        rows={[
          [t('admin_settings_invite_required'), terms.inviteCodeRequired ? t('admin_yes') : t('admin_no')],
          [t('admin_settings_invite_codes'), terms.inviteCodes.join(', ') || t('admin_settings_none_value')],
        ]}
      />
      <h3 className="admin-subtitle">{t('admin_settings_texts_title')}</h3>
      <Table
        className="admin-table--rows admin-settings__texts"
        columns={[t('admin_settings_text'), ...TEXT_LANGUAGES.map((language) => languageLabel(t, language))]}
      >
        <tbody>
          {textKeys(terms.texts).map((key) => (
            <tr key={key} data-testid="settings-text">
              <th scope="row">{textLabel(t, key)}</th>
              {TEXT_LANGUAGES.map((language) => (
                <td key={language} className="admin-settings__text">
                  {terms.texts[key]?.[language] || '—'}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </Table>
      <h3 className="admin-subtitle">{t('admin_settings_accounts_title')}</h3>
      <Table
        className="admin-table--rows"
        columns={[t('admin_settings_bank'), t('admin_settings_account_name'), t('admin_settings_account_no')]}
      >
        <tbody>
          {terms.receivingAccounts.map((account, index) => (
            <tr key={index} data-testid="settings-account">
              <td>{account.bankName}</td>
              <td>{account.accountName}</td>
              <td className="admin-mono">{account.accountNo}</td>
            </tr>
          ))}
          {terms.receivingAccounts.length === 0 && (
            <tr>
              <td colSpan={3} className="admin-empty">
                {t('admin_settings_no_accounts')}
              </td>
            </tr>
          )}
        </tbody>
      </Table>
    </>
  );
}

/** The form's fields as typed, from the latest approved settings. */
interface Draft {
  inviteCodeRequired: boolean;
  /** One code a line. */
  inviteCodes: string;
  /** Every editable text by language (the contacts in English only). */
  texts: Record<string, Record<string, string>>;
  accounts: Account[];
}

function draftOf(terms: SettingsTerms): Draft {
  const byLanguage = (key: string, languages: readonly string[]) =>
    Object.fromEntries(languages.map((language) => [language, terms.texts[key]?.[language] ?? '']));
  return {
    inviteCodeRequired: terms.inviteCodeRequired,
    inviteCodes: terms.inviteCodes.join('\n'),
    texts: Object.fromEntries([
      ...TEXT_KEYS.map((key) => [key, byLanguage(key, TEXT_LANGUAGES)]),
      ...CONTACT_KEYS.map((key) => [key, byLanguage(key, ['en'])]),
    ]),
    accounts: terms.receivingAccounts.map((account) => ({ ...account })),
  };
}

/**
 * The whole settings as the draft would make them: the codes trimmed without blank
 * lines; each text without its blank languages, left out when none remains (a text the
 * console does not edit kept as it is); the accounts trimmed, without empty rows.
 */
function settingsOf(terms: SettingsTerms, draft: Draft): SettingsTerms {
  const texts: Texts = Object.fromEntries(Object.entries(terms.texts).filter(([key]) => !EDITABLE.has(key)));
  for (const [key, byLanguage] of Object.entries(draft.texts)) {
    const written = Object.entries(byLanguage)
      .map(([language, text]) => [language, text.trim()] as const)
      .filter(([, text]) => text !== '');
    if (written.length) texts[key] = Object.fromEntries(written);
  }
  return {
    inviteCodeRequired: draft.inviteCodeRequired,
    inviteCodes: draft.inviteCodes
      .split('\n')
      .map((code) => code.trim())
      .filter(Boolean),
    texts,
    receivingAccounts: draft.accounts
      .map((account) => ({ bankName: account.bankName.trim(), accountName: account.accountName.trim(), accountNo: account.accountNo.trim() }))
      .filter((account) => account.bankName || account.accountName || account.accountNo),
  };
}

/** "Propose a change": the latest approved settings, edited; sent whole with a reason and, optionally, a moment. */
function ProposeForm({ terms }: { terms: SettingsTerms }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<Draft>(() => draftOf(terms));
  const [propose] = useAdminProposeSettingsMutation();
  const setText = (key: string, language: string, text: string) =>
    setDraft((old) => ({ ...old, texts: { ...old.texts, [key]: { ...old.texts[key], [language]: text } } }));
  const setAccount = (index: number, field: keyof Account, value: string) =>
    setDraft((old) => ({ ...old, accounts: old.accounts.map((account, i) => (i === index ? { ...account, [field]: value } : account)) }));
  const accountFields: [keyof Account, string][] = [
    ['bankName', 'admin_settings_bank_field'],
    ['accountName', 'admin_settings_account_name_field'],
    ['accountNo', 'admin_settings_account_no_field'],
  ];

  return (
    <ChangeForm testId="settings-propose" propose={(head) => propose({ ...head, terms: settingsOf(terms, draft) })}>
      <CheckboxField
        label={t('admin_settings_invite_required_field')}
        checked={draft.inviteCodeRequired}
        onChange={(checked) => setDraft((old) => ({ ...old, inviteCodeRequired: checked }))}
      />
      <TextAreaField
        label={t('admin_settings_invite_codes_field')}
        hint={t('admin_settings_invite_codes_hint')}
        rows={4}
        autoComplete="off"
        spellCheck={false}
        value={draft.inviteCodes}
        onChange={(event) => setDraft((old) => ({ ...old, inviteCodes: event.target.value }))}
      />

      <fieldset className="admin-choices">
        <legend className="admin-field__label">{t('admin_settings_texts_title')}</legend>
        <p className="admin-muted">{t('admin_settings_texts_hint')}</p>
        {TEXT_KEYS.map((key) => (
          <div key={key} className="admin-changes__fields admin-changes__fields--wide">
            {TEXT_LANGUAGES.map((language) => (
              <TextAreaField
                key={language}
                label={t('admin_settings_text_in', { text: textLabel(t, key), language: languageLabel(t, language) })}
                rows={key === 'faq' || key === 'about-us' ? 5 : 2}
                value={draft.texts[key]?.[language] ?? ''}
                onChange={(event) => setText(key, language, event.target.value)}
              />
            ))}
          </div>
        ))}
      </fieldset>

      <fieldset className="admin-choices">
        <legend className="admin-field__label">{t('admin_settings_contacts_title')}</legend>
        <p className="admin-muted">{t('admin_settings_contacts_hint')}</p>
        <div className="admin-changes__fields">
          {CONTACT_KEYS.map((key) => (
            <TextField
              key={key}
              label={textLabel(t, key)}
              autoComplete="off"
              value={draft.texts[key]?.en ?? ''}
              onChange={(event) => setText(key, 'en', event.target.value)}
            />
          ))}
        </div>
      </fieldset>

      <fieldset className="admin-choices">
        <legend className="admin-field__label">{t('admin_settings_accounts_title')}</legend>
        {draft.accounts.map((account, index) => (
          <div key={index} className="admin-settings__account" data-testid="settings-account-field">
            {accountFields.map(([field, label]) => (
              <TextField
                key={field}
                label={t(label, { n: index + 1 })}
                autoComplete="off"
                value={account[field]}
                onChange={(event) => setAccount(index, field, event.target.value)}
              />
            ))}
            <Button
              size="small"
              fill="outline"
              aria-label={t('admin_settings_remove_of', { n: index + 1 })}
              onClick={() => setDraft((old) => ({ ...old, accounts: old.accounts.filter((_, i) => i !== index) }))}
            >
              {t('admin_settings_remove')}
            </Button>
          </div>
        ))}
        {draft.accounts.length === 0 && <p className="admin-muted">{t('admin_settings_no_accounts')}</p>}
        <div>
          <Button
            size="small"
            disabled={draft.accounts.length >= MAX_ACCOUNTS}
            onClick={() => setDraft((old) => ({ ...old, accounts: [...old.accounts, { bankName: '', accountName: '', accountNo: '' }] }))}
          >
            {t('admin_settings_add_account')}
          </Button>
        </div>
      </fieldset>
    </ChangeForm>
  );
}

/** The settings: in force, the versions, the proposals and the form. */
function SettingsSection({ line }: { line: SettingsLine }) {
  const { t } = useTranslation();
  const [decide] = useAdminDecideSettingsMutation();
  const current = inForceVersion<SettingsTerms>(line);
  const latest = latestVersion<SettingsTerms>(line);
  const yesNo = (yes: boolean) => (yes ? t('admin_yes') : t('admin_no'));
  const versionColumns: ChangeColumn<ChangeVersion<SettingsTerms>>[] = [
    { label: t('admin_settings_invite_required'), render: (version) => yesNo(version.terms.inviteCodeRequired) },
    { label: t('admin_settings_invite_codes'), render: (version) => t('admin_settings_codes_count', { count: version.terms.inviteCodes.length }) },
    {
      label: t('admin_settings_accounts_title'),
      render: (version) => t('admin_settings_accounts_count', { count: version.terms.receivingAccounts.length }),
    },
  ];
  const proposalColumns = [changesColumn<SettingsTerms>(t, line, (before, after) => settingsChanges(t, before, after))];
  return (
    <ChangeSection<SettingsTerms>
      prefix="settings"
      title={t('admin_settings_line_title')}
      line={line}
      inForce={current ? <SettingsView terms={current.terms} /> : <p className="admin-muted">—</p>}
      versionColumns={versionColumns}
      proposalColumns={proposalColumns}
      decide={(decision) => decide(decision)}
      // From the latest approved version (perhaps scheduled), keyed by it: a proposal based on
      // an older one could not be approved, and a new version starts the form afresh.
      form={latest && <ProposeForm key={latest.version} terms={latest.terms} />}
    />
  );
}

export function SettingsScreen() {
  const { t } = useTranslation();
  const settings = useAdminSettingsQuery(undefined, { refetchOnMountOrArgChange: true });
  return (
    <ChangePage
      title={t('admin_settings_title')}
      hint={t('admin_settings_hint')}
      query={settings}
      empty={settings.isSuccess && !settings.data ? t('admin_settings_none') : null}
    >
      {settings.data && <SettingsSection line={settings.data} />}
    </ChangePage>
  );
}
