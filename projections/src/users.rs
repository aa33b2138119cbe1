//! `users`: the `user_profile` read model, the User entity of PRODUCT.md section 10.

use aggregates::types::mask;
use aggregates::user::{User, UserEvent};
use async_trait::async_trait;
use cqrs_es::Aggregate;
use serde_json::{json, Value as Json};

use crate::projection::{decode, time_text, to_json, Projection, ProjectionError, StateCache};
use crate::rows::{Kind, Row, RowStore, TableSpec};
use crate::store::StoredEvent;

/// `user_profile`.
pub static USER_PROFILE: TableSpec = TableSpec {
    name: "user_profile",
    key_len: 1,
    columns: &[
        ("user_id", Kind::Text),
        ("mobile", Kind::Text),
        ("identity_status", Kind::Int),
        ("registered_at", Kind::Text),
        ("doc", Kind::Text),
        ("state", Kind::Text),
    ],
};

/// Maintains `user_profile` from User events.
pub struct UsersProjection;

/// The `/user/info` document (section 10). Card number masked; signature as its
/// `/files/{key}` URL. Amount-free: nothing here is a charge.
pub fn user_doc(user: &User) -> Json {
    let f = &user.profile.fields;
    let q = user.questionnaire.as_ref();
    let account = user.bank_account.as_ref();
    let qualification = user.qualification();
    json!({
        "userId": user.id,
        "mobile": user.mobile,
        "realName": f.real_name,
        "identity": f.identity,
        "sex": f.sex,
        "birthday": f.birthday.map(|d| d.format("%Y-%m-%d").to_string()),
        "marriage": f.marriage,
        "email": f.email,
        "facebook": f.facebook,
        "education": f.education,
        "provinceCity": f.province_city,
        "address": f.address,
        "bankName": account.map(|a| a.bank_name.clone()),
        "cardNo": account.map(|a| mask(&a.account_no, 4)),
        "job": q.map(|q| q.job.clone()),
        "monthlyIncome": q.map(|q| q.monthly_income.clone()),
        "expenses": q.map(|q| q.expenses.clone()),
        "loanPurpose": q.map(|q| q.loan_purpose.clone()),
        "loanBefore": q.map(|q| q.loan_before),
        "guarantee": q.map(|q| q.guarantee),
        "signatureImg": user.signature.as_ref().map(|s| format!("/files/{}", s.key)),
        "idImages": user.id_images.as_ref().map(|[front, back, hand]| json!({
            "frontImage": format!("/files/{}", front.key),
            "backImage": format!("/files/{}", back.key),
            "handHoldImage": format!("/files/{}", hand.key),
        })),
        "lastOrderId": user.open_order,
        "hasWithdrawPin": user.pin_hash.is_some(),
        "identityRejectReason": user.identity_rejection,
        // What the open order asks to fix (12.4): these become editable.
        "resubmissionItems": user.resubmission.as_ref().map(|open| &open.items),
        "lock": user.lock().map(|(kind, reason)| json!({"kind": kind, "reason": reason})),
        "userQualificationView": {
            "identity": qualification.identity,
            "basicInformation": qualification.basic_information,
            "bankCard": qualification.bank_card,
        },
        "inviteCode": user.invite_code,
        // The privacy notice accepted at registration (PRODUCT.md 12.6); null for an
        // account registered before consent was recorded.
        "privacyNotice": user.privacy_consent.as_ref().map(|consent| json!({
            "version": consent.version,
            "acceptedAt": time_text(consent.accepted_at),
            "language": consent.language,
        })),
    })
}

/// What `user_profile.state` holds in place of a set withdraw PIN's hash.
pub const REDACTED_HASH: &str = "[redacted]";

/// Takes the credentials out of a fold before it is stored as `user_profile.state`:
/// the password hash becomes empty and a set PIN's hash [`REDACTED_HASH`], so that
/// whoever can read the read models (a replica, an analytics copy, an officer's
/// query) cannot attack them offline. Only the User aggregate checks a password or a
/// PIN, on its own fold of the events; the read model needs no more than whether a
/// PIN is set (`hasWithdrawPin`), which this keeps. The next fold from this state
/// takes a new hash from its event and this removes it again.
pub fn redact_credentials(user: &mut User) {
    user.password_hash.clear();
    if user.pin_hash.is_some() {
        user.pin_hash = Some(REDACTED_HASH.to_string());
    }
}

static TABLES: [&TableSpec; 1] = [&USER_PROFILE];

#[async_trait]
impl Projection for UsersProjection {
    fn name(&self) -> &'static str {
        "users"
    }

    fn tables(&self) -> &'static [&'static TableSpec] {
        &TABLES
    }

    fn follows(&self) -> &'static [&'static str] {
        &[User::TYPE]
    }

    async fn apply_all(
        &self,
        store: &mut dyn RowStore,
        events: &[StoredEvent],
    ) -> Result<(), ProjectionError> {
        // Per user: the state, and the registration time (from the stored row, or from
        // the `UserRegistered` event of this run).
        let registered = |row: Option<&Row>| {
            row.map(|row| row.text("registered_at").to_string())
                .unwrap_or_default()
        };
        let mine = || events.iter().filter(|e| self.applies_to(e));
        let mut users = StateCache::<User, String>::new();
        users.preload(store, &USER_PROFILE, mine()).await?;
        for event in mine() {
            let payload = decode::<UserEvent>(event)?;
            let user = users.entry(store, &USER_PROFILE, event, registered).await?;
            if let UserEvent::UserRegistered { registered_at, .. } = &*payload {
                user.extra = time_text(*registered_at);
            }
            user.state.apply(payload.into_owned());
        }
        for mut user in users.into_touched() {
            redact_credentials(&mut user.state);
            let row = Row {
                table: &USER_PROFILE,
                values: vec![
                    user.id.as_str().into(),
                    user.state.mobile.as_str().into(),
                    i64::from(user.state.identity.code()).into(),
                    user.extra.into(),
                    to_json(&user_doc(&user.state)).into(),
                    to_json(&user.state).into(),
                ],
            };
            store.upsert(row).await?;
        }
        Ok(())
    }
}
