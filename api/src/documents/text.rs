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
    generated: "Issued {time}. Times are {zone} time; amounts in {currency}.", "开具时间 {time}。时间均为 {zone} 时间；金额单位：{currency}。", "Inilabas noong {time}. Ang mga oras ay sa oras ng {zone}; mga halaga sa {currency}.";
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
    amendments: "Changes signed after the payout", "放款后签署的变更", "Mga pagbabagong nilagdaan matapos ang payout";
    amendment_extension: "{time}: repayment period extended by {n} days; interest for them {amount} added to what is owed.", "{time}：还款期延长 {n} 天；这些天的利息 {amount} 计入欠款。", "{time}: pinahaba nang {n} araw ang panahon ng pagbabayad; idinagdag sa utang ang interes para rito na {amount}.";
    amendment_plan: "{time}: payment plan of {n} installments, {amount} in all, replacing the payments then due; overdue fees waived {fees}.", "{time}：还款计划共 {n} 期，合计 {amount}，取代当时未还的各期；减免逾期费用 {fees}。", "{time}: plano ng pagbabayad na {n} hulog, {amount} lahat, kapalit ng mga bayaring dapat noon; tinanggal na multa {fees}.";
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
    // Statement of account (the borrower's movements, issue 52).
    statement_title: "Statement of Account", "账户对账单", "Statement of Account";
    statement_note: "Your loan's movements: what was charged, what you paid and what was credited, with what you owe after each; then every payment and refund with its receipt.", "您这笔贷款的每笔变动：计入的费用、您的还款和减免，以及每笔之后的欠款余额；其后是每笔付款和退款及其收据。", "Mga galaw ng loan mo: ang siningil, ang binayaran mo at ang ibinawas, at ang utang mo matapos ang bawat isa; pagkatapos, bawat bayad at refund kasama ang resibo nito.";
    statement_loan: "Your loan", "您的贷款", "Ang loan mo";
    statement_payments: "Payments and refunds", "付款与退款", "Mga bayad at refund";
    date: "Date", "日期", "Petsa";
    what_happened: "What happened", "事项", "Nangyari";
    charged: "Charged", "计入", "Siningil";
    paid_or_credited: "Paid or credited", "已还或减免", "Nabayaran o ibinawas";
    balance_owed: "You owe after", "之后欠款", "Utang mo pagkatapos";
    no_postings: "Nothing charged yet: the loan has not been paid out.", "尚无计费：贷款尚未发放。", "Wala pang siningil: hindi pa naipapadala ang loan.";
    no_payments: "No payments yet.", "暂无付款。", "Wala pang bayad.";
    movement_payout: "Loan paid out to your bank: principal and interest owed from now", "贷款已发放至您的银行：自此欠本金和利息", "Naipadala ang loan sa bangko mo: utang mo na ang prinsipal at interes";
    movement_repayment: "Payment applied to your loan", "付款已用于还贷", "Inilapat ang bayad sa loan mo";
    movement_overdue_fee: "Overdue fee", "逾期费", "Multa sa pagkaantala";
    movement_overdue_fee_reversed: "Overdue fee taken back: your payment had arrived before those days", "逾期费撤回：您的还款在这些天之前已到账", "Ibinalik ang multa: dumating na ang bayad mo bago ang mga araw na iyon";
    movement_closed_waived: "Loan closed: interest and fees not yet charged are waived", "贷款结清：尚未收取的利息和费用予以减免", "Sarado ang loan: na-waive ang interes at bayaring hindi pa siningil";
    movement_fees_waived: "Overdue fees waived", "逾期费用减免", "Na-waive ang bayarin sa pagkahuli";
    movement_interest_waived: "Interest waived", "利息减免", "Na-waive ang interes";
    movement_extension_interest: "More time: interest for the extra days", "延期：额外天数的利息", "Dagdag na panahon: interes sa mga dagdag na araw";
    payment_applied: "Payment received: {amount} applied to installments {installments}", "收到付款：{amount} 用于第 {installments} 期", "Tinanggap ang bayad: {amount} inilapat sa hulog {installments}";
    payment_not_applied: "Payment received: nothing was owed", "收到付款：当时无欠款", "Tinanggap ang bayad: walang utang noon";
    payment_refunded: "{amount} refunded as not owed", "{amount} 因非欠款而退还", "{amount} ibinalik dahil hindi utang";
    refund_to_bank: "Refund to your bank", "退款至您的银行", "Refund sa bangko mo";
    total_charged: "Total charged to the loan", "计入贷款合计", "Kabuuang siningil sa loan";
    total_credited: "Total repaid and waived", "已还及减免合计", "Kabuuang nabayaran at na-waive";
    closing_balance: "Balance owed now", "当前欠款余额", "Natitirang utang ngayon";
    total_received: "Payments received", "收到的付款", "Mga bayad na tinanggap";
    total_refunded: "Refunded to you", "已退还给您", "Ibinalik sa iyo";
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
    /// A loan-account posting in the borrower's words, by its journal entry's code
    /// (`projections::read_models::ledger::ENTRY_DESCRIPTIONS`); the stored
    /// description when the code is unknown to this build.
    pub fn movement<'a>(&'a self, code: Option<&str>, description: &'a str) -> &'a str {
        match code {
            Some("payout_confirmed") => self.movement_payout,
            Some("repayment") => self.movement_repayment,
            Some("overdue_fee") => self.movement_overdue_fee,
            Some("overdue_fee_reversed") => self.movement_overdue_fee_reversed,
            Some("closed_waived") => self.movement_closed_waived,
            Some("fees_waived") => self.movement_fees_waived,
            Some("interest_waived") => self.movement_interest_waived,
            Some("extension_interest") => self.movement_extension_interest,
            _ => description,
        }
    }
}
