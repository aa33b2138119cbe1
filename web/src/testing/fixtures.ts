/** Wire-shaped test data (PRODUCT.md 10). */
import type { CompanyConfig, Disclosure, Order, User } from '@/lib/api-types';

export function userFixture(options: { qualified?: boolean; signatureImg?: string | null } = {}): User {
  const q = options.qualified ?? true;
  return {
    userId: 'u1',
    mobile: '09171234567',
    realName: 'Ana Cruz',
    identity: '123456789',
    sex: 2,
    birthday: '1990-05-01',
    marriage: 'Single',
    email: 'ana@example.ph',
    facebook: null,
    education: 'College',
    provinceCity: 'National Capital Region (NCR),,City of Manila',
    address: '1 Rizal St',
    bankName: q ? 'BDO Unibank' : null,
    cardNo: q ? '********5678' : null,
    job: 'Teacher',
    monthlyIncome: '30000',
    expenses: '10000',
    loanPurpose: 'School fees',
    loanBefore: false,
    guarantee: false,
    signatureImg: options.signatureImg ?? null,
    idImages: null,
    lastOrderId: null,
    hasWithdrawPin: false,
    identityRejectReason: null,
    lock: null,
    userQualificationView: { identity: q ? 1 : 0, basicInformation: q ? 1 : 0, bankCard: q ? 1 : 0 },
    inviteCode: 'WELCOME',
    privacyNotice: null,
    resubmissionItems: null,
    creditScore: null,
  };
}

export const disclosureFixture: Disclosure = {
  principal: '100000.00',
  processingFee: '0.00',
  netAmount: '100000.00',
  interest: '2400.00',
  totalRepayable: '102400.00',
  perPeriodPayment: '4266.67',
  periodDays: 24,
  dailyRatePct: '0.1',
  // The IRR of the schedule against the net amount, compounded (pricing::effective_rate).
  aprPct: '100.38',
  effectiveMonthlyRatePct: '5.88',
  overdueDailyRatePct: '0',
  maxTotalCostPct: '100',
  coolingOffDays: 7,
  schedule: [
    { period: 1, amount: '4266.67' },
    { period: 24, amount: '4266.59' },
  ],
  lender: { legal_name: 'Honest Lending Corporation', registration_no: 'CS201912345', licence_no: 'SEC CA No. 3120' },
  notice: 'We never ask you to pay to receive a loan.',
};

/** An approved order (status 9) as `/loan/orderInfo` answers it (checked against the api). */
export function orderFixture(overrides: Partial<Order> = {}): Order {
  return {
    orderId: 'o1',
    orderNo: '',
    userId: 'u1',
    appId: 1,
    productName: 'Cash Loan',
    status: 9,
    principal: '80000.00',
    applyAmount: '80000.00',
    applyTime: '2026-11-22T06:41:31.346712Z',
    rate: '0.2',
    apr: '73',
    periodDays: 6,
    balance: '80000.00',
    realName: 'Ana Cruz',
    lastWithdrawAmount: null,
    interest: '960.00',
    totalRepay: '80960.00',
    repaid: '0.00',
    remaining: '0.00',
    interestWaived: null,
    paidAt: null,
    offerExpiresAt: '2026-11-29T06:41:31.664550Z',
    refuseReason: null,
    resubmissionReason: null,
    lastWithdrawError: null,
    payoutInFlight: false,
    disclosure: null,
    periodViews: [],
    resubmissionItems: [],
    ...overrides,
  };
}

/** `/loan/getAllCompanyConfigs` with what every lender has, and `overrides`. */
export function companyConfigFixture(overrides: Partial<CompanyConfig> = {}): CompanyConfig {
  return {
    translations: {},
    lender: disclosureFixture.lender,
    currency: { code: 'PHP', symbol: '₱', locale: 'en-PH' },
    notice: disclosureFixture.notice,
    privacyNoticeVersion: '2026-11',
    demo: false,
    inviteCodeRequired: true,
    receivingAccounts: [],
    ...overrides,
  };
}
