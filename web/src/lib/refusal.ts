/**
 * A refusal's reasons as the borrower reads them (P8, issue 52): the coded reasons an
 * officer ticked, in the borrower's language, then the officer's note as typed. The
 * strings travel with the screens that show a refusal (home, the order's detail),
 * not with the first screen (its budget, issue 15).
 */
import type { TFunction } from 'i18next';
import type { Order } from './api-types';
import { addFeatureStrings } from './i18n';
import en from '@/locales/refusal/en.json';
import fil from '@/locales/refusal/fil.json';
import zh from '@/locales/refusal/zh.json';

addFeatureStrings({ en, zh, fil });

/** `refuseReasons` translated and joined, then the note; null when the order carries neither. */
export function refusalText(t: TFunction, order: Pick<Order, 'refuseReason' | 'refuseReasons'>): string | null {
  const coded = (order.refuseReasons ?? []).map((code) => t(`refusal_reason_${code}`, { defaultValue: code }));
  const reasons = coded.join(t('refusal_reason_join'));
  const note = order.refuseReason?.trim() ?? '';
  if (reasons && note) return t('refusal_reason_note', { reasons, note });
  return reasons || note || null;
}
