//! Simulated borrowers: set-up over HTTP (registration to PIN, identity verified by an
//! auditor), and the loan cycle the command mix runs: apply → start review → pass first
//! (auditor A) → pass final (auditor B, four eyes) → withdraw (PIN) → recharge → pay →
//! repaid → apply again (PRODUCT.md 4.3). With an SMS inbox (the fault run), a
//! borrower also replaces its bank account between loans, with the code the api sent.

use std::time::{Duration, Instant};

use rust_decimal::Decimal;
use serde::Serialize;
use serde_json::{json, Value};

use crate::client::{Api, Transport};
use crate::stats::Stats;

/// A 1×1 PNG (the ID photos and the signature; the api re-encodes them).
pub const PNG: [u8; 70] = [
    137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0,
    0, 0, 31, 21, 196, 137, 0, 0, 0, 13, 73, 68, 65, 84, 120, 218, 99, 100, 96, 248, 95, 15, 0, 2,
    135, 1, 128, 235, 71, 186, 146, 0, 0, 0, 0, 73, 69, 78, 68, 174, 66, 96, 130,
];
/// The same PNG as a data URL (the signature call takes one).
const PNG_URL: &str = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
/// Every simulated borrower's withdraw PIN.
pub const PIN: &str = "246810";

/// Two logged-in auditors: the first review and the final review need different
/// people (four eyes).
#[derive(Clone)]
pub struct Auditors {
    /// Starts reviews, verifies identities, passes first reviews.
    pub first: String,
    /// Passes final reviews.
    pub second: String,
}

impl Auditors {
    /// Logs in `first` and `second` (`username:password` each).
    pub async fn login(api: &Api, first: &str, second: &str) -> Result<Self, String> {
        let login = |who: String| async move {
            let (username, password) = who.split_once(':').ok_or("auditor as name:password")?;
            let body = json!({"username": username, "password": password});
            let answer = api
                .call("/admin/api/login", None, &body, "10.255.0.1")
                .await
                .map_err(|e| e.to_string())?;
            answer.data()["token"]
                .as_str()
                .map(str::to_string)
                .ok_or(format!("auditor login refused: {}", answer.msg))
        };
        Ok(Self {
            first: login(first.to_string()).await?,
            second: login(second.to_string()).await?,
        })
    }
}

/// The next call a borrower's loan needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Ask the server where the loan stands (after a worker-driven transition, or
    /// after the api was down).
    Refresh,
    /// `/jackey/loan/apply`.
    Apply,
    /// `/admin/api/orders/startReview` (auditor A).
    StartReview,
    /// `/admin/api/orders/passFirst` (auditor A).
    PassFirst,
    /// `/admin/api/orders/passFinal` (auditor B).
    PassFinal,
    /// `/jackey/user/withdraw`.
    Withdraw,
    /// `/jackey/loan/recharge`.
    Recharge,
    /// Pay on the sandbox page opened by the recharge.
    Pay,
    /// `/jackey/sms/bank`, then `/jackey/user/bank/binding` with the code (between
    /// loans, when the borrower has an SMS inbox).
    ChangeBank,
}

/// Where a borrower reads the SMS codes the api sends it: the default sender's
/// `sms_outbox` table on the store the api writes (PostgreSQL).
#[derive(Clone)]
pub struct SmsInbox(pub sqlx::PgPool);

impl SmsInbox {
    /// The code in the newest message to `mobile` (`Your verification code is NNNNNN.`).
    async fn last_code(&self, mobile: &str) -> Option<String> {
        let sql = "select body from sms_outbox where mobile = $1 order by created_at desc limit 1";
        let body: String = sqlx::query_scalar(sql)
            .bind(mobile)
            .fetch_optional(&self.0)
            .await
            .ok()??;
        let code: String = body.chars().filter(char::is_ascii_digit).take(6).collect();
        (code.len() == 6).then_some(code)
    }
}

/// A borrower's bank account changes (PRODUCT.md 12: an SMS code replaces a bound
/// account; never while a loan is active, P3).
pub struct BankChanges {
    inbox: SmsInbox,
    /// The last change tried: the api sends one code per phone and purpose a minute.
    last_try: Option<Instant>,
    /// How many changes succeeded (the next account number derives from it).
    changed: u32,
}

impl BankChanges {
    /// Changes read their codes from `inbox`.
    pub fn new(inbox: SmsInbox) -> Self {
        Self {
            inbox,
            last_try: None,
            changed: 0,
        }
    }

    /// Whether a change is due (none tried in the last 61 s).
    fn due(&self) -> bool {
        self.last_try
            .is_none_or(|at| at.elapsed() > Duration::from_secs(61))
    }
}

