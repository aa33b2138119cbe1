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
use axum::extract::multipart::MultipartRejection;
use axum::extract::rejection::PathRejection;
use axum::extract::{Multipart, Path, State};
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use image::ImageFormat;
use sha2::{Digest, Sha256};
use utoipa::{OpenApi, ToSchema};
use uuid::Uuid;

use crate::accounts::roles::Permission;
use crate::http::auth::{self, Borrower, TokenKind};
use crate::http::envelope::{ok, ApiError, Binary, Envelope, Null};
use crate::http::route_table::Access;
use crate::providers::storage::MAX_IMAGE_BYTES;
use crate::queries::borrower::user_doc;
use crate::runtime::state::AppState;
use projections::views::IdImageUrls;

/// The routes of this module.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/jackey/user/identity/apply", post(apply_identity))
        .route("/jackey/user/identity", post(identity_images))
        .route("/files/{*key}", get(serve))
}

/// The OpenAPI description of this module's calls (see [`crate::http::openapi`]).
#[derive(OpenApi)]
#[openapi(paths(apply_identity, identity_images, serve))]
pub struct Doc;

/// Longest side of an uploaded image, in pixels.
const MAX_IMAGE_SIDE: u32 = 12_000;
/// Most memory the decoder may use for one image.
const MAX_DECODED_BYTES: u64 = 256 * 1024 * 1024;

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
    // A small file can declare a huge picture: the decoder is bounded so one upload
    // cannot take the server's memory (a phone photo is about 4000 x 3000).
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_IMAGE_SIDE);
    limits.max_image_height = Some(MAX_IMAGE_SIDE);
    limits.max_alloc = Some(MAX_DECODED_BYTES);
    let mut reader = image::ImageReader::with_format(Cursor::new(bytes), format);
    reader.limits(limits);
    let decoded = reader
        .decode()
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

/// The SHA-256 of `bytes`, lower-case hex (the key and checksum of a stored image).
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// The three ID photos (documentation of the multipart body).
#[derive(ToSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)] // documentation only: the handler reads the parts one by one
struct IdentityUpload {
    /// Front of the ID card, JPEG or PNG under 5 MB.
    #[schema(value_type = String, format = Binary)]
    front_image: Vec<u8>,
    /// Back of the ID card.
    #[schema(value_type = String, format = Binary)]
    back_image: Vec<u8>,
    /// The borrower holding the ID card.
    #[schema(value_type = String, format = Binary)]
    hand_hold_image: Vec<u8>,
}

#[utoipa::path(
    post,
    path = "/jackey/user/identity/apply",
    tag = "borrower account",
    summary = "Submit the three ID photos",
    description = "Checked by content (JPEG or PNG), re-encoded without metadata. 20000 not an \
                   image or 5 MB or more; 10035 does not decode; 10004 a photo is missing or \
                   the body is not multipart; 10006 the identity is already verified.",
    security(("bearer" = [])),
    request_body(content = IdentityUpload, content_type = "multipart/form-data"),
    responses((status = 200, description = "Envelope, `data` null", body = Envelope<Null>))
)]
async fn apply_identity(
    State(state): State<AppState>,
    borrower: Borrower,
    multipart: Result<Multipart, MultipartRejection>,
) -> Result<Response, ApiError> {
    let mut multipart = multipart.map_err(|rejection| {
        ApiError::bad_input(
            "body",
            &format!("multipart/form-data expected: {}", rejection.body_text()),
        )
    })?;
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
        crate::providers::storage::put(&state.storage, &key, clean).await?;
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
    Ok(ok(Null))
}

#[utoipa::path(
    post,
    path = "/jackey/user/identity",
    tag = "borrower account",
    summary = "The ID photos on file",
    description = "`data`: the three ID photos' `/files/{key}` URLs, or null when none were submitted.",
    security(("bearer" = [])),
    responses((status = 200, description = "Envelope with the images", body = Envelope<Option<IdImageUrls>>))
)]
async fn identity_images(
    State(state): State<AppState>,
    borrower: Borrower,
) -> Result<Response, ApiError> {
    Ok(ok(user_doc(&state, borrower.user_id).await?.doc.id_images))
}

/// `GET /files/{key}`: the owner (the user id is the key's second segment) or an auditor.
#[utoipa::path(
    get,
    path = "/files/{key}",
    tag = "files",
    summary = "A stored image",
    description = "To its owner (the key's second segment is the user id) and to auditors. \
                   The key may contain `/` (`id/{user}/front-{sha256}.jpg`). Otherwise the \
                   envelope, like every call: 401 no token, 20001 (or 7) a token that is \
                   no live session, 40007 another borrower's image or no such image.",
    security(("bearer" = [])),
    params(("key" = String, Path, description = "the stored key, as in the image URL")),
    responses(
        (status = 200, description = "The image, or the envelope with the error code", content(
            (Binary = "image/png"),
            (Binary = "image/jpeg"),
            (Envelope<Null> = "application/json")
        ))
    )
)]
async fn serve(
    State(state): State<AppState>,
    key: Result<Path<String>, PathRejection>,
    headers: HeaderMap,
) -> Response {
    // A key that is not even text (bad percent-encoding) names no file.
    let key = key.map(|Path(key)| key).unwrap_or_default();
    match stored_image(&state, &key, &headers).await {
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
        Err(error) => error.into_response(),
    }
}

/// The bytes of `key` for the caller of `headers`. Errors: 401 no token, 20001 or 7
/// for a token that is no live borrower or auditor session, 40007 for a key that is
/// another borrower's, is malformed (`..`, an absolute path, ...) or names nothing.
async fn stored_image(
    state: &AppState,
    key: &str,
    headers: &HeaderMap,
) -> Result<Vec<u8>, ApiError> {
    let not_found = || ApiError::code(ErrorCode::RecordNotFound);
    let token = auth::bearer_of(headers)?;
    let allowed = match auth::resolve(state, &token, TokenKind::Borrower).await {
        Ok(user_id) => key.split('/').nth(1) == Some(user_id.to_string().as_str()),
        // Not a live borrower session: a live auditor one, or the more telling of
        // the two refusals (7 when either kind has expired, else 20001).
        // A staff member's needs a role that may read borrowers' data (issue 55).
        Err(not_a_borrower) => auth::resolve_staff(state, &token)
            .await
            .map_err(|not_an_auditor| {
                if not_a_borrower.code == ErrorCode::SessionExpired {
                    not_a_borrower
                } else {
                    not_an_auditor
                }
            })?
            .may(Some(Access::Needs(Permission::BorrowersRead)))
            .map(|()| true)?,
    };
    if !allowed {
        return Err(not_found());
    }
    crate::providers::storage::get(&state.storage, key)
        .await?
        .ok_or_else(not_found)
}
