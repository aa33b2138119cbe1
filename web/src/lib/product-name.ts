/**
 * A product's name in the borrower's language: `/jackey/loan/appList` answers the
 * English `name` and, where the lender gave them, `nameTranslations` by language
 * (api/src/settings.rs `ProductConfig`). Display only: an order and its contract keep
 * the name recorded at application.
 */
import { useTranslation } from 'react-i18next';
import type { Product } from './api-types';

/** `product`'s name in `language`, else its English name. */
export function productName(product: Pick<Product, 'name' | 'nameTranslations'>, language: string): string {
  const translated = product.nameTranslations?.[language];
  return translated && translated.trim() !== '' ? translated : product.name;
}

/** `product => name` in the current language. */
export function useProductName() {
  const { i18n } = useTranslation();
  return (product: Pick<Product, 'name' | 'nameTranslations'>) => productName(product, i18n.language);
}
