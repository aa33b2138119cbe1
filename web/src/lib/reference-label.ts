/**
 * A configured reference value (marital status, education: PRODUCT.md 3 and the
 * demo configuration's lists) in the borrower's language. The lists are the
 * operator's, in English; the value stored and sent stays the configured one, and
 * only its label is translated: `value_<kind>_<value>` in zh.json and fil.json.
 * English, and any value an operator adds without a translation, read as
 * configured (so en.json carries no such keys, and the first screen no bytes).
 */
import { useTranslation } from 'react-i18next';

/** The reference lists whose values have translations (banks and places are names). */
export type TranslatedList = 'marriage' | 'education';

/** `(value) => label` for one list; `''` stays `''` (nothing chosen). */
export function useReferenceLabel(kind: TranslatedList): (value: string) => string {
  const { t } = useTranslation();
  // A configured value may hold '.' or ':', which i18next would read as a key path or namespace.
  return (value) =>
    value === '' ? '' : t(`value_${kind}_${value}`, { defaultValue: value, keySeparator: false, nsSeparator: false });
}
