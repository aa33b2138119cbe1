//! ID photos and stored images: `/jackey/user/identity/apply` (multipart),
//! `/jackey/user/identity`, and `GET /files/{key}` for the owner and auditors only.
//!
//! Uploads are checked by content, not by name (JPEG or PNG), must be under 5 MB, and
//! are decoded and re-encoded so no metadata (EXIF, GPS) is kept (PRODUCT.md 5).
//! Events hold only the key and the SHA-256 of the stored bytes.

use std::io::Cursor;

use aggregates::types::ImageRef;
use aggregates::user::UserCommand;
use aggregates::{Actor, ErrorCode};
use axum::extract::{Multipart, Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use image::ImageFormat;
use serde_json::json;
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::auth::{self, Borrower, TokenKind};
use crate::envelope::{ok, ApiError};
use crate::routes::user::{user_doc, MAX_IMAGE_BYTES};
use crate::state::AppState;

/// The routes of this module.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/jackey/user/identity/apply", post(apply_identity))
        .route("/jackey/user/identity", post(identity_images))
        .route("/files/{*key}", get(serve))
}

/// Checks, decodes and re-encodes an uploaded image. Errors: 20000 for a file that is
/// too large or not a JPEG/PNG image, 10035 for one that does not decode.
pub fn clean_image(bytes: &[u8]) -> Result<(Vec<u8>, &'static str), ApiError> {
    if bytes.len() >= MAX_IMAGE_BYTES {
        return Err(ApiError::new(
            ErrorCode::UploadFailed,
            "image must be smaller than 5 MB",
        ));
    }
    let format = image::guess_format(bytes).map_err(|_| {
        ApiError::new(
            ErrorCode::UploadFailed,
            "the file is not a JPEG or PNG image",
        )
    })?;
    let (format, extension) = match format {
        ImageFormat::Jpeg => (ImageFormat::Jpeg, "jpg"),
        ImageFormat::Png => (ImageFormat::Png, "png"),
        _ => {
            return Err(ApiError::new(
                ErrorCode::UploadFailed,
                "the file is not a JPEG or PNG image",
            ))
        }
    };
    let decoded = image::load_from_memory_with_format(bytes, format)
        .map_err(|_| ApiError::code(ErrorCode::IdPhotoNotVerified))?;
    let mut out = Cursor::new(Vec::new());
    // JPEG has no alpha channel: flatten before encoding.
    let written = match format {
        ImageFormat::Jpeg => {
            image::DynamicImage::ImageRgb8(decoded.to_rgb8()).write_to(&mut out, format)
        }
        _ => decoded.write_to(&mut out, format),
    };
    written.map_err(ApiError::internal)?;
    Ok((out.into_inner(), extension))
}

fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

async fn apply_identity(
    State(state): State<AppState>,
    borrower: Borrower,
    mut multipart: Multipart,
) -> Result<Response, ApiError> {
    let mut images: [Option<ImageRef>; 3] = [None, None, None];
    while let Some(field) = multipart
        .next_field()
        .await
        .map_err(|e| ApiError::new(ErrorCode::UploadFailed, e.body_text()))?
    {
        let slot = match field.name() {
            Some("frontImage") => 0,
            Some("backImage") => 1,
            Some("handHoldImage") => 2,
            _ => continue,
        };
        let bytes = field
            .bytes()
            .await
            .map_err(|e| ApiError::new(ErrorCode::UploadFailed, e.body_text()))?;
        let (clean, extension) = clean_image(&bytes)?;
        let sha256 = sha256_hex(&clean);
        let part = ["front", "back", "hand"][slot];
        let key = format!("id/{}/{part}-{sha256}.{extension}", borrower.user_id);
        crate::files::put(&key, &clean)
            .await
            .map_err(ApiError::internal)?;
        images[slot] = Some(ImageRef { key, sha256 });
    }
    let [Some(front), Some(back), Some(hand_hold)] = images else {
        return Err(ApiError::bad_input(
            "images",
            "frontImage, backImage and handHoldImage are all required",
        ));
    };
    let uid = borrower.user_id.to_string();
    let command = || UserCommand::SubmitIdentity {
        front: front.clone(),
        back: back.clone(),
        hand_hold: hand_hold.clone(),
    };
    state
        .execute(
            &state.users,
            &uid,
            command,
            Actor::User(borrower.user_id),
            &Uuid::now_v7().to_string(),
        )
        .await?;
    Ok(ok(json!(null)))
}

async fn identity_images(
    State(state): State<AppState>,
    borrower: Borrower,
) -> Result<Response, ApiError> {
    let doc = user_doc(&state, borrower.user_id).await?;
    Ok(ok(doc["idImages"].clone()))
}

/// `GET /files/{key}`: the owner (the user id is the key's second segment) or an auditor.
async fn serve(
    State(state): State<AppState>,
    Path(key): Path<String>,
    headers: HeaderMap,
) -> Response {
    let denied = || (StatusCode::NOT_FOUND, "not found").into_response();
    let token = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or_default()
        .to_string();
    if token.is_empty() || key.contains("..") {
        return denied();
    }
    let owner = key.split('/').nth(1).unwrap_or_default();
    let allowed = match auth::resolve(&state, &token, TokenKind::Borrower).await {
        Ok(user_id) => user_id.to_string() == owner,
        Err(_) => auth::resolve(&state, &token, TokenKind::Auditor)
            .await
            .is_ok(),
    };
    if !allowed {
        return denied();
    }
    match tokio::fs::read(crate::files::root().join(&key)).await {
        Ok(bytes) => {
            let content_type = if key.ends_with(".png") {
                "image/png"
            } else {
                "image/jpeg"
            };
            (
                [
                    (header::CONTENT_TYPE, content_type),
                    (header::CACHE_CONTROL, "private, no-store"),
                ],
                bytes,
            )
                .into_response()
        }
        Err(_) => denied(),
    }
}
