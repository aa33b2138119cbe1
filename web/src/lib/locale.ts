/** The `Intl` locale for an app language: Chinese as in China, English as in the Philippines (PRODUCT.md 1). */
export function intlLocale(language: string): string {
  return language.startsWith('zh') ? 'zh-CN' : 'en-PH';
}
