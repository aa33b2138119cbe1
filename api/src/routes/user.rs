//! Borrower account calls: `/jackey/sms/*`, `/jackey/user/*` (PRODUCT.md section 8).

use aggregates::types::{check_password, ImageRef, Mobile};
use aggregates::user::{
    EmergencyContact, LoanActivity, ProfileUpdate, Questionnaire, UserCommand, UserEvent,
    MAX_FAILED_ATTEMPTS,
};
use aggregates::{Actor, ErrorCode};
use axum::extract::State;
use axum::response::Response;
use axum::routing::post;
use axum::Router;
use base64::Engine;
use chrono::{NaiveDate, Utc};
use serde::Deserialize;
use serde_json::json;
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::auth::{self, Borrower, TokenKind};
use crate::db::with_pool;
use crate::envelope::{ok, ApiError, ApiJson};
use crate::sms;
use crate::state::AppState;
use projections::projection::time_text;

/// The routes of this module.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/jackey/sms/{purpose}", post(send_sms))
        .route("/jackey/user/register", post(register))
        .route("/jackey/user/login", post(login))
        .route("/jackey/user/logout", post(logout))
        .route("/jackey/user/info", post(info))
        .route("/jackey/user/update", post(update))
        .route("/jackey/user/updateEmergency", post(update_emergency))
        .route("/jackey/user/bank/binding", post(bind_bank))
        .route("/jackey/user/withdrawPin", post(set_withdraw_pin))
        .route("/jackey/user/signatureImg/upload", post(upload_signature))
        .route("/jackey/user/unlock", post(unlock))
}

