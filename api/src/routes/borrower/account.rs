//! Borrower account calls: `/jackey/sms/*`, `/jackey/user/*` (PRODUCT.md section 8).

use aggregates::types::{check_password, ImageRef, Mobile};
use aggregates::user::{
    accepted_privacy_notice, EmergencyContact, ProfileUpdate, Questionnaire, UserCommand, UserEvent,
};
use aggregates::{Actor, ErrorCode};
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::post;
use axum::Router;
use base64::Engine;
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use utoipa::{OpenApi, ToSchema};
use uuid::Uuid;

use crate::accounts::claims;
use crate::accounts::sms;
use crate::documents::Lang;
use crate::http::auth::{self, Borrower, BorrowerToken, TokenKind};
use crate::http::envelope::{ok, ApiError, ApiJson, Envelope, Null};
use crate::queries::borrower as queries;
use crate::runtime::state::AppState;
use projections::views::UserInfo;

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

/// The OpenAPI description of this module's calls (see [`crate::http::openapi`]).
#[derive(OpenApi)]
#[openapi(
    components(schemas(SmsPurpose)),
    paths(
        send_sms,
        register,
        login,
        logout,
        info,
        update,
        update_emergency,
        bind_bank,
        set_withdraw_pin,
        upload_signature,
        unlock
    )
)]
pub struct Doc;

/// The request id the events of this request's command record (`x-request-id`).
use crate::http::middleware::request_id::current as request_id;

