//! Amounts on the wire (PRODUCT.md 5, issue 13 item 3): a plain decimal of 1 to 9
//! digits with at most two decimals; an exponent, a sign or spaces are 10004 naming
//! the field, before anything is decided.

use base64::Engine;
use serde_json::json;

use crate::helpers::{on_both_stores, png_photo, TestApp};

on_both_stores!(
    oversized_fields,
    oversized_text_fields_are_refused_naming_the_field_on_sqlite,
    oversized_text_fields_are_refused_naming_the_field_on_postgres
);
on_both_stores!(
    signature_uploads,
    signatures_are_decoded_and_re_encoded_polyglots_and_bombs_refused_on_sqlite,
    signatures_are_decoded_and_re_encoded_polyglots_and_bombs_refused_on_postgres
);
on_both_stores!(
    odd_amounts,
    exponent_and_sign_amounts_are_refused_naming_the_field_on_sqlite,
    exponent_and_sign_amounts_are_refused_naming_the_field_on_postgres
);

async fn oversized_fields(app: TestApp) {
    let token = app.register("09170000602").await;
    let t = Some(token.as_str());
    let cases = [("realName", 61), ("address", 201), ("email", 255)];
    for (field, chars) in cases {
        let value = if field == "email" {
            format!("{}@example.ph", "a".repeat(chars))
        } else {
            "ñ".repeat(chars)
        };
        let refused = app
            .fails("/jackey/user/update", t, json!({ field: value }), 10004)
            .await;
        assert!(
            refused["msg"].as_str().unwrap().contains(field),
            "{refused}"
        );
    }
    // A megabyte of address never reaches the log.
    let huge = json!({"address": "x".repeat(1 << 20)});
    app.fails("/jackey/user/update", t, huge, 10004).await;
    let sql = "select cast(count(*) as text) from events where event_type = $1";
    let updates = app.scalar(sql, "ProfileUpdated").await;
    assert_eq!(updates.as_deref(), Some("0"));
}

const ODD: [&str; 7] = ["1e5", "8E4", "+80000", "1e-2", "-1", "1000000000", "12.345"];

async fn odd_amounts(app: TestApp) {
    let token = app.register("09170000601").await;
    let t = Some(token.as_str());
    for amount in ODD {
        let apply = json!({"amt": amount, "periodDays": 6, "appId": 1});
        let refused = app.fails("/jackey/loan/apply", t, apply, 10004).await;
        assert!(
            refused["msg"].as_str().unwrap().contains("amt"),
            "{refused}"
        );
        let quote = json!({"amt": amount, "periodDays": 6, "appId": 1});
        app.fails("/jackey/loan/quote", t, quote, 10004).await;
        let withdraw = json!({"password": "246810", "withdrawAmount": amount, "bankcard": "x"});
        let refused = app.fails("/jackey/user/withdraw", t, withdraw, 10004).await;
        assert!(
            refused["msg"].as_str().unwrap().contains("withdrawAmount"),
            "{refused}"
        );
    }
    let (_, auditor) = app.auditor("inputs").await;
    for amount in ODD {
        let manual = json!({"orderId": "x", "amount": amount, "reference": "BANK-1"});
        let refused = app
            .fails(
                "/admin/api/repayments/manual",
                Some(&auditor),
                manual,
                10004,
            )
            .await;
        assert!(
            refused["msg"].as_str().unwrap().contains("amount"),
            "{refused}"
        );
    }
    // Nothing was recorded by any refusal.
    let events = app
        .scalar(
            "select cast(count(*) as text) from events where event_type = $1",
            "ApplicationOpened",
        )
        .await;
    assert_eq!(events.as_deref(), Some("0"));
}

/// CRC-32 (ISO-HDLC) of PNG chunks.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xffff_ffff_u32;
    for byte in bytes {
        crc ^= u32::from(*byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

fn chunk(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let mut out = (data.len() as u32).to_be_bytes().to_vec();
    let mut body = kind.to_vec();
    body.extend_from_slice(data);
    out.extend_from_slice(&body);
    out.extend_from_slice(&crc32(&body).to_be_bytes());
    out
}

/// A valid PNG with a GPS text chunk before `IEND` and a script after it.
fn png_with_gps_and_trailer() -> Vec<u8> {
    let png = png_photo();
    let iend = png.len() - 12;
    let mut out = png[..iend].to_vec();
    out.extend(chunk(b"tEXt", b"GPS\x0014.5995N 120.9842E"));
    out.extend_from_slice(&png[iend..]);
    out.extend_from_slice(b"<script>alert(1)</script>");
    out
}

/// A PNG that declares 20000 x 20000 pixels in a few bytes.
fn png_bomb() -> Vec<u8> {
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut header = 20_000_u32.to_be_bytes().to_vec();
    header.extend_from_slice(&20_000_u32.to_be_bytes());
    header.extend_from_slice(&[8, 2, 0, 0, 0]);
    out.extend(chunk(b"IHDR", &header));
    out.extend(chunk(
        b"IDAT",
        &[0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01],
    ));
    out.extend(chunk(b"IEND", &[]));
    out
}

fn data_url(bytes: &[u8]) -> String {
    let encoded = base64::engine::general_purpose::STANDARD.encode(bytes);
    format!("data:image/png;base64,{encoded}")
}

async fn signature_uploads(app: TestApp) {
    let token = app.register("09170000603").await;
    let t = Some(token.as_str());
    let upload = "/jackey/user/signatureImg/upload";
    // A PNG header followed by HTML, and a bomb: refused, nothing stored.
    let mut polyglot = b"\x89PNG\r\n\x1a\n".to_vec();
    polyglot.extend_from_slice(b"<html><script>alert(1)</script></html>");
    for bad in [polyglot, png_bomb()] {
        app.fails(upload, t, json!({"img": data_url(&bad)}), 20000)
            .await;
    }
    // A real PNG carrying GPS text and a trailing script: stored as pixels only.
    app.ok(
        upload,
        t,
        json!({"img": data_url(&png_with_gps_and_trailer())}),
    )
    .await;
    let user_id = app.ok("/jackey/user/info", t, json!({})).await["userId"]
        .as_str()
        .unwrap()
        .to_string();
    let user = app.state.users.load(&user_id).await.unwrap();
    let key = user.signature.expect("a signature on file").key;
    let stored = api::providers::storage::get(&app.state.storage, &key)
        .await
        .unwrap()
        .expect("stored");
    let text = String::from_utf8_lossy(&stored);
    assert!(stored.starts_with(b"\x89PNG"), "still a PNG");
    assert!(
        !text.contains("GPS") && !text.contains("<script>"),
        "{text}"
    );
    assert!(image::load_from_memory(&stored).is_ok(), "it decodes");
}
