//! Image storage through `object_store` with `STORAGE_URL=s3://bucket/prefix`: the
//! uploads go to an S3-compatible service (here a small fake of its object API on
//! 127.0.0.1, as MinIO would be configured with `AWS_ENDPOINT`), under the prefix, and
//! `GET /files/{key}` reads them back from there.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use object_store::aws::AmazonS3Builder;
use serde_json::json;

use crate::helpers::{TestApp, PNG};

/// The objects the fake S3 holds, by `bucket/key`.
type Objects = Arc<Mutex<HashMap<String, Vec<u8>>>>;

async fn put_object(
    State(objects): State<Objects>,
    Path(path): Path<String>,
    body: Bytes,
) -> Response {
    objects.lock().unwrap().insert(path, body.to_vec());
    ([(header::ETAG, "\"fake-etag\"")], "").into_response()
}

async fn get_object(State(objects): State<Objects>, Path(path): Path<String>) -> Response {
    match objects.lock().unwrap().get(&path) {
        Some(bytes) => (
            [
                (header::ETAG, "\"fake-etag\""),
                (header::LAST_MODIFIED, "Sun, 22 Nov 2026 09:00:00 GMT"),
            ],
            bytes.clone(),
        )
            .into_response(),
        None => (
            StatusCode::NOT_FOUND,
            "<Error><Code>NoSuchKey</Code></Error>",
        )
            .into_response(),
    }
}

/// Serves the fake S3 on a free loopback port; returns its URL and its objects.
async fn fake_s3() -> (String, Objects) {
    let objects = Objects::default();
    let router = Router::new()
        .route("/{*path}", get(get_object).put(put_object))
        .with_state(objects.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await });
    (format!("http://{addr}"), objects)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn images_are_stored_in_s3_under_the_prefix_and_served_back() {
    let (endpoint, objects) = fake_s3().await;
    // What `AmazonS3Builder::from_env()` reads from AWS_ENDPOINT, AWS_ALLOW_HTTP,
    // AWS_REGION, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY.
    let s3 = AmazonS3Builder::new()
        .with_endpoint(&endpoint)
        .with_allow_http(true)
        .with_region("us-east-1")
        .with_access_key_id("test-key")
        .with_secret_access_key("test-secret");
    let storage =
        api::providers::storage::open_with("s3://loan-images/uploads", s3).expect("an S3 store");
    let base = TestApp::sqlite().await;
    let app = base.with_state(api::AppState::from(api::runtime::state::Shared {
        storage,
        ..base.state.shared()
    }));

    let token = app.register("09174445555").await;
    let t = Some(token.as_str());
    app.ok("/jackey/user/signatureImg/upload", t, json!({"img": PNG}))
        .await;
    app.upload_identity(&token).await;
    let info = app.ok("/jackey/user/info", t, json!({})).await;
    let user_id = info["userId"].as_str().unwrap();

    // Four objects, all in the bucket under the prefix, keyed as the events say.
    let stored: Vec<String> = objects.lock().unwrap().keys().cloned().collect();
    assert_eq!(stored.len(), 4, "{stored:?}");
    for key in &stored {
        assert!(
            key.starts_with(&format!("loan-images/uploads/signature/{user_id}/"))
                || key.starts_with(&format!("loan-images/uploads/id/{user_id}/")),
            "{key}"
        );
    }
    // Served back from S3 to the owner, byte for byte.
    let signature = info["signatureImg"].as_str().unwrap();
    let key = signature.trim_start_matches("/files/");
    let in_s3 = objects.lock().unwrap()[&format!("loan-images/uploads/{key}")].clone();
    assert_eq!(app.file(signature, t).await, Ok(in_s3));
    let front = info["idImages"]["frontImage"].as_str().unwrap();
    let photo = app.file(front, t).await.expect("the front photo");
    assert!(photo.starts_with(b"\x89PNG"));
    // A key S3 does not have: 40007.
    let missing = format!("/files/id/{user_id}/front-missing.png");
    assert_eq!(app.file(&missing, t).await.unwrap_err()["code"], 40007);
}

/// A `STORAGE_URL` that names no usable store stops the start-up with a message, before
/// the event store is opened.
#[tokio::test]
async fn an_unusable_storage_url_is_a_start_up_error() {
    for (url, says) in [
        ("ftp://files.example/uploads", "unknown scheme \"ftp\""),
        ("s3:///uploads", "needs a bucket"),
    ] {
        let env = api::config::Env {
            storage_url: url.to_string(),
            database_url: "sqlite:///nonexistent/never-opened.db".into(),
            ..crate::helpers::env()
        };
        match api::Application::build(env).await {
            Ok(_) => panic!("{url} was accepted"),
            Err(error) => {
                let error = error.to_string();
                assert!(error.starts_with("storage: STORAGE_URL"), "{error}");
                assert!(error.contains(says), "{error}");
            }
        }
    }
}

/// `GET /files/{key}` with a 5,000-character name on a local directory store: 40007
/// (no such image), decided before the file system is asked. It used to answer 500
/// and log the storage path at error level ("file name too long").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_over_long_file_name_is_no_such_image_on_a_directory_store() {
    let dir = std::env::temp_dir()
        .join("api-tests")
        .join(uuid::Uuid::now_v7().simple().to_string());
    let env = api::config::Env {
        storage_url: dir.join("uploads").display().to_string(),
        database_url: format!("sqlite://{}", dir.join("loan.db").display()).into(),
        ..crate::helpers::env()
    };
    let app = TestApp::sqlite_with(env).await;
    let (_, auditor) = app.auditor("files-long").await;
    let long = format!("/files/id/{}/front.png", "a".repeat(5_000));
    let (refused, logged) =
        crate::helpers::logs::capture(app.file(&long, Some(auditor.as_str()))).await;
    assert_eq!(refused.unwrap_err()["code"], 40007);
    assert!(!logged.contains(&dir.display().to_string()), "{logged}");
}