/// What an SMS code is for (the path segment of `/jackey/sms/{purpose}`).
#[derive(ToSchema)]
#[serde(rename_all = "lowercase")]
#[allow(dead_code)] // documentation only: the handler checks against `sms::PURPOSES`
enum SmsPurpose {
    Register,
    Login,
    Unlock,
    Bank,
    Pin,
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct SmsBody {
    /// The phone number the code is sent to.
    #[schema(example = "09171234567")]
    mobile: String,
    /// The language of the text (`en`, `zh`, `fil`: the app's; issue 52); English
    /// when absent or unknown.
    #[serde(default)]
    lang: Option<String>,
}

/// A session token.
#[derive(Serialize, ToSchema)]
struct TokenData {
    /// Opaque bearer token (`Authorization: Bearer ...`).
    token: String,
}

#[utoipa::path(
    post,
    path = "/jackey/sms/{purpose}",
    tag = "borrower account",
    summary = "Send an SMS code",
    description = "Sends a 6-digit code to `mobile` for the purpose (60 s resend limit). \
                   10004 for an unknown purpose or a malformed number; 5 within 60 s of the \
                   last code, or too many requests from this client.",
    params(("purpose" = SmsPurpose, Path, description = "register, login, unlock, bank or pin")),
    request_body = SmsBody,
    responses((status = 200, description = "Envelope, `data` null", body = Envelope<Null>))
)]
async fn send_sms(
    State(state): State<AppState>,
    purpose: Result<Path<String>, PathRejection>,
    ApiJson(body): ApiJson<SmsBody>,
) -> Result<Response, ApiError> {
    let Ok(Path(purpose)) = purpose else {
        return Err(ApiError::bad_input("purpose", "unknown SMS purpose"));
    };
    if !sms::PURPOSES.contains(&purpose.as_str()) {
        return Err(ApiError::bad_input("purpose", "unknown SMS purpose"));
    }
    let mobile =
        Mobile::parse(&body.mobile).map_err(|e| ApiError::bad_input(e.field, &e.reason))?;
    let lang = Lang::pick(body.lang.as_deref(), None).unwrap_or(Lang::En);
    sms::send(&state, mobile.as_str(), &purpose, lang).await?;
    Ok(ok(Null))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct RegisterBody {
    /// Phone number (the login name).
    #[schema(example = "09171234567")]
    mobile: String,
    /// The password (rules of PRODUCT.md section 4.1).
    password: String,
    /// The code `/jackey/sms/register` sent to this phone: it proves the phone is the
    /// borrower's (PRODUCT.md 12.2).
    #[schema(example = "123456")]
    sms_code: String,
    /// Invite code, when the configuration asks for one.
    #[serde(default)]
    telemarketing_code: Option<String>,
    /// The channel the app was installed from.
    #[serde(default)]
    installation_source: Option<String>,
    /// The version of the privacy notice the screen showed and the borrower accepted
    /// (`privacyNoticeVersion` of `/jackey/loan/getAllCompanyConfigs`, PRODUCT.md
    /// 12.6). Anything but the current version is refused with 10004.
    #[serde(default)]
    #[schema(example = "2026-11", max_length = 40)]
    privacy_notice_version: Option<String>,
    /// The language the screen showed the privacy notice in: `en`, or another
    /// language the lender gives the notice in (`translations` of
    /// `/jackey/loan/getAllCompanyConfigs`). Recorded with the consent; absent is `en`,
    /// the plain text; a language the notice is not given in is refused with 10004.
    #[serde(default)]
    #[schema(example = "en", max_length = 8)]
    privacy_notice_language: Option<String>,
}

#[utoipa::path(
    post,
    path = "/jackey/user/register",
    tag = "borrower account",
    summary = "Register a borrower",
    description = "Creates the account and answers a session token. Needs the code \
                   `/jackey/sms/register` sent to the phone (PRODUCT.md 12.2). 10004 bad \
                   input, or `privacyNoticeVersion` missing or not the current privacy \
                   notice's, or `privacyNoticeLanguage` one it is not given in \
                   (PRODUCT.md 12.6); 10000 invalid invite code; 10013 no code is \
                   waiting (request one); 10011 wrong code (the fifth wrong entry voids \
                   it); 10001 phone already registered (said only to whoever holds the \
                   phone's code); 5 too many requests from this client.",
    request_body = RegisterBody,
    responses((status = 200, description = "Envelope with the token", body = Envelope<Option<TokenData>>))
)]
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
    // Likewise the consent (the User aggregate's rule, asked here first only so a
    // screen showing an outdated notice does not spend the phone's code).
    accepted_privacy_notice(
        body.privacy_notice_version.as_deref(),
        body.privacy_notice_language.as_deref(),
        state.user_services.reference.as_ref(),
    )?;
    // The phone is proven last among the checks, so a refusal above does not spend the
    // code, and first before the claim, so "already registered" (10001) is said only
    // to whoever can read the phone's messages (no account enumeration, 12.2).
    sms::verify(&state, mobile.as_str(), "register", &body.sms_code).await?;
    let user_id = Uuid::now_v7();
    claims::claim_mobile(&state, mobile.as_str(), user_id).await?;
    let command = || UserCommand::Register {
        user_id,
        mobile: mobile.as_str().to_string(),
        password: body.password.clone(),
        invite_code: invite.clone(),
        channel: body.installation_source.clone(),
        privacy_notice_version: body.privacy_notice_version.clone(),
        privacy_notice_language: body.privacy_notice_language.clone(),
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
        claims::release_mobile(&state, mobile.as_str(), user_id).await;
        return Err(error);
    }
    let token = auth::issue(&state, user_id, TokenKind::Borrower).await?;
    Ok(ok(TokenData { token }))
}

#[derive(Deserialize, ToSchema)]
struct LoginBody {
    /// Phone number.
    #[schema(example = "09171234567")]
    mobile: String,
    /// Password.
    password: String,
}

