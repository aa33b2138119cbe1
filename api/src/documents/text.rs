//! Every fixed text of the documents, in each language they are printed in. `{x}`
//! marks a value put in by the renderer. The start-up font check reads them all
//! ([`Texts::all`]), so a new text is checked as soon as it is added here.

use super::Lang;

macro_rules! texts {
    ($($key:ident: $en:expr, $zh:expr;)*) => {
        /// The texts of one language.
        #[allow(missing_docs)]
        pub struct Texts { $(pub $key: &'static str,)* }

        /// English (also Filipino until the documents have a Filipino translation).
        pub const EN: Texts = Texts { $($key: $en,)* };

        /// Simplified Chinese.
        pub const ZH: Texts = Texts { $($key: $zh,)* };

        impl Texts {
            /// Every text, for the font check.
            pub fn all(&self) -> Vec<&'static str> {
                vec![$(self.$key,)*]
            }
        }
    };
}

texts! {
    // Shared.
    lender: "Lender", "贷款机构";
    registration_no: "Registration No.", "注册号";
    licence_no: "Licence No.", "许可证号";
    notice: "We never ask you to pay to receive a loan.", "我们绝不会要求您付费才能获得贷款。";
    page: "Page {n}", "第 {n} 页";
    generated: "Issued {time}. All times are UTC; amounts in {currency}.", "开具时间 {time}。所有时间均为 UTC（协调世界时）；金额单位：{currency}。";
    order_no: "Order number", "订单号";
    borrower: "Borrower", "借款人";
    product: "Product", "产品";
    days: "{n} days", "{n} 天";
    installment: "Installment", "期数";
    due: "Due", "到期日";
    amount: "Amount", "金额";
    day_after_payout: "Day {n} after payout", "放款后第 {n} 天";
    reason: "Reason", "原因";
    // Contract.
    contract_title: "Loan Contract", "借款合同";
    parties: "Parties", "合同各方";
    disclosure: "Disclosure statement, as signed", "费用披露声明（签署时）";
    principal: "Principal", "本金";
    processing_fee: "Processing fee", "手续费";
    net_amount: "Net amount received", "实际到账金额";
    interest: "Interest", "利息";
    total_repayable: "Total repayable", "应还总额";
    per_period: "Per-installment payment", "每期还款额";
    term: "Term", "期限";
    daily_rate: "Daily interest rate", "日利率";
    apr: "APR (nominal, yearly)", "年化利率（名义）";
    effective_monthly: "Effective monthly rate, fees included", "月实际利率（含费用）";
    overdue_rate: "Overdue fee per installment per day", "每期逾期日费率";
    cost_cap: "Interest and fees never exceed, of principal", "利息与费用合计上限（占本金）";
    cooling_off: "Cooling-off period after payout", "放款后冷静期";
    schedule: "Repayment schedule", "还款计划";
    paid_out: "Loan as paid out", "实际放款";
    paid_out_on: "Paid out on", "放款时间";
    signature: "Signature", "签名";
    signed_at: "Signed at", "签署时间";
    no_signature: "No signature image on file.", "无签名图片。";
    terms_version: "Terms version", "条款版本";
    disclosure_hash: "SHA-256 of the signed disclosure", "已签署披露声明的 SHA-256";
    disclosure_hash_note: "Computed over the disclosure as signed, as canonical JSON (keys sorted, no spaces).", "按签署时的披露声明计算，采用规范 JSON（键名排序，无空格）。";
    // Receipts.
    receipt_title: "Official Receipt", "正式收据";
    refund_title: "Refund Receipt", "退款收据";
    receipt_no: "Receipt number", "收据编号";
    received_from: "Received from", "付款人";
    refunded_to: "Refunded to", "退款给";
    amount_received: "Amount received", "收款金额";
    paid_at: "Paid at", "付款时间";
    channel: "Channel", "渠道";
    channel_online: "Online payment", "在线支付";
    channel_manual: "Bank transfer recorded by a loan officer", "信贷员登记的银行转账";
    payment_ref: "Payment reference", "支付参考号";
    applied: "Applied to the loan", "已用于还款";
    allocation: "Allocation to installments", "各期分配";
    refunded: "Refunded (not owed)", "已退还（非欠款）";
    amount_refunded: "Amount refunded", "退款金额";
    to_account: "To account", "退至账户";
    for_payment: "For payment", "对应付款";
    requested_at: "Requested at", "申请时间";
    status: "Status", "状态";
    refund_sent: "Sent to the bank", "已发往银行";
    refund_paid: "Confirmed by the bank", "银行已确认";
    refund_returned: "Returned by the bank; sent again once the borrower's account is fixed", "被银行退回；借款人更正账户后将重新退款";
    // Statement of account.
    statement_title: "Statement of Account", "账户对账单";
    statement_note: "Every ledger posting of this order. Balance owed: the loan account (principal and interest charged at payout, plus fees, less repayments and waivers) after each posting.", "本订单的每一笔记账。欠款余额：每笔记账后的贷款账户余额（放款时计入的本金和利息，加费用，减还款和减免）。";
    date_utc: "Date (UTC)", "日期（UTC）";
    entry: "Entry", "摘要";
    account: "Account", "账户";
    debit: "Debit", "借方";
    credit: "Credit", "贷方";
    balance_owed: "Balance owed", "欠款余额";
    no_postings: "No postings yet.", "暂无记账。";
    total_charged: "Total charged to the loan", "计入贷款合计";
    total_credited: "Total repaid and waived", "已还及减免合计";
    closing_balance: "Balance owed now", "当前欠款余额";
    total_received: "Payments received", "收到的付款";
    total_refunded: "Refunded to the borrower", "退还借款人";
    // Ledger accounts (projections::ledger).
    acct_lender_cash: "Lender cash", "放款方现金";
    acct_payout_clearing: "Payouts in transit (bank)", "在途放款（银行）";
    acct_payment_clearing: "Payments in transit (provider)", "在途还款（支付机构）";
    acct_interest_income: "Interest income", "利息收入";
    acct_fee_income: "Fee income", "费用收入";
    acct_loan_receivable: "Loan receivable", "应收贷款";
    acct_borrower_wallet: "Borrower's cash held", "借款人钱包";
    // Journal entries (projections::ledger::ENTRY_DESCRIPTIONS).
    entry_payout_sent: "Payout sent to the borrower's bank", "放款已发往借款人银行";
    entry_payout_confirmed: "Payout confirmed: principal and interest receivable, fee earned", "放款已确认：应收本金和利息，收取手续费";
    entry_payout_returned: "Payout returned by the bank", "放款被银行退回";
    entry_repayment: "Repayment", "还款";
    entry_overdue_fee: "Overdue fee", "逾期费";
    entry_closed_waived: "Closed: interest and fees not charged are waived", "结清：未收取的利息和费用予以减免";
    entry_payment_received: "Payment received from the borrower", "收到借款人付款";
    entry_payment_applied: "Payment applied to the loan", "付款已用于还贷";
    entry_refund_sent: "Refund: money not owed sent back to the borrower's bank", "退款：多付款项退回借款人银行";
    entry_refund_confirmed: "Refund confirmed by the bank", "银行确认退款";
    entry_refund_returned: "Refund returned by the bank: the borrower's cash again", "退款被银行退回：重新计入借款人资金";
}

/// The texts of `lang`.
pub fn of(lang: Lang) -> &'static Texts {
    match lang {
        Lang::En => &EN,
        Lang::Zh => &ZH,
    }
}

