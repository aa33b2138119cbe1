//! Staff roles and accounts (issue 55): the permission table walked with every role,
//! staff accounts made and changed by an admin with one-time setup links, the second
//! factor at log-in, and the audit trail of who did what from where.

use api::accounts::auditors::create_staff_account;
use api::accounts::roles::{Role, ALL_ROLES};
use api::accounts::second_factor;
use axum::body::Body;
use axum::http::Request;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

use crate::helpers::{env, on_both_stores, TestApp};

/// The permission table of the repository (`docs/permissions.md`): call, then the
/// expected answer for each role in [`ALL_ROLES`] order (`None` allowed, `Some(code)`
/// refused).
fn table() -> Vec<(String, Vec<Option<u32>>)> {
    let page = include_str!("../../../docs/permissions.md");
    page.lines()
        .filter(|line| line.starts_with("| `/admin/api/"))
        .map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            let call = cells[1].trim_matches('`').to_string();
            let answers = cells[2..7]
                .iter()
                .map(|cell| match *cell {
                    "yes" => None,
                    code => Some(code.parse().expect("a code or yes")),
                })
                .collect();
            (call, answers)
        })
        .collect()
}

/// POSTs `{}` with `token`: the envelope's code, or 0 for an answer that is no
/// envelope (a file).
async fn code_of(app: &TestApp, path: &str, token: &str) -> u32 {
    let request = Request::post(path)
        .header("content-type", "application/json")
        .header("authorization", format!("Bearer {token}"))
        .body(Body::from("{}"))
        .unwrap();
    let response = app.router.clone().oneshot(request).await.unwrap();
    assert!(
        response.status().is_success(),
        "{path}: {}",
        response.status()
    );
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    serde_json::from_slice::<Value>(&bytes)
        .map(|envelope| envelope["code"].as_u64().unwrap() as u32)
        .unwrap_or(0)
}

/// One account holding only `role`, logged in: its token.
async fn staff_with(app: &TestApp, role: Role) -> String {
    let username = format!("only-{}", role.name());
    create_staff_account(
        &app.state.database,
        &username,
        "correct horse",
        &[role],
        None,
    )
    .await
    .unwrap();
    let login = app.auditor_login(&username).await;
    assert_eq!(login["roles"], json!([role.name()]));
    login["token"].as_str().unwrap().to_string()
}

on_both_stores!(
    every_call_with_every_role,
    every_console_call_answers_each_role_as_the_table_says_on_sqlite,
    every_console_call_answers_each_role_as_the_table_says_on_postgres
);

async fn every_call_with_every_role(app: TestApp) {
    let table = table();
    // The table names every console call that needs a session, and no other.
    let document = api::http::openapi::document();
    let public = [
        "/admin/api/login",
        "/admin/api/staff/setupInfo",
        "/admin/api/staff/completeSetup",
    ];
    let mut documented: Vec<&str> = document
        .paths
        .paths
        .keys()
        .map(String::as_str)
        .filter(|path| path.starts_with("/admin/api/") && !public.contains(path))
        .collect();
    documented.sort_unstable();
    let mut tabled: Vec<&str> = table.iter().map(|(call, _)| call.as_str()).collect();
    tabled.sort_unstable();
    assert_eq!(
        documented, tabled,
        "docs/permissions.md against the OpenAPI document"
    );

    let mut tokens = Vec::new();
    for role in ALL_ROLES {
        tokens.push(staff_with(&app, role).await);
    }
    // Log-out ends the session: walked last.
    let mut walk = table.clone();
    walk.sort_by_key(|(call, _)| call == "/admin/api/logout");
    for (call, answers) in &walk {
        for (index, role) in ALL_ROLES.iter().enumerate() {
            let code = code_of(&app, call, &tokens[index]).await;
            match answers[index] {
                Some(refused) => assert_eq!(code, refused, "{call} as {}", role.name()),
                None => assert_ne!(code, 50005, "{call} as {}", role.name()),
            }
        }
    }
    // The duties the issue names, read from the walk: a reviewer cannot erase, a
    // collector cannot approve, an admin cannot move money.
    let answer = |call: &str, role: Role| {
        let index = ALL_ROLES.iter().position(|r| *r == role).unwrap();
        table.iter().find(|(c, _)| c == call).unwrap().1[index]
    };
    assert_eq!(
        answer("/admin/api/users/erase", Role::Reviewer),
        Some(50005)
    );
    assert_eq!(
        answer("/admin/api/orders/passFinal", Role::Collector),
        Some(50005)
    );
    assert_eq!(
        answer("/admin/api/repayments/manual", Role::Admin),
        Some(50005)
    );
    // Each call's permission is in the OpenAPI document.
    let hold = &document.paths.paths["/admin/api/users/hold"];
    let extensions = hold.post.as_ref().unwrap().extensions.as_ref().unwrap();
    assert_eq!(
        extensions.get("x-permission"),
        Some(&json!("accounts.hold"))
    );
    let description = hold.post.as_ref().unwrap().description.as_deref().unwrap();
    assert!(description.ends_with("Needs `accounts.hold` (roles: compliance); 50005 otherwise."));
}

