//! The words of the sandbox payment page in each language the app speaks (issue 52):
//! the page opens in the app's language (`?lang=`, else the browser's
//! `Accept-Language`, else English) and keeps it through Pay and Fail. `{lender}` marks
//! the lender's name.

use crate::documents::Lang;

/// The texts of one language (each field names its place on the page).
#[allow(missing_docs)]
pub struct PageTexts {
    pub repayment: &'static str,
    pub to_lender: &'static str,
    pub pay: &'static str,
    pub fail: &'static str,
    pub sandbox: &'static str,
    pub expired_title: &'static str,
    pub expired_text: &'static str,
    pub paid_title: &'static str,
    pub paid_text: &'static str,
    pub failed_title: &'static str,
    pub failed_text: &'static str,
    pub replaced_title: &'static str,
    pub replaced_text: &'static str,
    pub back: &'static str,
    pub not_found_title: &'static str,
    pub not_found_text: &'static str,
    pub not_completed_title: &'static str,
    pub not_completed_text: &'static str,
    pub try_again: &'static str,
    pub notice: &'static str,
}

const EN: PageTexts = PageTexts {
    repayment: "Loan repayment",
    to_lender: "To {lender}",
    pay: "Pay",
    fail: "Fail",
    sandbox: "Sandbox payment page: no real money moves. Pay simulates a successful payment, Fail a declined one.",
    expired_title: "Payment page expired",
    expired_text: "This page could be paid for 30 minutes. Nothing was charged and your loan is unchanged. You can start a new repayment from the app.",
    paid_title: "Payment received",
    paid_text: "Thank you. The payment is applied to your loan; your repayment schedule updates in a moment.",
    failed_title: "Payment failed",
    failed_text: "Nothing was charged and your loan is unchanged. You can start a new repayment from the app.",
    replaced_title: "Replaced by a newer payment page",
    replaced_text: "You opened a newer payment page for this loan, so this one can no longer be paid. Nothing was charged here; pay on the newer page.",
    back: "Back to repayment details",
    not_found_title: "Payment not found",
    not_found_text: "This payment link is not valid.",
    not_completed_title: "Not completed",
    not_completed_text: "The payment could not be recorded, and nothing was charged. Please try again.",
    try_again: "Try again",
    notice: aggregates::pricing::Lender::NOTICE,
};

const ZH: PageTexts = PageTexts {
    repayment: "贷款还款",
    to_lender: "收款方：{lender}",
    pay: "付款",
    fail: "失败",
    sandbox: "沙盒付款页：不会发生真实资金往来。“付款”模拟付款成功，“失败”模拟付款被拒。",
    expired_title: "付款页已过期",
    expired_text:
        "此页面仅在 30 分钟内可付款。未扣任何款项，您的贷款没有变化。您可以在应用中重新发起还款。",
    paid_title: "已收到付款",
    paid_text: "谢谢。该笔付款已用于您的贷款，还款计划稍后更新。",
    failed_title: "付款失败",
    failed_text: "未扣任何款项，您的贷款没有变化。您可以在应用中重新发起还款。",
    replaced_title: "已被新的付款页取代",
    replaced_text:
        "您已为这笔贷款打开了新的付款页，此页面不能再付款。此处未扣任何款项，请在新页面付款。",
    back: "返回还款详情",
    not_found_title: "找不到该付款",
    not_found_text: "此付款链接无效。",
    not_completed_title: "未完成",
    not_completed_text: "付款未能记录，未扣任何款项。请重试。",
    try_again: "重试",
    notice: "我们绝不会要求您付费才能获得贷款。",
};

const FIL: PageTexts = PageTexts {
    repayment: "Pagbabayad ng loan",
    to_lender: "Para sa {lender}",
    pay: "Magbayad",
    fail: "Ibagsak",
    sandbox: "Sandbox na pahina ng bayad: walang totoong perang gumagalaw. Ang Magbayad ay ginagaya ang matagumpay na bayad, ang Ibagsak ang tinanggihan.",
    expired_title: "Nag-expire ang pahina ng bayad",
    expired_text: "Puwedeng bayaran ang pahinang ito sa loob ng 30 minuto. Walang siningil at walang nagbago sa loan mo. Puwede kang magsimula ng bagong bayad sa app.",
    paid_title: "Natanggap ang bayad",
    paid_text: "Salamat. Inilapat ang bayad sa loan mo; maa-update ang iskedyul ng bayad mo maya-maya.",
    failed_title: "Hindi natuloy ang bayad",
    failed_text: "Walang siningil at walang nagbago sa loan mo. Puwede kang magsimula ng bagong bayad sa app.",
    replaced_title: "Pinalitan ng mas bagong pahina ng bayad",
    replaced_text: "Nagbukas ka ng mas bagong pahina ng bayad para sa loan na ito, kaya hindi na mababayaran ang isang ito. Walang siningil dito; magbayad sa mas bagong pahina.",
    back: "Bumalik sa detalye ng bayad",
    not_found_title: "Hindi makita ang bayad",
    not_found_text: "Hindi valid ang link ng bayad na ito.",
    not_completed_title: "Hindi natapos",
    not_completed_text: "Hindi naitala ang bayad, at walang siningil. Pakisubukang muli.",
    try_again: "Subukang muli",
    notice: "Hindi kami kailanman humihingi ng bayad para matanggap mo ang loan.",
};

/// The texts of `lang`.
pub fn of(lang: Lang) -> &'static PageTexts {
    match lang {
        Lang::En => &EN,
        Lang::Zh => &ZH,
        Lang::Fil => &FIL,
    }
}
