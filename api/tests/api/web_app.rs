//! The web app as the api serves it (api/src/http/web_app.rs): every page path answers the
//! app's page with the lender named in its splash (P14, issue 15), and the built
//! files are served as they are.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use tower::ServiceExt;
use uuid::Uuid;

use crate::helpers::{env, TestApp};

/// A minimal build: index.html with the splash's marker, and one asset.
fn build() -> std::path::PathBuf {
    let dist = std::env::temp_dir()
        .join("api-tests-web")
        .join(Uuid::now_v7().simple().to_string());
    std::fs::create_dir_all(dist.join("assets")).unwrap();
    std::fs::write(
        dist.join("index.html"),
        "<!doctype html><div id=\"root\"><div class=\"boot\"><!--lender--></div></div>",
    )
    .unwrap();
    std::fs::write(dist.join("assets/app-0a1b2c.js"), "export const app = 1;\n").unwrap();
    dist
}

#[tokio::test]
async fn every_page_path_names_the_lender_in_the_first_paint() {
    let mut settings = env();
    settings.web_dist = build();
    let app = TestApp::sqlite_with(settings).await;
    let lender = &app.state.config.lender;
    let line = format!(
        "<p class=\"boot__lender\">{} · Reg. No. {} · {}</p>",
        lender.legal_name, lender.registration_no, lender.licence_no
    );
    // `/` and `/index.html` are files of the build too: they must not bypass the lender.
    for path in [
        "/",
        "/index.html",
        "/login",
        "/detail/0190e0c4-unknown",
        "/admin/queue",
    ] {
        let (status, content_type, body) = app.get(path, None).await;
        let body = String::from_utf8(body).unwrap();
        assert_eq!(status, StatusCode::OK, "{path}");
        assert!(
            content_type.starts_with("text/html"),
            "{path}: {content_type}"
        );
        assert!(body.contains(&line), "{path}: {body}");
        assert!(!body.contains("<!--lender-->"), "{path}");
    }
}

#[tokio::test]
async fn built_files_are_served_as_built_and_kept_for_a_year() {
    let mut settings = env();
    settings.web_dist = build();
    let app = TestApp::sqlite_with(settings).await;
    let response = app
        .router
        .clone()
        .oneshot(
            Request::get("/assets/app-0a1b2c.js")
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        response.headers()["cache-control"],
        "public, max-age=31536000, immutable"
    );
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    assert_eq!(&bytes[..], b"export const app = 1;\n");
    // The page itself is revalidated on every visit, so a release shows at once.
    let page = app
        .router
        .clone()
        .oneshot(Request::get("/login").body(Body::empty()).unwrap())
        .await
        .unwrap();
    assert_eq!(page.headers()["cache-control"], "no-cache");
}