on_both_stores!(
    accounts_by_an_admin,
    an_admin_creates_staff_who_open_their_accounts_with_a_one_time_link_on_sqlite,
    an_admin_creates_staff_who_open_their_accounts_with_a_one_time_link_on_postgres
);

/// The token of a setup link's path (`/admin/setup#<token>`).
fn link_token(link: &Value) -> String {
    let path = link["path"].as_str().unwrap();
    path.strip_prefix("/admin/setup#").unwrap().to_string()
}

async fn accounts_by_an_admin(app: TestApp) {
    let admin = staff_with(&app, Role::Admin).await;
    let admin = Some(admin.as_str());
    let body = json!({"username": "Carla.Collector", "roles": ["collector"]});
    let link = app.ok("/admin/api/staff/create", admin, body.clone()).await;
    let carla = link["staffId"].as_str().unwrap().to_string();
    // The name is taken now; unknown and missing roles are refused.
    app.fails("/admin/api/staff/create", admin, body, 10004)
        .await;
    let none = json!({"username": "nobody", "roles": []});
    app.fails("/admin/api/staff/create", admin, none, 10004)
        .await;
    let odd = json!({"username": "nobody", "roles": ["superuser"]});
    app.fails("/admin/api/staff/create", admin, odd, 10004)
        .await;

    // No password yet: no log-in.
    let login = json!({"username": "carla.collector", "password": "correct horse"});
    app.fails("/admin/api/login", None, login.clone(), 10002)
        .await;
    // The link opens the account once, with a long enough password.
    let token = link_token(&link);
    let info = app
        .ok("/admin/api/staff/setupInfo", None, json!({"token": token}))
        .await;
    assert_eq!(info["username"], "carla.collector");
    assert_eq!(info["secondFactor"], Value::Null);
    let short = json!({"token": token, "password": "short"});
    app.fails("/admin/api/staff/completeSetup", None, short, 10004)
        .await;
    let set = json!({"token": token, "password": "correct horse"});
    app.ok("/admin/api/staff/completeSetup", None, set.clone())
        .await;
    app.fails("/admin/api/staff/completeSetup", None, set, 10004)
        .await;
    let session = app.ok("/admin/api/login", None, login.clone()).await;
    assert_eq!(session["roles"], json!(["collector"]));
    let carla_token = session["token"].as_str().unwrap().to_string();
    let carla_t = Some(carla_token.as_str());
    app.ok("/admin/api/collections/queue", carla_t, json!({}))
        .await;
    app.fails("/admin/api/orders/queue", carla_t, json!({}), 50005)
        .await;

    // New roles hold from the next call, without a new log-in.
    let roles = json!({"staffId": carla, "roles": ["collector", "reviewer"]});
    app.ok("/admin/api/staff/assignRoles", admin, roles).await;
    app.ok("/admin/api/orders/queue", carla_t, json!({})).await;
    let me = app.ok("/admin/api/me", carla_t, json!({})).await;
    assert_eq!(me["roles"], json!(["reviewer", "collector"]));

    // A reset ends the old password and every session at once.
    let reset = app
        .ok(
            "/admin/api/staff/resetPassword",
            admin,
            json!({"staffId": carla}),
        )
        .await;
    app.fails("/admin/api/me", carla_t, json!({}), 20001).await;
    app.fails("/admin/api/login", None, login.clone(), 10002)
        .await;
    let set = json!({"token": link_token(&reset), "password": "another horse"});
    app.ok("/admin/api/staff/completeSetup", None, set).await;
    let login = json!({"username": "carla.collector", "password": "another horse"});
    app.ok("/admin/api/login", None, login.clone()).await;

    // Disabled: no log-in; enabled again: log-in.
    let disable = json!({"staffId": carla, "reason": "left the company"});
    app.ok("/admin/api/staff/disable", admin, disable).await;
    app.fails("/admin/api/login", None, login.clone(), 10002)
        .await;
    app.ok("/admin/api/staff/enable", admin, json!({"staffId": carla}))
        .await;
    app.ok("/admin/api/login", None, login).await;

    // An admin cannot lock themself out: not their own account, not their admin role.
    let listed = app.ok("/admin/api/staff/list", admin, json!({})).await;
    let me = listed
        .as_array()
        .unwrap()
        .iter()
        .find(|account| account["username"] == "only-admin")
        .unwrap()["staffId"]
        .clone();
    let disable_self = json!({"staffId": me, "reason": "oops"});
    app.fails("/admin/api/staff/disable", admin, disable_self, 10004)
        .await;
    let reset_self = json!({"staffId": me});
    app.fails("/admin/api/staff/resetPassword", admin, reset_self, 10004)
        .await;
    let demote_self = json!({"staffId": me, "roles": ["admin", "finance"]});
    app.fails("/admin/api/staff/assignRoles", admin, demote_self, 10004)
        .await;
    let unknown = json!({"staffId": uuid::Uuid::now_v7(), "roles": ["reviewer"]});
    app.fails("/admin/api/staff/assignRoles", admin, unknown, 40007)
        .await;
    let carla_listed = listed
        .as_array()
        .unwrap()
        .iter()
        .find(|account| account["username"] == "carla.collector")
        .unwrap();
    assert_eq!(carla_listed["passwordSet"], true);
    assert_eq!(carla_listed["roles"], json!(["reviewer", "collector"]));

    // Every change is recorded with who made it.
    let sql = "select change from staff_change where auditor_id = $1 order by change_id";
    let kinds = app.texts(sql, &carla).await;
    assert_eq!(
        kinds,
        [
            "created",
            "password_set",
            "roles",
            "password_reset",
            "password_set",
            "disabled",
            "enabled"
        ]
    );
    let sql = "select by_actor from staff_change where auditor_id = $1 and change = 'disabled'";
    let by = app.scalar(sql, &carla).await.unwrap();
    assert!(by.starts_with("auditor:"), "{by}");

    // The audit trail: who, from where, what was touched, refusals too.
    let trail = app
        .ok(
            "/admin/api/audit/trail",
            admin,
            json!({"username": "only-admin"}),
        )
        .await;
    let items = trail["items"].as_array().unwrap();
    let disable = items
        .iter()
        .find(|item| item["call"] == "/admin/api/staff/disable" && item["code"] == 0)
        .unwrap();
    assert_eq!(disable["target"], json!(carla));
    assert_eq!(disable["username"], "only-admin");
    assert!(items
        .iter()
        .any(|item| item["call"] == "/admin/api/staff/disable" && item["code"] == 10004));
    let carla_trail = app
        .ok(
            "/admin/api/audit/trail",
            admin,
            json!({"username": "carla.collector"}),
        )
        .await;
    let refused = &carla_trail["items"].as_array().unwrap();
    assert!(refused
        .iter()
        .any(|item| item["call"] == "/admin/api/orders/queue" && item["code"] == 50005));
}

