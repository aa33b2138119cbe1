/**
 * The `Intl` locale for an app language (PRODUCT.md 1): Chinese as in China,
 * Filipino and English as in the Philippines (issue 16). Dates read "Nob 22, 2026"
 * in Filipino; amounts keep the Philippine grouping either way ("₱1,234.50").
 */
export function intlLocale(language: string): string {
  if (language.startsWith('zh')) return 'zh-CN';
  if (language.startsWith('fil')) return 'fil-PH';
  return 'en-PH';
}