/// One simulated borrower.
pub struct Borrower {
    /// The session token.
    pub token: String,
    /// The user id.
    pub user_id: String,
    /// The phone number.
    pub mobile: String,
    /// Bank account changes between loans, when it can read its SMS codes.
    pub bank_changes: Option<BankChanges>,
    /// The address it appears to come from (`X-Forwarded-For`).
    pub ip: String,
    /// The current order.
    pub order_id: Option<String>,
    /// The payment page opened by the last recharge.
    pub pay_url: Option<String>,
    /// What to do next.
    pub step: Step,
    /// The state a worker must bring the loan to before the next step (read from
    /// `getLoanProgress`), after a command whose effect a worker completes.
    pub awaiting: Option<Awaiting>,
    /// Not before this moment (a worker is still busy with this loan): the client
    /// turns to its other borrowers meanwhile instead of asking again at once.
    pub not_before: Option<Instant>,
}

/// A loan state that a background worker brings about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Awaiting {
    /// Approved and credited: status 9 with a balance (the loan process credits it).
    Credited,
    /// Paid out: status 4 (the payout worker).
    Disbursed,
    /// Repaid: status 10 (the loan process applies the payment).
    Repaid,
}

/// A command that got a success answer, for the fault run's check.
#[derive(Debug, Clone, Serialize)]
pub struct Done {
    /// The call (`apply`, `startReview`, …, `recharge`, `pay`).
    pub kind: &'static str,
    /// The borrower.
    pub user_id: String,
    /// The order it acted on.
    pub order_id: String,
    /// The payment session (`recharge`, `pay`).
    pub session_id: Option<String>,
    /// The account number bound (`changeBank`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub account_no: Option<String>,
}

/// How much each loan is: the product's minimum (PRODUCT.md demo configuration),
/// and a drawdown that one payment (at most 20,000) repays within cooling-off.
pub const APPLY_AMOUNT: &str = "80000";
/// The drawdown of each loan.
pub const WITHDRAW_AMOUNT: &str = "10000";

impl Borrower {
    /// Registers `mobile` and takes it to the point of applying: ID photos, profile,
    /// bank account, questionnaire, signature, PIN, identity verified by `auditors`.
    pub async fn register(api: &Api, auditors: &Auditors, mobile: String) -> Result<Self, String> {
        let ip = format!(
            "10.{}.{}.{}",
            rand::random::<u8>(),
            rand::random::<u8>(),
            rand::random::<u8>()
        );
        let must = crate::client::data_of;
        let first_account = account_no(&mobile, 0);
        let sms_code = api
            .register_code(&mobile, &ip)
            .await
            .ok_or_else(|| format!("register: no SMS code for {mobile}"))?;
        // The registration screen shows the privacy notice of the company settings and
        // sends the version accepted (PRODUCT.md 12.6).
        let settings = must(
            "company settings",
            api.call("/jackey/loan/getAllCompanyConfigs", None, &json!({}), &ip)
                .await,
        )?;
        let notice = settings["privacyNoticeVersion"].clone();
        let body = json!({"mobile": mobile, "password": "secret-pass", "smsCode": sms_code, "telemarketingCode": "WELCOME", "installationSource": "web", "platform": "h5", "privacyNoticeVersion": notice});
        let registered = must(
            "register",
            api.call("/jackey/user/register", None, &body, &ip).await,
        )?;
        let token = registered["token"].as_str().unwrap_or_default().to_string();
        let t = Some(token.as_str());
        let info = must(
            "info",
            api.call("/jackey/user/info", t, &json!({}), &ip).await,
        )?;
        let user_id = info["userId"].as_str().unwrap_or_default().to_string();
        must("identity", api.upload_identity(&token, &PNG).await)?;
        let calls = [
            ("/jackey/user/update", profile(&mobile)),
            (
                "/jackey/user/bank/binding",
                // Never ending in 0000: the sandbox fails payouts to such accounts.
                json!({"bankName": "BDO Unibank", "cardNo": first_account}),
            ),
            ("/jackey/user/update", questionnaire()),
            ("/jackey/user/signatureImg/upload", json!({"img": PNG_URL})),
            ("/jackey/user/withdrawPin", json!({"pin": PIN})),
        ];
        for (path, body) in calls {
            must(path, api.call(path, t, &body, &ip).await)?;
        }
        must(
            "verifyIdentity",
            api.call(
                "/admin/api/users/verifyIdentity",
                Some(&auditors.first),
                &json!({ "userId": user_id }),
                &ip,
            )
            .await,
        )?;
        Ok(Self {
            token,
            user_id,
            mobile,
            bank_changes: None,
            ip,
            order_id: None,
            pay_url: None,
            step: Step::Refresh,
            awaiting: None,
            not_before: None,
        })
    }

