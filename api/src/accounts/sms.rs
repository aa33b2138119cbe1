//! SMS verification codes (PRODUCT.md 5 and 12.2, NIST SP 800-63B out-of-band
//! authenticator): 6 digits, valid 5 minutes, single use, one request per 60 s per
//! phone and purpose, stored only as a hash. A new code voids the older codes of that
//! phone and purpose, and a code allows [`MAX_WRONG_ENTRIES`] wrong entries, counted
//! in the statement that checks it, so parallel guesses cannot outrun the count. The default
//! sender writes each message to the `sms_outbox` table, so the app works offline; its
//! log line names the purpose and the masked phone number, never the code.

use aggregates::ErrorCode;
use chrono::Duration;
use rand::Rng;
use sha2::{Digest, Sha256};

use crate::db::sms_codes::{self as db, NewCode};
use crate::documents::Lang;
use crate::http::envelope::ApiError;
use crate::runtime::state::AppState;

/// What a code is for; a code for one purpose never unlocks another.
pub const PURPOSES: [&str; 6] = ["register", "login", "unlock", "bank", "pin", "reset"];

/// Purposes that act on an existing account: their codes go only to a registered
/// phone (PRODUCT.md 12.2). The answer is the same either way, so `/sms/*` never tells
/// whether a phone is registered.
const ACCOUNT_PURPOSES: [&str; 5] = ["login", "unlock", "bank", "pin", "reset"];

/// Wrong entries a code allows; the last of them voids it (PRODUCT.md 12.2).
pub const MAX_WRONG_ENTRIES: i64 = 5;

/// Wrong entries a phone's codes of one purpose may take in [`WRONG_ENTRIES_WINDOW_HOURS`]
/// before its codes are sent one per hour instead of one per minute: five voided
/// codes. A code a minute allowed 7,200 guesses a day at a password reset; past this,
/// 5 an hour (NIST SP 800-63B asks to limit failed attempts per account). Slowed, not
/// stopped: anyone may ask for a phone's codes, so a stop would let a stranger keep
/// the borrower from unlocking or resetting for a day (P4); an hour is the most a
/// borrower waits.
pub const MAX_WRONG_ENTRIES_PER_DAY: i64 = 25;

/// The window of [`MAX_WRONG_ENTRIES_PER_DAY`].
pub const WRONG_ENTRIES_WINDOW_HOURS: i64 = 24;

/// Seconds between two codes of a phone and purpose: normally, and past
/// [`MAX_WRONG_ENTRIES_PER_DAY`].
const SEND_INTERVAL_SECONDS: (i64, i64) = (60, 3600);

fn code_hash(mobile: &str, purpose: &str, code: &str) -> String {
    hex::encode(Sha256::digest(
        format!("{mobile}:{purpose}:{code}").as_bytes(),
    ))
}

/// The text of a verification code in `lang` (issue 52): the code, how long it is
/// valid, and that no payment is ever asked for (section 0). The data export masks
/// the code as a run of six digits.
pub fn code_text(lang: Lang, code: &str) -> String {
    match lang {
        Lang::En => format!("Your verification code is {code}. It is valid for 5 minutes. We never ask you to pay to receive a loan."),
        Lang::Zh => format!("您的验证码是 {code}，5 分钟内有效。我们绝不会要求您付费才能获得贷款。"),
        Lang::Fil => format!("Ang verification code mo ay {code}. Valid ito nang 5 minuto. Hindi kami kailanman humihingi ng bayad para matanggap mo ang loan."),
    }
}

