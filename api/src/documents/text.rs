//! Every fixed text of the documents, in each language they are printed in. `{x}`
//! marks a value put in by the renderer. The start-up font check reads them all
//! ([`Texts::all`]), so a new text is checked as soon as it is added here.

use super::Lang;

macro_rules! texts {
    ($($key:ident: $en:expr, $zh:expr, $fil:expr;)*) => {
        /// The texts of one language.
        #[allow(missing_docs)]
        pub struct Texts { $(pub $key: &'static str,)* }

        /// English.
        pub const EN: Texts = Texts { $($key: $en,)* };

        /// Simplified Chinese.
        pub const ZH: Texts = Texts { $($key: $zh,)* };

        /// Filipino.
        pub const FIL: Texts = Texts { $($key: $fil,)* };

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
    lender: "Lender", "贷款机构", "Nagpapautang";
    registration_no: "Registration No.", "注册号", "Numero ng Rehistro";
    licence_no: "Licence No.", "许可证号", "Numero ng Lisensya";
    notice: "We never ask you to pay to receive a loan.", "我们绝不会要求您付费才能获得贷款。", "Hindi kami kailanman humihingi ng bayad para matanggap mo ang loan.";
    page: "Page {n}", "第 {n} 页", "Pahina {n}";
    generated: "Issued {time}. All times are UTC; amounts in {currency}.", "开具时间 {time}。所有时间均为 UTC（协调世界时）；金额单位：{currency}。", "Inilabas noong {time}. Lahat ng oras ay UTC; mga halaga sa {currency}.";
    order_no: "Order number", "订单号", "Numero ng order";
    borrower: "Borrower", "借款人", "Nanghihiram";
    product: "Product", "产品", "Produkto";
    days: "{n} days", "{n} 天", "{n} araw";
    installment: "Installment", "期数", "Hulog";
    due: "Due", "到期日", "Takdang petsa";
    amount: "Amount", "金额", "Halaga";
    day_after_payout: "Day {n} after payout", "放款后第 {n} 天", "Ika-{n} araw mula sa payout";
    reason: "Reason", "原因", "Dahilan";
    // Contract.
    contract_title: "Loan Contract", "借款合同", "Kontrata ng Pautang";
    parties: "Parties", "合同各方", "Mga Partido";
    disclosure: "Disclosure statement, as signed", "费用披露声明（签署时）", "Pahayag ng pagsisiwalat, gaya ng nilagdaan";
    principal: "Principal", "本金", "Prinsipal";
    processing_fee: "Processing fee", "手续费", "Bayad sa pagproseso";
    net_amount: "Net amount received", "实际到账金额", "Netong halagang matatanggap";
    interest: "Interest", "利息", "Interes";
    total_repayable: "Total repayable", "应还总额", "Kabuuang babayaran";
    per_period: "Per-installment payment", "每期还款额", "Bayad sa bawat hulog";
    term: "Term", "期限", "Termino";
    daily_rate: "Daily interest rate", "日利率", "Arawang interes";
    apr: "APR (effective, fees included)", "年化实际利率（含费用）", "APR (epektibo, kasama ang mga bayarin)";
    effective_monthly: "Effective monthly rate, fees included", "月实际利率（含费用）", "Epektibong buwanang rate, kasama ang mga bayarin";
    rate_note: "Effective rates are the internal rate of return of the payments against the net amount received, compounded daily (BSP Circular No. 730).", "实际利率为各期还款相对于实际到账金额的内部收益率，按日复利计算（菲律宾央行第730号通函）。", "Ang epektibong rate ay ang internal rate of return ng mga bayad laban sa netong halagang natanggap, compounded araw-araw (BSP Circular No. 730).";
    overdue_rate: "Overdue fee per installment per day", "每期逾期日费率", "Multa sa pagkaantala bawat hulog bawat araw";
    cost_cap: "Interest and fees never exceed, of principal", "利息与费用合计上限（占本金）", "Hindi lalampas ang interes at mga bayarin, bahagi ng prinsipal";
    cooling_off: "Cooling-off period after payout", "放款后冷静期", "Cooling-off period matapos ang payout";
    schedule: "Repayment schedule", "还款计划", "Iskedyul ng pagbabayad";
    paid_out: "Loan as paid out", "实际放款", "Ang loan gaya ng naipadala";
    paid_out_on: "Paid out on", "放款时间", "Naipadala noong";
    signature: "Signature", "签名", "Lagda";
    signed_at: "Signed at", "签署时间", "Nilagdaan noong";
    no_signature: "No signature image on file.", "无签名图片。", "Walang nakatalang larawan ng lagda.";
    terms_version: "Terms version", "条款版本", "Bersyon ng mga tuntunin";
    disclosure_hash: "SHA-256 of the signed disclosure", "已签署披露声明的 SHA-256", "SHA-256 ng nilagdaang pagsisiwalat";
    disclosure_hash_note: "Computed over the disclosure as signed, as canonical JSON (keys sorted, no spaces).", "按签署时的披露声明计算，采用规范 JSON（键名排序，无空格）。", "Kinuwenta mula sa pagsisiwalat gaya ng nilagdaan, bilang canonical JSON (nakaayos ang mga key, walang espasyo).";
    // Receipts.
    receipt_title: "Official Receipt", "正式收据", "Opisyal na Resibo";
    refund_title: "Refund Receipt", "退款收据", "Resibo ng Refund";
    receipt_no: "Receipt number", "收据编号", "Numero ng resibo";
    received_from: "Received from", "付款人", "Tinanggap mula kay";
    refunded_to: "Refunded to", "退款给", "Ibinalik kay";
    amount_received: "Amount received", "收款金额", "Halagang tinanggap";
    paid_at: "Paid at", "付款时间", "Binayaran noong";
    channel: "Channel", "渠道", "Paraan";
    channel_online: "Online payment", "在线支付", "Online na bayad";
    channel_manual: "Bank transfer recorded by a loan officer", "信贷员登记的银行转账", "Bank transfer na itinala ng loan officer";
    payment_ref: "Payment reference", "支付参考号", "Reference ng bayad";
    applied: "Applied to the loan", "已用于还款", "Inilapat sa loan";
    allocation: "Allocation to installments", "各期分配", "Paghahati sa mga hulog";
    refunded: "Refunded (not owed)", "已退还（非欠款）", "Ibinalik (hindi utang)";
    amount_refunded: "Amount refunded", "退款金额", "Halagang ibinalik";
    to_account: "To account", "退至账户", "Sa account";
    for_payment: "For payment", "对应付款", "Para sa bayad";
    requested_at: "Requested at", "申请时间", "Hiniling noong";
    status: "Status", "状态", "Katayuan";
    refund_sent: "Sent to the bank", "已发往银行", "Naipadala sa bangko";
    refund_paid: "Confirmed by the bank", "银行已确认", "Kinumpirma ng bangko";
    refund_returned: "Returned by the bank; sent again once the borrower's account is fixed", "被银行退回；借款人更正账户后将重新退款", "Ibinalik ng bangko; muling ipapadala kapag naayos na ang account ng nanghihiram";
    // Statement of account.
    statement_title: "Statement of Account", "账户对账单", "Statement of Account";
    statement_note: "Every ledger posting of this order. Balance owed: the loan account (principal and interest charged at payout, plus fees, less repayments and waivers) after each posting.", "本订单的每一笔记账。欠款余额：每笔记账后的贷款账户余额（放款时计入的本金和利息，加费用，减还款和减免）。", "Bawat posting sa ledger ng order na ito. Natitirang utang: ang loan account (prinsipal at interes na siningil sa payout, dagdag ang mga bayarin, bawas ang mga bayad at waiver) matapos ang bawat posting.";
    date_utc: "Date (UTC)", "日期（UTC）", "Petsa (UTC)";
    entry: "Entry", "摘要", "Entry";
    account: "Account", "账户", "Account";
    debit: "Debit", "借方", "Debit";
    credit: "Credit", "贷方", "Credit";
    balance_owed: "Balance owed", "欠款余额", "Natitirang utang";
    no_postings: "No postings yet.", "暂无记账。", "Wala pang posting.";
    total_charged: "Total charged to the loan", "计入贷款合计", "Kabuuang siningil sa loan";
    total_credited: "Total repaid and waived", "已还及减免合计", "Kabuuang nabayaran at na-waive";
    closing_balance: "Balance owed now", "当前欠款余额", "Natitirang utang ngayon";
    total_received: "Payments received", "收到的付款", "Mga bayad na tinanggap";
    total_refunded: "Refunded to the borrower", "退还借款人", "Ibinalik sa nanghihiram";
    // Ledger accounts (projections::read_models::ledger).
    acct_lender_cash: "Lender cash", "放款方现金", "Cash ng nagpapautang";
    acct_payout_clearing: "Payouts in transit (bank)", "在途放款（银行）", "Mga payout na nasa biyahe (bangko)";
    acct_payment_clearing: "Payments in transit (provider)", "在途还款（支付机构）", "Mga bayad na nasa biyahe (provider)";
    acct_interest_income: "Interest income", "利息收入", "Kita sa interes";
    acct_fee_income: "Fee income", "费用收入", "Kita sa bayarin";
    acct_loan_receivable: "Loan receivable", "应收贷款", "Loan na sisingilin";
    acct_borrower_wallet: "Borrower's cash held", "借款人钱包", "Perang hawak para sa nanghihiram";
    // Journal entries (projections::read_models::ledger::ENTRY_DESCRIPTIONS).
    entry_payout_sent: "Payout sent to the borrower's bank", "放款已发往借款人银行", "Naipadala ang payout sa bangko ng nanghihiram";
    entry_payout_confirmed: "Payout confirmed: principal and interest receivable, fee earned", "放款已确认：应收本金和利息，收取手续费", "Kumpirmado ang payout: sisingilin ang prinsipal at interes, kinita ang bayarin";
    entry_payout_returned: "Payout returned by the bank", "放款被银行退回", "Ibinalik ng bangko ang payout";
    entry_repayment: "Repayment", "还款", "Bayad sa loan";
    entry_overdue_fee: "Overdue fee", "逾期费", "Multa sa pagkaantala";
    entry_overdue_fee_reversed: "Overdue fee taken back: the payment had arrived before those days", "逾期费撤回：还款在这些天之前已到账", "Ibinalik ang multa: dumating na ang bayad bago ang mga araw na iyon";
    entry_closed_waived: "Closed: interest and fees not charged are waived", "结清：未收取的利息和费用予以减免", "Sarado: na-waive ang interes at bayaring hindi siningil";
    entry_payment_received: "Payment received from the borrower", "收到借款人付款", "Tinanggap ang bayad mula sa nanghihiram";
    entry_payment_applied: "Payment applied to the loan", "付款已用于还贷", "Inilapat ang bayad sa loan";
    entry_refund_sent: "Refund: money not owed sent back to the borrower's bank", "退款：多付款项退回借款人银行", "Refund: ibinalik sa bangko ng nanghihiram ang perang hindi utang";
    entry_refund_confirmed: "Refund confirmed by the bank", "银行确认退款", "Kinumpirma ng bangko ang refund";
    entry_refund_returned: "Refund returned by the bank: the borrower's cash again", "退款被银行退回：重新计入借款人资金", "Ibinalik ng bangko ang refund: muling pera ng nanghihiram";
}

/// The texts of `lang`.
pub fn of(lang: Lang) -> &'static Texts {
    match lang {
        Lang::En => &EN,
        Lang::Zh => &ZH,
        Lang::Fil => &FIL,
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
            Some("overdue_fee_reversed") => self.entry_overdue_fee_reversed,
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
