//! `users`: the `user_profile` read model, the User entity of PRODUCT.md section 10.

use aggregates::types::mask;
use aggregates::user::{User, UserEvent};
use async_trait::async_trait;
use cqrs_es::Aggregate;

use crate::projection::{decode, time_text, to_json, Projection, ProjectionError, StateCache};
use crate::rows::{Kind, Row, RowStore, TableSpec};
use crate::store::StoredEvent;
use crate::views::{AccountLock, IdImageUrls, PrivacyNotice, QualificationView, UserDoc};

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
pub fn user_doc(user: &User) -> UserDoc {
    let f = &user.profile.fields;
    let q = user.questionnaire.as_ref();
    let account = user.bank_account.as_ref();
    let qualification = user.qualification();
    let file = |key: &str| format!("/files/{key}");
    UserDoc {
        address: f.address.clone(),
        bank_name: account.map(|a| a.bank_name.clone()),
        birthday: f.birthday.map(|d| d.format("%Y-%m-%d").to_string()),
        card_no: account.map(|a| mask(&a.account_no, 4)),
        education: f.education.clone(),
        email: f.email.clone(),
        expenses: q.map(|q| q.expenses.clone()),
        facebook: f.facebook.clone(),
        guarantee: q.map(|q| q.guarantee),
        has_withdraw_pin: user.pin_hash.is_some(),
        id_images: user
            .id_images
            .as_ref()
            .map(|[front, back, hand]| IdImageUrls {
                back_image: file(&back.key),
                front_image: file(&front.key),
                hand_hold_image: file(&hand.key),
            }),
        identity: f.identity.clone(),
        identity_reject_reason: user.identity_rejection.clone(),
        invite_code: user.invite_code.clone(),
        job: q.map(|q| q.job.clone()),
        last_order_id: user.open_order,
        loan_before: q.map(|q| q.loan_before),
        loan_purpose: q.map(|q| q.loan_purpose.clone()),
        lock: user
            .lock()
            .map(|(kind, reason)| AccountLock::of(kind, reason)),
        marriage: f.marriage.clone(),
        mobile: user.mobile.clone(),
        monthly_income: q.map(|q| q.monthly_income.clone()),
        // The privacy notice accepted at registration (PRODUCT.md 12.6); null for an
        // account registered before consent was recorded.
        privacy_notice: user.privacy_consent.as_ref().map(|consent| PrivacyNotice {
            accepted_at: time_text(consent.accepted_at),
            language: consent.language.clone(),
            version: consent.version.clone(),
        }),
        province_city: f.province_city.clone(),
        real_name: f.real_name.clone(),
        // What the open order asks to fix (12.4): these become editable.
        resubmission_items: user.resubmission.as_ref().map(|open| open.items.clone()),
        sex: f.sex,
        signature_img: user.signature.as_ref().map(|s| file(&s.key)),
        user_id: user.id.unwrap_or_default(),
        user_qualification_view: QualificationView {
            bank_card: qualification.bank_card,
            basic_information: qualification.basic_information,
            identity: qualification.identity,
        },
    }
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