#[utoipa::path(
    post,
    path = "/jackey/user/login",
    tag = "borrower account",
    summary = "Log in",
    description = "Answers a session token. 10002 wrong phone or password, the same \
                   answer for a phone without an account and for a locked account \
                   (PRODUCT.md 12.2: a wrong password learns nothing about the account); \
                   20003 the account is locked (after wrong passwords or PINs: lifted with \
                   `/jackey/user/unlock`; or a compliance hold), with its reason, to the \
                   right password only; 5 too many requests from this client.",
    request_body = LoginBody,
    responses((status = 200, description = "Envelope with the token", body = Envelope<Option<TokenData>>))
)]
async fn login(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<LoginBody>,
) -> Result<Response, ApiError> {
    let wrong = || ApiError::code(ErrorCode::WrongPhoneOrPassword);
    let Some(user_id) = queries::user_by_mobile(&state, body.mobile.trim()).await? else {
        // The same work as a registered phone's login, so the answer's time does not
        // tell either (12.2).
        let hasher = &state.user_services.hasher;
        let decoy = DECOY_HASH.get_or_init(|| hasher.hash("no account")).await;
        hasher.verify(&body.password, decoy).await;
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
    let succeeded = events
        .iter()
        .any(|event| matches!(event.payload, UserEvent::LoginSucceeded { .. }));
    if succeeded {
        let token = auth::issue(&state, user_id, TokenKind::Borrower).await?;
        return Ok(ok(TokenData { token }));
    }
    // Neither the attempts left nor the lock a fifth failure set: either would tell
    // whoever tries a phone number that it has an account (12.2). The login screen
    // says that wrong passwords lock the account and how to lift it.
    Err(wrong())
}

/// An argon2id hash of no account's password, made with the deployment's parameters
/// the first time a login names an unknown phone.
static DECOY_HASH: tokio::sync::OnceCell<String> = tokio::sync::OnceCell::const_new();

#[utoipa::path(
    post,
    path = "/jackey/user/logout",
    tag = "borrower account",
    summary = "Log out",
    description = "Revokes the bearer token.",
    security(("bearer" = [])),
    responses((status = 200, description = "Envelope, `data` null", body = Envelope<Null>))
)]
async fn logout(State(state): State<AppState>, borrower: Borrower) -> Result<Response, ApiError> {
    auth::revoke(&state, &borrower.token).await?;
    Ok(ok(Null))
}

#[utoipa::path(
    post,
    path = "/jackey/user/info",
    tag = "borrower account",
    summary = "The borrower's profile",
    description = "The user document of PRODUCT.md section 10, with `lastOrderId` the \
                   latest order. 10008 before the profile exists.",
    security(("bearer" = [])),
    responses((status = 200, description = "Envelope with the user document", body = Envelope<Option<UserInfo>>))
)]
async fn info(State(state): State<AppState>, token: BorrowerToken) -> Result<Response, ApiError> {
    Ok(ok(queries::own_user_doc(&state, &token).await?))
}

/// Profile fields (any subset), or the questionnaire (all six answers together). The
/// maximum lengths are PRODUCT.md 5's, decided by the User aggregate (10004 naming the
/// field) and stated here for clients and the fuzzer.
#[derive(Deserialize, Default, ToSchema)]
#[serde(rename_all = "camelCase")]
struct UpdateBody {
    #[schema(max_length = 60)]
    real_name: Option<String>,
    #[schema(max_length = 60)]
    identity: Option<String>,
    sex: Option<u8>,
    /// `YYYY-MM-DD`.
    #[schema(format = Date)]
    birthday: Option<String>,
    #[schema(max_length = 60)]
    marriage: Option<String>,
    #[schema(max_length = 254)]
    email: Option<String>,
    #[schema(max_length = 200)]
    facebook: Option<String>,
    #[schema(max_length = 60)]
    education: Option<String>,
    /// `"Region,Province,City"`, PSGC names from `/loan/getConfigByKey` `provinces`;
    /// the province is empty in a region without provinces (NCR). 10004 for a place
    /// not in the list, unless it repeats the stored value unchanged.
    #[schema(
        max_length = 200,
        example = "Region VII (Central Visayas),Cebu,City of Cebu"
    )]
    province_city: Option<String>,
    #[schema(max_length = 200)]
    address: Option<String>,
    #[schema(max_length = 60)]
    job: Option<String>,
    #[schema(max_length = 60)]
    monthly_income: Option<String>,
    #[schema(max_length = 60)]
    expenses: Option<String>,
    #[schema(max_length = 200)]
    loan_purpose: Option<String>,
    loan_before: Option<bool>,
    guarantee: Option<bool>,
}

