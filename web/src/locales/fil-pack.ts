/**
 * What choosing Filipino loads, as one chunk (lib/i18n.ts): the borrower strings
 * and antd-mobile's own words in Filipino. antd-mobile ships no `fil` locale, so
 * `antd` lays the texts the app can show (the clear button and mask names read
 * by screen readers, dialog buttons, form marks, error blocks) over its English
 * one; anything else stays English. It takes the English locale as an argument
 * rather than importing it, so the first screen's chunks stay as they are.
 */
import type { Locale } from 'antd-mobile/es/locales/base';
import strings from './fil.json';

const words = {
  locale: 'fil',
  common: { confirm: 'Kumpirmahin', cancel: 'Kanselahin', loading: 'Naglo-load', close: 'Isara' },
  Dialog: { ok: 'OK' },
  Modal: { ok: 'OK' },
  ErrorBlock: {
    default: { title: 'May nangyaring mali', description: 'Maghintay sandali at subukang muli' },
    busy: { title: 'Hindi ma-load', description: 'Subukang i-refresh ang pahina' },
    disconnected: { title: 'Abala ang network', description: 'Subukang i-refresh ang pahina' },
    empty: { title: 'Walang nahanap', description: '' },
  },
  Form: { required: 'Kailangan', optional: 'Opsyonal' },
  ImageUploader: { uploading: 'Ina-upload…', upload: 'I-upload' },
  InfiniteScroll: { noMore: 'Wala nang iba', failedToLoad: 'Hindi na-load', retry: 'Subukang muli' },
  Input: { clear: 'Burahin' },
  Mask: { name: 'Takip' },
  PullToRefresh: { pulling: 'Hilahin pababa para i-refresh', canRelease: 'Bitawan para i-refresh', complete: 'Na-refresh na' },
  Stepper: { decrease: 'Bawasan', increase: 'Dagdagan' },
} satisfies { [K in keyof Locale]?: Partial<Locale[K]> };

export default strings;

/** antd-mobile's English locale with the Filipino words above laid over it. */
export function antd(english: Locale): Locale {
  const out: Record<string, unknown> = { ...english };
  for (const [key, value] of Object.entries(words)) {
    const base = out[key];
    out[key] = typeof value === 'object' && typeof base === 'object' ? { ...base, ...value } : value;
  }
  return out as Locale;
}