    /// Takes the next step of the loan cycle. Returns the command that succeeded, if
    /// one did; `Ok(None)` when the loan is waiting for a worker (approval credit,
    /// payout, repayment) or the call was refused; `Err` when the api did not answer.
    pub async fn advance(
        &mut self,
        api: &Api,
        auditors: &Auditors,
        stats: &mut Stats,
    ) -> Result<Option<Done>, Transport> {
        if self
            .not_before
            .is_some_and(|moment| Instant::now() < moment)
        {
            return Ok(None);
        }
        let t = Some(self.token.as_str());
        let order = json!({ "orderId": self.order_id });
        let (kind, outcome) = match self.step {
            Step::Refresh => {
                let answer = api
                    .call("/jackey/loan/getLoanProgress", t, &json!({}), &self.ip)
                    .await?;
                self.step = self.after_progress(&answer.data());
                return Ok(None);
            }
            Step::Apply => {
                let body = json!({"amt": APPLY_AMOUNT, "periodDays": 6, "appId": 1, "configId": 1});
                // One key per loan cycle (after the previous order), kept across retries.
                let key = format!("apply-after-{}", self.order_id.as_deref().unwrap_or("none"));
                let outcome = api
                    .call_with_key("/jackey/loan/apply", t, &body, &self.ip, Some(&key))
                    .await;
                ("apply", outcome)
            }
            Step::StartReview => {
                let path = "/admin/api/orders/startReview";
                let outcome = api
                    .call(path, Some(&auditors.first), &order, &self.ip)
                    .await;
                ("startReview", outcome)
            }
            Step::PassFirst => {
                let body = json!({"orderId": self.order_id, "note": "documents match"});
                let path = "/admin/api/orders/passFirst";
                (
                    "passFirst",
                    api.call(path, Some(&auditors.first), &body, &self.ip).await,
                )
            }
            Step::PassFinal => {
                let body = json!({"orderId": self.order_id, "note": "approved"});
                let path = "/admin/api/orders/passFinal";
                (
                    "passFinal",
                    api.call(path, Some(&auditors.second), &body, &self.ip)
                        .await,
                )
            }
            Step::Withdraw => {
                let body = json!({"password": PIN, "withdrawAmount": WITHDRAW_AMOUNT, "bankcard": "x", "loanOrderId": self.order_id});
                let key = format!("withdraw-{}", self.order_id.as_deref().unwrap_or("none"));
                (
                    "withdraw",
                    api.call_with_key("/jackey/user/withdraw", t, &body, &self.ip, Some(&key))
                        .await,
                )
            }
            Step::Recharge => {
                let body = json!({ "amt": WITHDRAW_AMOUNT });
                let key = format!("recharge-{}", self.order_id.as_deref().unwrap_or("none"));
                (
                    "recharge",
                    api.call_with_key("/jackey/loan/recharge", t, &body, &self.ip, Some(&key))
                        .await,
                )
            }
            Step::Pay => {
                let url = self.pay_url.clone().unwrap_or_default();
                ("pay", api.pay(&url).await)
            }
            Step::ChangeBank => ("changeBank", self.change_bank(api).await),
        };
        if let Err(error) = &outcome {
            stats.record(kind, Err(error.clone()));
            // The api may have restarted: ask where the loan stands before going on.
            self.step = Step::Refresh;
            return Err(error.clone());
        }
        // Applying right after a repayment can race the loan process closing the
        // application on the user (40005 until it has): not a refusal, just not yet.
        if kind == "apply" && outcome.as_ref().is_ok_and(|a| a.code == 40005) {
            stats.not_ready += 1;
            self.not_before = Some(Instant::now() + Duration::from_millis(20));
            return Ok(None);
        }
        let Some(answer) = stats.record(kind, outcome) else {
            self.step = Step::Refresh;
            return Ok(None);
        };
        let mut session_id = None;
        self.step = match self.step {
            Step::Apply => {
                self.order_id = answer.data()["loanOrderId"].as_str().map(str::to_string);
                Step::StartReview
            }
            Step::StartReview => Step::PassFirst,
            Step::PassFirst => Step::PassFinal,
            Step::PassFinal => self.wait_for(Awaiting::Credited),
            Step::Withdraw => self.wait_for(Awaiting::Disbursed),
            Step::Pay => self.wait_for(Awaiting::Repaid),
            Step::Recharge => {
                let url = answer.data().as_str().unwrap_or_default().to_string();
                session_id = url.rsplit('/').next().map(str::to_string);
                self.pay_url = Some(url);
                Step::Pay
            }
            Step::ChangeBank | Step::Refresh => Step::Refresh,
        };
        if kind == "pay" {
            session_id = self
                .pay_url
                .as_deref()
                .and_then(|url| url.rsplit('/').next())
                .map(str::to_string);
        }
        let account_no = (kind == "changeBank").then(|| {
            let changes = self.bank_changes.as_mut().expect("a change has its inbox");
            changes.changed += 1;
            account_no(&self.mobile, changes.changed)
        });
        Ok(Some(Done {
            kind,
            user_id: self.user_id.clone(),
            order_id: self.order_id.clone().unwrap_or_default(),
            session_id,
            account_no,
        }))
    }