#[utoipa::path(
    post,
    path = "/jackey/user/update",
    tag = "borrower account",
    summary = "Update the profile or answer the questionnaire",
    description = "10004 names a bad field; 10014 invalid ID number; 10025 email taken; \
                   10026 identity already registered (each held by one account at most); \
                   10006 name or ID number changed after identity verification.",
    security(("bearer" = [])),
    request_body = UpdateBody,
    responses((status = 200, description = "Envelope, `data` null", body = Envelope<Null>))
)]
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
    let request = request_id();
    let answers = if answers_questionnaire {
        // Checked first so a half-answered questionnaire changes nothing at all.
        let (Some(loan_before), Some(guarantee)) = (body.loan_before, body.guarantee) else {
            return Err(ApiError::bad_input(
                "questionnaire",
                "all six answers are required",
            ));
        };
        // Empty answers are refused by the User aggregate, naming the field.
        Some(Questionnaire {
            job: body.job.clone().unwrap_or_default(),
            monthly_income: body.monthly_income.clone().unwrap_or_default(),
            expenses: body.expenses.clone().unwrap_or_default(),
            loan_purpose: body.loan_purpose.clone().unwrap_or_default(),
            loan_before,
            guarantee,
        })
    } else {
        None
    };
    // One command: the profile, or the questionnaire with the profile fields it sends.
    let command = match answers {
        Some(answers) => UserCommand::AnswerQuestionnaire {
            answers,
            profile: profile.clone(),
        },
        None => UserCommand::UpdateProfile(profile.clone()),
    };
    with_claims(&state, borrower.user_id, &profile, command, &request).await?;
    Ok(ok(Null))
}

/// Runs `command` (which records `profile`) holding the claims on its ID number and
/// email: another account's value answers 10026 or 10025 before anything is
/// recorded. After the change the borrower's previous values are released; if it is
/// refused, the claims this request made are released again.
async fn with_claims(
    state: &AppState,
    user_id: Uuid,
    profile: &ProfileUpdate,
    command: UserCommand,
    request: &str,
) -> Result<(), ApiError> {
    // One claiming request of this account at a time (claims::take_turn).
    claims::take_turn(state, user_id).await?;
    let mut claims = Vec::new();
    let wanted = [
        (claims::ClaimKind::Identity, profile.identity.as_deref()),
        (claims::ClaimKind::Email, profile.email.as_deref()),
    ];
    let mut refused = None;
    for (kind, value) in wanted {
        let Some(value) = value.filter(|v| !v.trim().is_empty()) else {
            continue;
        };
        match claims::claim(state, user_id, kind, value).await {
            Ok(claim) => claims.push(claim),
            Err(error) => {
                refused = Some(error);
                break;
            }
        }
    }
    let outcome = match refused {
        Some(error) => Err(error),
        None => state
            .execute(
                &state.users,
                &user_id.to_string(),
                || command.clone(),
                Actor::User(user_id),
                request,
            )
            .await
            .map(|_| ()),
    };
    claims::settle(state, user_id, &claims, outcome.is_ok()).await;
    claims::end_turn(state, user_id).await;
    outcome
}

#[derive(Deserialize, ToSchema)]
struct EmergencyBody {
    /// The contacts (no duplicate mobiles).
    contacts: Vec<EmergencyContact>,
}