fn request_id() -> String {
    Uuid::now_v7().to_string()
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct SmsBody {
    mobile: String,
}

async fn send_sms(
    State(state): State<AppState>,
    axum::extract::Path(purpose): axum::extract::Path<String>,
    ApiJson(body): ApiJson<SmsBody>,
) -> Result<Response, ApiError> {
    if !sms::PURPOSES.contains(&purpose.as_str()) {
        return Err(ApiError::bad_input("purpose", "unknown SMS purpose"));
    }
    let mobile =
        Mobile::parse(&body.mobile).map_err(|e| ApiError::bad_input(e.field, &e.reason))?;
    sms::send(&state, mobile.as_str(), &purpose).await?;
    Ok(ok(json!(null)))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RegisterBody {
    mobile: String,
    password: String,
    #[serde(default)]
    telemarketing_code: Option<String>,
    #[serde(default)]
    installation_source: Option<String>,
}

async fn register(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<RegisterBody>,
) -> Result<Response, ApiError> {
    // The same checks the command makes, before the phone number is claimed, so a
    // refused registration leaves no claim behind.
    let mobile =
        Mobile::parse(&body.mobile).map_err(|e| ApiError::bad_input(e.field, &e.reason))?;
    check_password(&body.password).map_err(|e| ApiError::bad_input(e.field, &e.reason))?;
    let invite = body.telemarketing_code.filter(|c| !c.trim().is_empty());
    if !state
        .user_services
        .reference
        .accepts_invite_code(invite.as_deref())
    {
        return Err(ApiError::code(ErrorCode::InvalidInviteCode));
    }
    let user_id = Uuid::now_v7();
    let claim = "insert into user_mobile (mobile, user_id, created_at) values ($1, $2, $3)";
    let claimed = with_pool!(&state.database, pool => sqlx::query(claim)
        .bind(mobile.as_str()).bind(user_id.to_string()).bind(time_text(Utc::now()))
        .execute(pool).await.map(|r| r.rows_affected()));
    if let Err(error) = claimed {
        let duplicate = error
            .as_database_error()
            .is_some_and(|e| e.is_unique_violation());
        return Err(if duplicate {
            ApiError::code(ErrorCode::PhoneAlreadyRegistered)
        } else {
            ApiError::internal(error)
        });
    }
    let command = || UserCommand::Register {
        user_id,
        mobile: mobile.as_str().to_string(),
        password: body.password.clone(),
        invite_code: invite.clone(),
        channel: body.installation_source.clone(),
    };
    let uid = user_id.to_string();
    if let Err(error) = state
        .execute(
            &state.users,
            &uid,
            command,
            Actor::User(user_id),
            &request_id(),
        )
        .await
    {
        let release = "delete from user_mobile where mobile = $1 and user_id = $2";
        let _ = with_pool!(&state.database, pool => sqlx::query(release)
            .bind(mobile.as_str()).bind(&uid).execute(pool).await.map(|r| r.rows_affected()));
        return Err(error);
    }
    let token = auth::issue(&state, user_id, TokenKind::Borrower).await?;
    Ok(ok(json!({ "token": token })))
}

#[derive(Deserialize)]
struct LoginBody {
    mobile: String,
    password: String,
}

/// The user id that holds this phone number.
pub async fn user_by_mobile(state: &AppState, mobile: &str) -> Result<Option<Uuid>, ApiError> {
    let sql = "select user_id from user_mobile where mobile = $1";
    let id: Option<String> = with_pool!(&state.database, pool =>
        sqlx::query_scalar(sql).bind(mobile).fetch_optional(pool).await)?;
    Ok(id.and_then(|id| Uuid::parse_str(&id).ok()))
}

async fn login(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<LoginBody>,
) -> Result<Response, ApiError> {
    let wrong = || ApiError::code(ErrorCode::WrongPhoneOrPassword);
    let Some(user_id) = user_by_mobile(&state, body.mobile.trim()).await? else {
        return Err(wrong());
    };
    let events = state
        .execute(
            &state.users,
            &user_id.to_string(),
            || UserCommand::Login {
                password: body.password.clone(),
            },
            Actor::User(user_id),
            &request_id(),
        )
        .await?;
    for event in events.iter().rev() {
        match &event.payload {
            UserEvent::LoginSucceeded { .. } => {
                let token = auth::issue(&state, user_id, TokenKind::Borrower).await?;
                return Ok(ok(json!({ "token": token })));
            }
            UserEvent::AccountLocked { reason, .. } => {
                return Err(ApiError::new(
                    ErrorCode::AccountLocked,
                    format!("account locked: {reason}"),
                ));
            }
            UserEvent::LoginFailed {
                failed_attempts, ..
            } => {
                let left = MAX_FAILED_ATTEMPTS.saturating_sub(*failed_attempts);
                return Err(ApiError::new(
                    ErrorCode::WrongPhoneOrPassword,
                    format!("wrong phone number or password ({left} attempts left)"),
                ));
            }
            _ => {}
        }
    }
    Err(wrong())
}

async fn logout(State(state): State<AppState>, borrower: Borrower) -> Result<Response, ApiError> {
    auth::revoke(&state, &borrower.token).await?;
    Ok(ok(json!(null)))
}

/// The borrower's `user_profile` document, with `lastOrderId` from `loan_progress`.
pub async fn user_doc(state: &AppState, user_id: Uuid) -> Result<serde_json::Value, ApiError> {
    let sql = "select doc from user_profile where user_id = $1";
    let doc: Option<String> = with_pool!(&state.database, pool =>
        sqlx::query_scalar(sql).bind(user_id.to_string()).fetch_optional(pool).await)?;
    let doc = doc.ok_or_else(|| ApiError::code(ErrorCode::CouldNotGetUserInfo))?;
    let mut doc: serde_json::Value = serde_json::from_str(&doc).map_err(ApiError::internal)?;
    let latest = "select order_id from loan_progress where user_id = $1";
    let last_order: Option<String> = with_pool!(&state.database, pool =>
        sqlx::query_scalar(latest).bind(user_id.to_string()).fetch_optional(pool).await)?;
    doc["lastOrderId"] = json!(last_order);
    // No credit scoring model is configured; the score is not invented.
    doc["creditScore"] = json!(null);
    Ok(doc)
}

async fn info(State(state): State<AppState>, borrower: Borrower) -> Result<Response, ApiError> {
    Ok(ok(user_doc(&state, borrower.user_id).await?))
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct UpdateBody {
    real_name: Option<String>,
    identity: Option<String>,
    sex: Option<u8>,
    birthday: Option<String>,
    marriage: Option<String>,
    email: Option<String>,
    facebook: Option<String>,
    education: Option<String>,
    province_city: Option<String>,
    address: Option<String>,
    job: Option<String>,
    monthly_income: Option<String>,
    expenses: Option<String>,
    loan_purpose: Option<String>,
    loan_before: Option<bool>,
    guarantee: Option<bool>,
}

async fn update(
    State(state): State<AppState>,
    borrower: Borrower,
    ApiJson(body): ApiJson<UpdateBody>,
) -> Result<Response, ApiError> {
    let birthday = match body.birthday.as_deref().filter(|b| !b.is_empty()) {
        Some(text) => Some(
            NaiveDate::parse_from_str(text, "%Y-%m-%d")
                .map_err(|_| ApiError::bad_input("birthday", "use YYYY-MM-DD"))?,
        ),
        None => None,
    };
    let profile = ProfileUpdate {
        real_name: body.real_name.clone(),
        identity: body.identity.clone(),
        sex: body.sex,
        birthday,
        marriage: body.marriage.clone(),
        email: body.email.clone(),
        facebook: body.facebook.clone(),
        education: body.education.clone(),
        province_city: body.province_city.clone(),
        address: body.address.clone(),
    };
    let questionnaire_fields = [
        &body.job,
        &body.monthly_income,
        &body.expenses,
        &body.loan_purpose,
    ];
    let answers_questionnaire = questionnaire_fields.iter().any(|f| f.is_some())
        || body.loan_before.is_some()
        || body.guarantee.is_some();
    let uid = borrower.user_id.to_string();
    let me = Actor::User(borrower.user_id);
    let request = request_id();
    if answers_questionnaire {
        // Checked first so a half-answered questionnaire changes nothing at all.
        let (Some(loan_before), Some(guarantee)) = (body.loan_before, body.guarantee) else {
            return Err(ApiError::bad_input(
                "questionnaire",
                "all six answers are required",
            ));
        };
        let answers = Questionnaire {
            job: body.job.clone().unwrap_or_default(),
            monthly_income: body.monthly_income.clone().unwrap_or_default(),
            expenses: body.expenses.clone().unwrap_or_default(),
            loan_purpose: body.loan_purpose.clone().unwrap_or_default(),
            loan_before,
            guarantee,
        };
        for (field, value) in [
            ("job", &answers.job),
            ("monthlyIncome", &answers.monthly_income),
            ("expenses", &answers.expenses),
            ("loanPurpose", &answers.loan_purpose),
        ] {
            if value.trim().is_empty() {
                return Err(ApiError::bad_input(field, "is required"));
            }
        }
        if profile != ProfileUpdate::default() {
            state
                .execute(
                    &state.users,
                    &uid,
                    || UserCommand::UpdateProfile(profile.clone()),
                    me,
                    &request,
                )
                .await?;
        }
        state
            .execute(
                &state.users,
                &uid,
                || UserCommand::AnswerQuestionnaire(answers.clone()),
                me,
                &request,
            )
            .await?;
    } else {
        state
            .execute(
                &state.users,
                &uid,
                || UserCommand::UpdateProfile(profile.clone()),
                me,
                &request,
            )
            .await?;
    }
    Ok(ok(json!(null)))
}

#[derive(Deserialize)]
struct EmergencyBody {
    contacts: Vec<EmergencyContact>,
}

async fn update_emergency(
    State(state): State<AppState>,
    borrower: Borrower,
    ApiJson(body): ApiJson<EmergencyBody>,
) -> Result<Response, ApiError> {
    let uid = borrower.user_id.to_string();
    let command = || UserCommand::UpdateEmergencyContacts {
        contacts: body.contacts.clone(),
    };
    state
        .execute(
            &state.users,
            &uid,
            command,
            Actor::User(borrower.user_id),
            &request_id(),
        )
        .await?;
    Ok(ok(json!(null)))
}

/// The borrower's loan activity for the bank-account rule, from the read models.
async fn loan_activity(state: &AppState, user_id: Uuid) -> Result<LoanActivity, ApiError> {
    let sql = "select d.status, d.doc from loan_progress p join order_detail d on d.order_id = p.order_id where p.user_id = $1";
    let row: Option<(i64, String)> = with_pool!(&state.database, pool =>
        sqlx::query_as(sql).bind(user_id.to_string()).fetch_optional(pool).await)?;
    Ok(match row {
        Some((4, _)) => LoanActivity::Repaying,
        Some((_, doc)) if doc.contains("\"payoutInFlight\":true") => LoanActivity::PayoutInFlight,
        _ => LoanActivity::Idle,
    })
}

async fn mobile_of(state: &AppState, user_id: Uuid) -> Result<String, ApiError> {
    let doc = user_doc(state, user_id).await?;
    Ok(doc["mobile"].as_str().unwrap_or_default().to_string())
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct BankBody {
    bank_name: String,
    card_no: String,
    #[serde(default)]
    sms_code: Option<String>,
}

async fn bind_bank(
    State(state): State<AppState>,
    borrower: Borrower,
    ApiJson(body): ApiJson<BankBody>,
) -> Result<Response, ApiError> {
    let sms_code_verified = match body.sms_code.as_deref().filter(|c| !c.is_empty()) {
        Some(code) => {
            let mobile = mobile_of(&state, borrower.user_id).await?;
            sms::verify(&state, &mobile, "bank", code).await?;
            true
        }
        None => false,
    };
    let loan_activity = loan_activity(&state, borrower.user_id).await?;
    let command = || UserCommand::BindBankCard {
        actor: Actor::User(borrower.user_id),
        bank_name: body.bank_name.trim().to_string(),
        card_no: body.card_no.trim().to_string(),
        sms_code_verified,
        loan_activity,
    };
    let uid = borrower.user_id.to_string();
    state
        .execute(
            &state.users,
            &uid,
            command,
            Actor::User(borrower.user_id),
            &request_id(),
        )
        .await?;
    Ok(ok(json!(null)))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PinBody {
    pin: String,
    #[serde(default)]
    sms_code: Option<String>,
}

async fn set_withdraw_pin(
    State(state): State<AppState>,
    borrower: Borrower,
    ApiJson(body): ApiJson<PinBody>,
) -> Result<Response, ApiError> {
    let sms_code_verified = match body.sms_code.as_deref().filter(|c| !c.is_empty()) {
        Some(code) => {
            let mobile = mobile_of(&state, borrower.user_id).await?;
            sms::verify(&state, &mobile, "pin", code).await?;
            true
        }
        None => false,
    };
    let command = || UserCommand::SetWithdrawPin {
        actor: Actor::User(borrower.user_id),
        pin: body.pin.clone(),
        sms_code_verified,
    };
    let uid = borrower.user_id.to_string();
    state
        .execute(
            &state.users,
            &uid,
            command,
            Actor::User(borrower.user_id),
            &request_id(),
        )
        .await?;
    Ok(ok(json!(null)))
}

#[derive(Deserialize)]
struct SignatureBody {
    img: String,
}

/// Largest upload (PRODUCT.md section 5).
pub const MAX_IMAGE_BYTES: usize = 5 * 1024 * 1024;

async fn upload_signature(
    State(state): State<AppState>,
    borrower: Borrower,
    ApiJson(body): ApiJson<SignatureBody>,
) -> Result<Response, ApiError> {
    let data = body
        .img
        .strip_prefix("data:image/png;base64,")
        .ok_or_else(|| ApiError::bad_input("img", "a PNG data URL is expected"))?;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(data.trim())
        .map_err(|_| ApiError::bad_input("img", "not valid base64"))?;
    if bytes.len() >= MAX_IMAGE_BYTES {
        return Err(ApiError::new(
            ErrorCode::UploadFailed,
            "image must be smaller than 5 MB",
        ));
    }
    // The type is decided by the content, not the name (PRODUCT.md section 5).
    if !bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        return Err(ApiError::new(
            ErrorCode::UploadFailed,
            "the signature must be a PNG image",
        ));
    }
    let sha256: String = Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let key = format!("signature/{}/{sha256}.png", borrower.user_id);
    crate::files::put(&key, &bytes)
        .await
        .map_err(ApiError::internal)?;
    let image = ImageRef { key, sha256 };
    let uid = borrower.user_id.to_string();
    let command = || UserCommand::UploadSignature {
        image: image.clone(),
    };
    state
        .execute(
            &state.users,
            &uid,
            command,
            Actor::User(borrower.user_id),
            &request_id(),
        )
        .await?;
    Ok(ok(json!(null)))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct UnlockBody {
    mobile: String,
    unlock_code: String,
}

/// Lifts a security lock with the SMS code sent to the registered phone (P4); never a
/// compliance hold, never a payment. Returns the unlock token (`X-Security-Token`).
async fn unlock(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<UnlockBody>,
) -> Result<Response, ApiError> {
    if body.unlock_code.trim().is_empty() {
        return Err(ApiError::bad_input("unlockCode", "is required"));
    }
    let mobile = body.mobile.trim();
    let Some(user_id) = user_by_mobile(&state, mobile).await? else {
        return Err(ApiError::code(ErrorCode::VerificationCodeInvalid));
    };
    sms::verify(&state, mobile, "unlock", &body.unlock_code).await?;
    let uid = user_id.to_string();
    let command = || UserCommand::UnlockWithSmsCode {
        sms_code_verified: true,
    };
    state
        .execute(
            &state.users,
            &uid,
            command,
            Actor::User(user_id),
            &request_id(),
        )
        .await?;
    let token = auth::issue(&state, user_id, TokenKind::Unlock).await?;
    Ok(ok(json!({ "unlockToken": token })))
}
