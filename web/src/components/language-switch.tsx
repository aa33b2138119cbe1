/**
 * The language switch (PRODUCT.md 1, issue 16): English, Chinese and Filipino in
 * the borrower app, each named in its own language (and marked as such for
 * screen readers); the console passes the languages it is translated into. The
 * choice is remembered.
 */
import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, setLanguage, type Language } from '@/lib/i18n';

export function LanguageSwitch({ languages = LANGUAGES }: { languages?: readonly Language[] }) {
  const { t, i18n } = useTranslation();
  return (
    <div className="language-switch" role="group" aria-label={t('language')}>
      {languages.map((language) => (
        <Button
          key={language}
          size="mini"
          fill={i18n.language === language ? 'solid' : 'outline'}
          color="primary"
          onClick={() => void setLanguage(language)}
        >
          <span lang={language}>{t(`language_${language}`)}</span>
        </Button>
      ))}
    </div>
  );
}