#[utoipa::path(
    post,
    path = "/jackey/user/updateEmergency",
    tag = "borrower account",
    summary = "Replace the emergency contacts",
    description = "10004 a contact without a name, or an invalid or repeated mobile.",
    security(("bearer" = [])),
    request_body = EmergencyBody,
    responses((status = 200, description = "Envelope, `data` null", body = Envelope<Null>))
)]
async fn update_emergency(
    State(state): State<AppState>,
    borrower: Borrower,
    ApiJson(body): ApiJson<EmergencyBody>,
) -> Result<Response, ApiError> {
    let command = || UserCommand::UpdateEmergencyContacts {
        contacts: body.contacts.clone(),
    };
    run_as_borrower(&state, &borrower, command).await
}

/// Runs a user command as the calling borrower and answers `ok(null)`.
async fn run_as_borrower(
    state: &AppState,
    borrower: &Borrower,
    command: impl Fn() -> UserCommand,
) -> Result<Response, ApiError> {
    let uid = borrower.user_id.to_string();
    let me = Actor::User(borrower.user_id);
    state
        .execute(&state.users, &uid, command, me, &request_id())
        .await?;
    Ok(ok(Null))
}

/// True when an SMS code for `purpose` was given and is valid (consumed); false when
/// none was given; error 10011 for a wrong or expired one.
async fn sms_proof(
    state: &AppState,
    user_id: Uuid,
    purpose: &str,
    code: Option<&str>,
) -> Result<bool, ApiError> {
    let Some(code) = code.filter(|c| !c.is_empty()) else {
        return Ok(false);
    };
    let mobile = queries::mobile_of(state, user_id).await?;
    sms::verify(state, &mobile, purpose, code).await?;
    Ok(true)
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct BankBody {
    /// One of the configured banks.
    bank_name: String,
    /// The account number.
    card_no: String,
    /// Required when replacing a bound account (`/jackey/sms/bank`).
    #[serde(default)]
    sms_code: Option<String>,
}

#[utoipa::path(
    post,
    path = "/jackey/user/bank/binding",
    tag = "borrower account",
    summary = "Bind or replace the payout bank account",
    description = "10004 unknown bank; 10028 invalid account number; 40000 no real name \
                   yet; 10011 replacing without the SMS code, or a wrong one; 10013 no code \
                   is waiting (request one); 110012 cannot change while a loan is active; \
                   20003 account locked.",
    security(("bearer" = [])),
    request_body = BankBody,
    responses((status = 200, description = "Envelope, `data` null", body = Envelope<Null>))
)]
async fn bind_bank(
    State(state): State<AppState>,
    borrower: Borrower,
    ApiJson(body): ApiJson<BankBody>,
) -> Result<Response, ApiError> {
    let sms_code_verified =
        sms_proof(&state, borrower.user_id, "bank", body.sms_code.as_deref()).await?;
    // Whether a withdrawal is in flight or the loan is being repaid is decided by the
    // User aggregate itself (P3), never from a read model.
    let command = || UserCommand::BindBankCard {
        actor: Actor::User(borrower.user_id),
        bank_name: body.bank_name.trim().to_string(),
        card_no: body.card_no.trim().to_string(),
        sms_code_verified,
    };
    run_as_borrower(&state, &borrower, command).await
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct PinBody {
    /// Six digits.
    #[schema(example = "246810")]
    pin: String,
    /// Required when changing an existing PIN (`/jackey/sms/pin`).
    #[serde(default)]
    sms_code: Option<String>,
}

#[utoipa::path(
    post,
    path = "/jackey/user/withdrawPin",
    tag = "borrower account",
    summary = "Set or change the withdraw PIN",
    description = "10004 not six digits; 10011 changing without the SMS code, or a wrong \
                   one; 10013 no code is waiting (request one).",
    security(("bearer" = [])),
    request_body = PinBody,
    responses((status = 200, description = "Envelope, `data` null", body = Envelope<Null>))
)]
async fn set_withdraw_pin(
    State(state): State<AppState>,
    borrower: Borrower,
    ApiJson(body): ApiJson<PinBody>,
) -> Result<Response, ApiError> {
    let sms_code_verified =
        sms_proof(&state, borrower.user_id, "pin", body.sms_code.as_deref()).await?;
    let command = || UserCommand::SetWithdrawPin {
        actor: Actor::User(borrower.user_id),
        pin: body.pin.clone(),
        sms_code_verified,
    };
    run_as_borrower(&state, &borrower, command).await
}

