/**
 * Wire shapes of PRODUCT.md section 10 (and what the api adds). Money fields are
 * decimal strings with two places; times are RFC 3339 UTC strings.
 */

/** The questionnaire's answers (PRODUCT.md 10 "User"), part of the user and of the console's order review. */
export interface Questionnaire {
  job: string | null;
  monthlyIncome: string | null;
  expenses: string | null;
  loanPurpose: string | null;
  loanBefore: boolean | null;
  guarantee: boolean | null;
}

export interface Lender {
  legal_name: string;
  registration_no: string;
  licence_no: string;
}

export interface CompanyConfig {
  appId?: number;
  title?: string;
  theme?: { primary?: string; background?: string; text?: string };
  lender?: Lender;
  currency?: { code: string; symbol: string; locale?: string };
  notice?: string;
  /** APP_ENV=demo: no real SMS is sent; the demo inbox `/sandbox/sms/{mobile}` shows them. */
  demo?: boolean;
  'about-us'?: string;
  faq?: string;
  'customer-service-hours'?: string;
  /** The privacy notice's text, and the version of it registration records (PRODUCT.md 12.6). */
  'privacy-notice'?: string;
  /** The texts configured in several languages: key → language → text (lib/company-text.ts). */
  translations?: Partial<Record<'about-us' | 'faq' | 'customer-service-hours' | 'privacy-notice', Record<string, string>>>;
  privacyNoticeVersion?: string;
  'customer-service-link'?: string | null;
  'partner-image'?: string;
  [key: string]: unknown;
}

export interface ScheduleLine {
  period: number;
  amount: string;
  /** Known once the loan is paid out (the term starts on the payout day, P10). */
  dueDate?: string;
}

/** The cost disclosure of P5, as `/loan/quote` answers and the order keeps. */
export interface Disclosure {
  principal: string;
  processingFee: string;
  netAmount: string;
  interest: string;
  totalRepayable: string;
  perPeriodPayment: string;
  periodDays: number;
  dailyRatePct: string;
  aprPct: string;
  effectiveMonthlyRatePct: string;
  overdueDailyRatePct: string;
  maxTotalCostPct: string;
  coolingOffDays: number;
  schedule: ScheduleLine[];
  lender: Lender;
  notice: string;
}
