/** English / Chinese switch (PRODUCT.md 1); the choice is remembered. */
import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, setLanguage } from '@/lib/i18n';

export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  return (
    <div className="language-switch" role="group" aria-label={t('language')}>
      {LANGUAGES.map((language) => (
        <Button
          key={language}
          size="mini"
          fill={i18n.language === language ? 'solid' : 'outline'}
          color="primary"
          onClick={() => void setLanguage(language)}
        >
          {t(`language_${language}`)}
        </Button>
      ))}
    </div>
  );
}