#[derive(Deserialize, ToSchema)]
struct SignatureBody {
    /// `data:image/png;base64,...`, under 5 MB decoded.
    #[schema(example = "data:image/png;base64,iVBORw0KGgo=")]
    img: String,
}

#[utoipa::path(
    post,
    path = "/jackey/user/signatureImg/upload",
    tag = "borrower account",
    summary = "Upload the signature image",
    description = "20000 when the image is not a PNG, does not decode, or is 5 MB or more; \
                   re-encoded without metadata; 10004 bad data URL.",
    security(("bearer" = [])),
    request_body = SignatureBody,
    responses((status = 200, description = "Envelope, `data` null", body = Envelope<Null>))
)]
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
    // The type is decided by the content (PRODUCT.md 5), and the image is decoded
    // (bounded) and re-encoded like the ID photos: what is stored is pixels only, with
    // no text chunks (GPS, comments) or trailing bytes, and no polyglot survives.
    if !bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        return Err(ApiError::new(
            ErrorCode::UploadFailed,
            "the signature must be a PNG image",
        ));
    }
    let (bytes, _) = crate::routes::files::clean_image(&bytes).map_err(|error| {
        if error.code == ErrorCode::IdPhotoNotVerified {
            ApiError::new(
                ErrorCode::UploadFailed,
                "the signature image does not decode",
            )
        } else {
            error
        }
    })?;
    let sha256 = crate::routes::files::sha256_hex(&bytes);
    let key = format!("signature/{}/{sha256}.png", borrower.user_id);
    crate::providers::storage::put(&state.storage, &key, bytes).await?;
    let image = ImageRef { key, sha256 };
    let command = || UserCommand::UploadSignature {
        image: image.clone(),
    };
    run_as_borrower(&state, &borrower, command).await
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct UnlockBody {
    /// The registered phone number.
    mobile: String,
    /// The code sent by `/jackey/sms/unlock`.
    unlock_code: String,
}

#[utoipa::path(
    post,
    path = "/jackey/user/unlock",
    tag = "borrower account",
    summary = "Lift a security lock with an SMS code",
    description = "Never a compliance hold, never a payment (P4). 10004 empty code; 10011 \
                   wrong code; 10013 no code is waiting (request one); 20003 a compliance \
                   hold (an auditor lifts it); 5 too many requests from this client.",
    request_body = UnlockBody,
    responses((status = 200, description = "Envelope, `data` null: the account is unlocked", body = Envelope<Null>))
)]
/// Lifts a security lock with the SMS code sent to the registered phone (P4); never a
/// compliance hold, never a payment. The lock is lifted on the account itself, so no
/// separate unlock token is issued (PRODUCT.md 4.5's `X-Security-Token` would prove
/// nothing a session and the account's own state do not; `docs/security.md`).
async fn unlock(
    State(state): State<AppState>,
    ApiJson(body): ApiJson<UnlockBody>,
) -> Result<Response, ApiError> {
    if body.unlock_code.trim().is_empty() {
        return Err(ApiError::bad_input("unlockCode", "is required"));
    }
    let mobile = body.mobile.trim();
    // The code first: an unknown number answers exactly as a registered one would
    // (10013 without a code waiting, 10011 for a wrong one), so unlock tells nobody
    // which numbers have accounts.
    sms::verify(&state, mobile, "unlock", &body.unlock_code).await?;
    let Some(user_id) = queries::user_by_mobile(&state, mobile).await? else {
        return Err(ApiError::code(ErrorCode::VerificationCodeInvalid));
    };
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
    Ok(ok(Null))
}