/// Sends a new code and voids the older ones of this phone and purpose. Error 5 when
/// the last one is younger than 60 seconds, or than an hour once this phone's codes
/// of this purpose took [`MAX_WRONG_ENTRIES_PER_DAY`] wrong entries in the last day.
/// For an account purpose and a phone no account holds, the code is recorded (so both
/// limits answer alike) but no message is written.
pub async fn send(
    state: &AppState,
    mobile: &str,
    purpose: &str,
    lang: Lang,
) -> Result<(), ApiError> {
    let now = state.now();
    let deliver = !ACCOUNT_PURPOSES.contains(&purpose)
        || crate::queries::borrower::user_by_mobile(state, mobile)
            .await?
            .is_some();
    let code = format!("{:06}", rand::thread_rng().gen_range(0..1_000_000));
    let body = code_text(lang, &code);
    let hash = code_hash(mobile, purpose, &code);
    let code = NewCode {
        mobile,
        purpose,
        code_hash: &hash,
        now,
        expires_at: now + Duration::minutes(5),
        wrong_entries_since: now - Duration::hours(WRONG_ENTRIES_WINDOW_HOURS),
        message: deliver.then(|| (uuid::Uuid::now_v7().to_string(), body.as_str())),
    };
    // The interval rule in one statement: the send's time is recorded only when the
    // last one is older than the interval (60 s, an hour once this phone's codes of
    // this purpose took the day's cap of wrong entries); parallel sends wait on the
    // row and re-check it.
    let slowed = |wrong: i64| wrong >= MAX_WRONG_ENTRIES_PER_DAY;
    let interval = |wrong: i64| {
        Duration::seconds(if slowed(wrong) {
            SEND_INTERVAL_SECONDS.1
        } else {
            SEND_INTERVAL_SECONDS.0
        })
    };
    let sent = db::send(&state.database, &code, interval).await?;
    let (guessed_out, sent) = (slowed(sent.wrong_entries), sent.recorded);
    if !sent && guessed_out {
        return Err(ApiError::new(
            ErrorCode::TooManyRequests,
            "too many wrong codes for this phone: one code per hour for now",
        ));
    }
    if !sent {
        return Err(ApiError::new(
            ErrorCode::TooManyRequests,
            "too many requests, try again later: one code per 60 seconds",
        ));
    }
    // The default sender: the outbox is the delivery channel; the log never holds the
    // code (nor the message body).
    let masked = aggregates::types::mask(mobile, 4);
    if deliver {
        tracing::info!(purpose, mobile = %masked, "SMS code sent to the outbox");
    } else {
        tracing::info!(purpose, mobile = %masked, "SMS code recorded, not sent: no account holds this phone");
    }
    Ok(())
}

/// Consumes a valid, unexpired, unused code. Errors: 10013 when no code is waiting
/// for this phone and purpose (never sent, expired, used, replaced by a newer one or
/// voided by wrong entries: ask for a new one); 10011 when one is waiting but `code`
/// is not it, saying how many entries are left (the last wrong one voids it).
///
/// One statement decides: it consumes the waiting code when `code` matches, and
/// otherwise counts a wrong entry on it and voids it at [`MAX_WRONG_ENTRIES`]. Row
/// locks serialize parallel entries on a code, and each re-reads it, so no more than
/// five wrong guesses are ever checked against one code.
pub async fn verify(
    state: &AppState,
    mobile: &str,
    purpose: &str,
    code: &str,
) -> Result<(), ApiError> {
    let hash = code_hash(mobile, purpose, code.trim());
    let outcomes = db::enter(
        &state.database,
        mobile,
        purpose,
        &hash,
        MAX_WRONG_ENTRIES,
        state.now(),
    )
    .await?;
    if outcomes.contains(&-1) {
        return Ok(());
    }
    match outcomes.iter().max() {
        None => Err(ApiError::code(ErrorCode::GetVerificationCodeAgain)),
        Some(&wrong) => {
            let left = (MAX_WRONG_ENTRIES - wrong).max(0);
            let message = if left == 0 {
                "wrong verification code; it is void now, ask for a new one".to_string()
            } else {
                format!("wrong verification code ({left} attempts left)")
            };
            Err(ApiError::new(ErrorCode::VerificationCodeInvalid, message))
        }
    }
}