    /// Asks for a bank code, reads it from the inbox and binds the next account with
    /// it. A refusal of either call is the outcome (the code's request is limited to
    /// one a minute, so the change is not tried again before then).
    async fn change_bank(&mut self, api: &Api) -> Result<crate::client::Answer, Transport> {
        let changes = self.bank_changes.as_mut().expect("a change has its inbox");
        changes.last_try = Some(Instant::now());
        let next = account_no(&self.mobile, changes.changed + 1);
        let t = Some(self.token.as_str());
        let sent = api
            .call(
                "/jackey/sms/bank",
                t,
                &json!({ "mobile": self.mobile }),
                &self.ip,
            )
            .await?;
        if !sent.ok() {
            return Ok(sent);
        }
        let code = changes.inbox.last_code(&self.mobile).await;
        let body = json!({"bankName": "BDO Unibank", "cardNo": next, "smsCode": code});
        api.call("/jackey/user/bank/binding", t, &body, &self.ip)
            .await
    }

    /// Waits (refreshing) until the loan reaches `state`.
    fn wait_for(&mut self, state: Awaiting) -> Step {
        self.awaiting = Some(state);
        Step::Refresh
    }

    /// The step that `getLoanProgress`'s data calls for; `Refresh` again while a
    /// worker still has to act.
    fn after_progress(&mut self, progress: &Value) -> Step {
        if progress.is_null() {
            self.awaiting = None;
            return Step::Apply;
        }
        if let Some(order_id) = progress["orderId"].as_str() {
            self.order_id = Some(order_id.to_string());
        }
        let balance: Decimal = progress["balance"]
            .as_str()
            .and_then(|b| b.parse().ok())
            .unwrap_or_default();
        let status = progress["status"].as_i64().unwrap_or(-1);
        let reached = match self.awaiting {
            None => true,
            Some(Awaiting::Credited) => status == 9 && balance > Decimal::ZERO,
            Some(Awaiting::Disbursed) => status == 4,
            Some(Awaiting::Repaid) => status == 10,
        };
        if !reached {
            self.not_before = Some(Instant::now() + Duration::from_millis(10));
            return Step::Refresh;
        }
        self.awaiting = None;
        match status {
            0 => Step::StartReview,
            1 => Step::PassFirst,
            3 => Step::PassFinal,
            // Approved: withdrawable once the approval credit reached the balance; a
            // requested payout leaves 9 only when the payout worker is done.
            9 if balance > Decimal::ZERO => Step::Withdraw,
            4 => Step::Recharge,
            // Between loans: replace the bank account when a change is due.
            5 | 10 | 11 | 12 | 13 if self.bank_changes.as_ref().is_some_and(BankChanges::due) => {
                Step::ChangeBank
            }
            5 | 10 | 11 | 12 | 13 => Step::Apply,
            _ => Step::Refresh,
        }
    }
}

/// The `n`th account number of `mobile` (0: the one bound at registration); never
/// ending in 0000, for which the sandbox fails payouts.
fn account_no(mobile: &str, n: u32) -> String {
    format!("7{}{}1", &mobile[2..], n % 10)
}

/// The profile of `/jackey/user/update`; the ID number and e-mail derive from the
/// phone number (one account at most may hold each).
fn profile(mobile: &str) -> Value {
    json!({
        "realName": "Bench Borrower",
        "identity": format!("5{}", &mobile[1..]),
        "sex": 2,
        "birthday": "1995-03-14",
        "marriage": "Single",
        "email": format!("b{mobile}@example.ph"),
        "education": "College",
        "provinceCity": "National Capital Region (NCR),,Quezon City",
        "address": "12 Mabini St",
    })
}

/// The questionnaire's six answers.
fn questionnaire() -> Value {
    json!({"job": "teacher", "monthlyIncome": "400000", "expenses": "12000", "loanPurpose": "tuition", "loanBefore": false, "guarantee": true})
}