/// With `STAFF_SECOND_FACTOR=required`: the link enrolls a TOTP secret (a wrong code
/// leaves it usable), the log-in asks the code, a code is taken once, and an account
/// without one cannot log in.
async fn required_second_factor(app: TestApp) {
    let admin_secret = second_factor::new_secret();
    create_staff_account(
        &app.state.database,
        "first-admin",
        "correct horse",
        &[Role::Admin],
        Some(&admin_secret),
    )
    .await
    .unwrap();
    let now = || projections::clock::SystemClock.now();
    use aggregates::services::Clock;
    let password = json!({"username": "first-admin", "password": "correct horse"});
    // No code, or a wrong one: refused as a wrong password is, so no answer tells
    // that the password was right.
    let refused = app
        .fails("/admin/api/login", None, password.clone(), 10002)
        .await;
    assert_eq!(refused["msg"], "wrong username, password or code");
    let mut wrong = password.clone();
    wrong["totpCode"] = json!("000000");
    if second_factor::code_at(&admin_secret, now()).as_deref() != Some("000000") {
        app.fails("/admin/api/login", None, wrong, 10002).await;
    }
    let mut right = password.clone();
    right["totpCode"] = json!(second_factor::code_at(&admin_secret, now()).unwrap());
    let session = app.ok("/admin/api/login", None, right.clone()).await;
    let admin = session["token"].as_str().unwrap().to_string();
    // The same code again (a replay) is refused.
    app.fails("/admin/api/login", None, right, 10002).await;

    let link = app
        .ok(
            "/admin/api/staff/create",
            Some(&admin),
            json!({"username": "rita", "roles": ["reviewer"]}),
        )
        .await;
    let token = link_token(&link);
    let info = app
        .ok("/admin/api/staff/setupInfo", None, json!({"token": token}))
        .await;
    let secret = info["secondFactor"]["secret"].as_str().unwrap().to_string();
    assert!(info["secondFactor"]["qrSvg"]
        .as_str()
        .unwrap()
        .contains("<svg"));
    let no_code = json!({"token": token, "password": "rita's password"});
    app.fails("/admin/api/staff/completeSetup", None, no_code, 10004)
        .await;
    let code = second_factor::code_at(&secret, now()).unwrap();
    let set = json!({"token": token, "password": "rita's password", "totpCode": code});
    app.ok("/admin/api/staff/completeSetup", None, set).await;
    // The enrolling code was taken with the link: it opens no session; the next one does.
    let login = json!({"username": "rita", "password": "rita's password", "totpCode": code});
    app.fails("/admin/api/login", None, login, 10002).await;
    let next = second_factor::code_at(&secret, now() + chrono::Duration::seconds(30)).unwrap();
    let login = json!({"username": "rita", "password": "rita's password", "totpCode": next});
    let rita = app.ok("/admin/api/login", None, login).await;
    assert_eq!(rita["roles"], json!(["reviewer"]));

    // A reset keeps the factor enrolled: the link sets a password only, and the log-in
    // still needs the holder's phone.
    let reset = app
        .ok(
            "/admin/api/staff/resetPassword",
            Some(&admin),
            json!({"staffId": link["staffId"]}),
        )
        .await;
    let token = link_token(&reset);
    let info = app
        .ok("/admin/api/staff/setupInfo", None, json!({"token": token}))
        .await;
    assert_eq!(info["secondFactor"], Value::Null);
    let set = json!({"token": token, "password": "a new password"});
    app.ok("/admin/api/staff/completeSetup", None, set).await;
    let without = json!({"username": "rita", "password": "a new password"});
    app.fails("/admin/api/login", None, without, 10002).await;

    // An account made before the requirement, with no second factor, cannot log in.
    create_staff_account(
        &app.state.database,
        "old-hand",
        "correct horse",
        &[Role::Reviewer],
        None,
    )
    .await
    .unwrap();
    let old = json!({"username": "old-hand", "password": "correct horse"});
    app.fails("/admin/api/login", None, old, 10002).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_required_second_factor_on_sqlite() {
    let mut settings = env();
    settings.staff_second_factor = true;
    required_second_factor(TestApp::sqlite_with(settings).await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_required_second_factor_on_postgres() {
    let mut settings = env();
    settings.staff_second_factor = true;
    if let Some(app) = TestApp::postgres_with(settings).await {
        required_second_factor(app).await;
    }
}

on_both_stores!(
    an_order_without_personal_data,
    a_finance_officer_sees_an_order_without_the_borrowers_personal_data_on_sqlite,
    a_finance_officer_sees_an_order_without_the_borrowers_personal_data_on_postgres
);

/// `orders/detail` needs `orders.read`, which finance holds; the applicant's profile,
/// ID photos, questionnaire, contacts and signature need `borrowers.read` too.
async fn an_order_without_personal_data(app: TestApp) {
    let (_, _, order_id) = app.applicant("09171230055", "Ana Santos").await;
    let finance = staff_with(&app, Role::Finance).await;
    let reviewer = staff_with(&app, Role::Reviewer).await;
    let body = json!({"orderId": order_id});
    let seen = app
        .ok("/admin/api/orders/detail", Some(&finance), body.clone())
        .await;
    assert_eq!(seen["order"]["applyAmount"], "100000.00");
    for field in [
        "applicant",
        "images",
        "questionnaire",
        "contacts",
        "signature",
    ] {
        assert_eq!(seen[field], Value::Null, "{field}");
    }
    let full = app
        .ok("/admin/api/orders/detail", Some(&reviewer), body)
        .await;
    assert!(full["applicant"].is_object());
    assert!(full["images"].is_object());
}

on_both_stores!(
    a_link_used_at_once,
    a_setup_link_used_twice_at_once_opens_the_account_once_on_sqlite,
    a_setup_link_used_twice_at_once_opens_the_account_once_on_postgres
);

/// Two holders of one link (or one double click) at the same moment: the link is taken
/// in one statement, so exactly one password is set; the other answer is 10004.
async fn a_link_used_at_once(app: TestApp) {
    let admin = staff_with(&app, Role::Admin).await;
    let link = app
        .ok(
            "/admin/api/staff/create",
            Some(&admin),
            json!({"username": "twice", "roles": ["reviewer"]}),
        )
        .await;
    let token = link_token(&link);
    let first = json!({"token": token, "password": "first password"});
    let second = json!({"token": token, "password": "second password"});
    let (a, b) = tokio::join!(
        app.post("/admin/api/staff/completeSetup", None, first),
        app.post("/admin/api/staff/completeSetup", None, second),
    );
    let mut codes = [a["code"].as_u64().unwrap(), b["code"].as_u64().unwrap()];
    codes.sort_unstable();
    assert_eq!(codes, [0, 10004], "{a} {b}");
    let winner = if a["code"] == 0 {
        "first password"
    } else {
        "second password"
    };
    let login = json!({"username": "twice", "password": winner});
    app.ok("/admin/api/login", None, login).await;
    let sql = "select change from staff_change where auditor_id = $1 and change = 'password_set'";
    let set = app.texts(sql, link["staffId"].as_str().unwrap()).await;
    assert_eq!(set.len(), 1);
}