impl Texts {
    /// The words for a journal entry's code; the stored description when the code is
    /// unknown to this build.
    pub fn entry<'a>(&'a self, code: Option<&str>, description: &'a str) -> &'a str {
        match code {
            Some("payout_sent") => self.entry_payout_sent,
            Some("payout_confirmed") => self.entry_payout_confirmed,
            Some("payout_returned") => self.entry_payout_returned,
            Some("repayment") => self.entry_repayment,
            Some("overdue_fee") => self.entry_overdue_fee,
            Some("closed_waived") => self.entry_closed_waived,
            Some("payment_received") => self.entry_payment_received,
            Some("payment_applied") => self.entry_payment_applied,
            Some("refund_sent") => self.entry_refund_sent,
            Some("refund_confirmed") => self.entry_refund_confirmed,
            Some("refund_returned") => self.entry_refund_returned,
            _ => description,
        }
    }

    /// The words for a ledger account (`loan_receivable:<order>` and
    /// `borrower_wallet:<user>` by their kind); the name itself when unknown.
    pub fn account<'a>(&'a self, account: &'a str) -> &'a str {
        match account.split(':').next().unwrap_or(account) {
            "lender_cash" => self.acct_lender_cash,
            "payout_clearing" => self.acct_payout_clearing,
            "payment_clearing" => self.acct_payment_clearing,
            "interest_income" => self.acct_interest_income,
            "fee_income" => self.acct_fee_income,
            "loan_receivable" => self.acct_loan_receivable,
            "borrower_wallet" => self.acct_borrower_wallet,
            _ => account,
        }
    }
}
