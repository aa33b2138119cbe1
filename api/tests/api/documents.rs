//! The PDF documents (PRODUCT.md 12.5): a loan paid out, repaid with a payment page
//! and a bank transfer an auditor records, and a late page paid after it closed
//! (refunded). Each PDF is downloaded over HTTP and read back with a PDF text
//! extractor: the contract carries the amounts, the schedule, the lender's licence
//! and the SHA-256 of the disclosure the borrower signed; there is a receipt per
//! payment and per refund; the statement lists the postings and the balance; another
//! borrower is refused; every download is recorded.

use axum::body::Body;
use axum::http::Request;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use tower::ServiceExt;

use crate::helpers::{on_both_stores, TestApp};

on_both_stores!(
    documents_journey,
    contract_receipts_and_statement_pdfs_carry_the_facts_on_sqlite,
    contract_receipts_and_statement_pdfs_carry_the_facts_on_postgres
);

/// POSTs `body` to `path` with `token`: the PDF's bytes, or the envelope.
pub async fn pdf(app: &TestApp, path: &str, token: &str, body: Value) -> Result<Vec<u8>, Value> {
    let request = Request::post(path)
        .header("content-type", "application/json")
        .header("authorization", format!("Bearer {token}"))
        .body(Body::from(body.to_string()))
        .unwrap();
    let response = app.router.clone().oneshot(request).await.unwrap();
    let content_type = response
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    if content_type == "application/pdf" {
        Ok(bytes.to_vec())
    } else {
        Err(serde_json::from_slice(&bytes).unwrap())
    }
}

/// The text of a PDF, as a reader extracts it.
pub fn text_of(bytes: &[u8]) -> String {
    assert!(bytes.starts_with(b"%PDF-"), "not a PDF");
    pdf_extract::extract_text_from_mem(bytes).expect("the PDF's text can be extracted")
}

/// An amount of the API (`"100000.00"`) as the documents print it: `100,000.00`.
fn grouped(amount: &str) -> String {
    aggregates::money::grouped(amount.parse().unwrap())
}

/// `text` without any whitespace (a long value may wrap onto two lines).
fn squeezed(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

/// Canonical JSON (keys sorted, no spaces), written here independently of the api.
fn canonical(value: &Value) -> String {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<_> = map.keys().collect();
            keys.sort();
            let fields: Vec<String> = keys
                .iter()
                .map(|k| format!("{}:{}", Value::String((*k).clone()), canonical(&map[*k])))
                .collect();
            format!("{{{}}}", fields.join(","))
        }
        Value::Array(items) => format!(
            "[{}]",
            items.iter().map(canonical).collect::<Vec<_>>().join(",")
        ),
        other => other.to_string(),
    }
}

async fn documents_journey(app: TestApp) {
    let (token, user_id) = app.qualified_borrower("09175550001").await;
    let t = Some(token.as_str());
    let company = app
        .ok("/jackey/loan/getAllCompanyConfigs", None, json!({}))
        .await;
    let licence = company["lender"]["licence_no"]
        .as_str()
        .unwrap()
        .to_string();
    let lender = company["lender"]["legal_name"]
        .as_str()
        .unwrap()
        .to_string();

    // Sign and apply: the disclosure the borrower saw is the one the contract hashes.
    let terms = json!({"amt": "100000", "periodDays": 6, "appId": 1, "configId": 1});
    let quote = app.ok("/jackey/loan/quote", None, terms.clone()).await;
    let order_id = app.ok("/jackey/loan/apply", t, terms).await["loanOrderId"]
        .as_str()
        .unwrap()
        .to_string();
    let applied = app
        .ok(
            "/jackey/loan/orderInfo",
            t,
            json!({ "loanOrderId": order_id }),
        )
        .await;
    assert_eq!(
        applied["disclosure"], quote,
        "the order keeps the disclosure shown"
    );
    let signed_hash = hex::encode(Sha256::digest(canonical(&quote).as_bytes()));
    let order_no = applied["orderNo"].as_str().unwrap().to_string();
    assert!(order_no.starts_with("HL-"), "{order_no}");

    // Approved, 10,000 paid out: 10,000 closes it today (cooling-off).
    app.approve(&token, &order_id).await;
    let withdraw = json!({"password": "246810", "withdrawAmount": "10000", "bankcard": "x", "loanOrderId": order_id});
    app.ok("/jackey/user/withdraw", t, withdraw).await;
    let disbursed = app.wait_status(&token, &order_id, 4).await;
    let total_repay = disbursed["totalRepay"].as_str().unwrap().to_string();

    // Two pages of 5,000; the first is paid, an auditor records a 5,000 bank transfer
    // that closes the loan, then the second page is paid late and refunded.
    let page = |amount: &str| json!({ "amt": amount });
    let first = app.ok("/jackey/loan/recharge", t, page("5000")).await;
    let second = app.ok("/jackey/loan/recharge", t, page("5000")).await;
    let (first, second) = (first.as_str().unwrap(), second.as_str().unwrap());
    app.press(first, "outcome=paid").await;
    app.wait_order(&token, &order_id, "repaid", json!("5000.00"))
        .await;
    let (auditor_id, auditor) = app.auditor("documents-officer").await;
    let s = Some(auditor.as_str());
    let manual = json!({"orderId": order_id, "amount": "5000", "reference": "BANK-77"});
    app.ok("/admin/api/repayments/manual", s, manual).await;
    app.wait_status(&token, &order_id, 10).await;
    app.press(second, "outcome=paid").await;
    app.quiesce().await;

    // A receipt per payment (three) and per refund (one).
    let id = json!({ "loanOrderId": order_id });
    let receipts = app.ok("/jackey/loan/receipts", t, id.clone()).await;
    let receipts = receipts.as_array().unwrap().clone();
    let kinds: Vec<(&str, &str, &str, &str)> = receipts
        .iter()
        .map(|r| {
            (
                r["kind"].as_str().unwrap(),
                r["amount"].as_str().unwrap(),
                r["applied"].as_str().unwrap(),
                r["refunded"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        kinds,
        vec![
            ("payment", "5000.00", "5000.00", "0.00"),
            ("payment", "5000.00", "5000.00", "0.00"),
            ("payment", "5000.00", "0.00", "5000.00"),
            ("refund", "5000.00", "0.00", "0.00"),
        ],
        "{receipts:?}"
    );
    assert_eq!(
        receipts
            .iter()
            .map(|r| r["channel"].clone())
            .collect::<Vec<_>>(),
        vec![
            json!("online"),
            json!("manual"),
            json!("online"),
            Value::Null
        ]
    );
    assert_eq!(
        receipts[3]["status"], "paid",
        "the sandbox bank confirmed the refund"
    );
    assert_eq!(receipts[3]["forReceiptNo"], receipts[2]["receiptNo"]);
    let auditor_view = app
        .ok(
            "/admin/api/documents/receipts",
            s,
            json!({ "orderId": order_id }),
        )
        .await;
    assert_eq!(auditor_view.as_array().unwrap(), &receipts);

    // The contract: parties, the disclosure as signed, the schedule, the loan as paid
    // out, the signature's facts and the disclosure's hash.
    let contract = pdf(&app, "/jackey/loan/contractPdf", &token, id.clone())
        .await
        .unwrap();
    assert!(
        contract.len() < 400_000,
        "the CJK font is subset, not embedded whole: {} bytes",
        contract.len()
    );
    let text = text_of(&contract);
    let flat = squeezed(&text);
    for expected in [
        "Loan Contract",
        &order_no,
        &lender,
        &licence,
        "Ana Santos",
        "Repayment schedule",
        "Day 6 after payout",
        "SHA-256 of the signed disclosure",
        "We never ask you to pay to receive a loan.",
    ] {
        assert!(
            text.contains(expected),
            "contract lacks {expected:?}:\n{text}"
        );
    }
    for amount in [
        quote["principal"].as_str().unwrap(),
        quote["interest"].as_str().unwrap(),
        quote["totalRepayable"].as_str().unwrap(),
        disbursed["principal"].as_str().unwrap(),
        &total_repay,
    ] {
        let amount = grouped(amount);
        assert!(flat.contains(&amount), "contract lacks {amount}:\n{text}");
    }
    for line in quote["schedule"].as_array().unwrap() {
        let amount = grouped(line["amount"].as_str().unwrap());
        assert!(
            flat.contains(&amount),
            "schedule line {line} missing:\n{text}"
        );
    }
    for line in disbursed["periodViews"].as_array().unwrap() {
        let due = line["dueDate"].as_str().unwrap();
        assert!(flat.contains(due), "paid-out schedule lacks {due}:\n{text}");
    }
    assert!(
        flat.contains(&signed_hash),
        "contract lacks the hash {signed_hash}:\n{text}"
    );

    // In Chinese when asked (the body's lang, or Accept-Language).
    let zh = pdf(
        &app,
        "/jackey/loan/contractPdf",
        &token,
        json!({ "loanOrderId": order_id, "lang": "zh" }),
    )
    .await
    .unwrap();
    let zh_text = text_of(&zh);
    for expected in ["借款合同", "还款计划", "已签署披露声明的 SHA-256", &licence] {
        assert!(
            zh_text.contains(expected),
            "zh contract lacks {expected:?}:\n{zh_text}"
        );
    }
    assert!(squeezed(&zh_text).contains(&signed_hash));

    // In Filipino (issue 16: the documents in the borrower app's third language).
    let fil = pdf(
        &app,
        "/jackey/loan/contractPdf",
        &token,
        json!({ "loanOrderId": order_id, "lang": "fil" }),
    )
    .await
    .unwrap();
    let fil_text = text_of(&fil);
    for expected in ["Kontrata ng Pautang", "Iskedyul ng pagbabayad", &licence] {
        assert!(
            fil_text.contains(expected),
            "fil contract lacks {expected:?}:\n{fil_text}"
        );
    }
    assert!(squeezed(&fil_text).contains(&signed_hash));

    // Each receipt names its number, the order, the amount, the lender's licence and
    // the disclosure's hash; the refund says so.
    for receipt in &receipts {
        let number = receipt["receiptNo"].as_str().unwrap();
        let body = json!({ "loanOrderId": order_id, "receiptNo": number });
        let bytes = pdf(&app, "/jackey/loan/receiptPdf", &token, body)
            .await
            .unwrap();
        let text = text_of(&bytes);
        let flat = squeezed(&text);
        let title = if receipt["kind"] == "refund" {
            "Refund Receipt"
        } else {
            "Official Receipt"
        };
        // Amounts grouped in threes after the currency; times in the lender's zone.
        for expected in [
            title,
            number,
            &order_no,
            &licence,
            "PHP 5,000.00",
            "Asia/Manila (UTC+08:00)",
        ] {
            assert!(
                text.contains(expected),
                "receipt {number} lacks {expected:?}:\n{text}"
            );
        }
        assert!(
            flat.contains(&signed_hash),
            "receipt {number} lacks the hash:\n{text}"
        );
        if receipt["channel"] == "manual" {
            assert!(text.contains("BANK-77"), "{text}");
        }
        if receipt["kind"] == "refund" {
            assert!(text.contains("Confirmed by the bank"), "{text}");
        }
    }

    // The statement: the borrower's movements with the balance owed after each, down
    // to zero, and every payment and refund; none of the lender's own accounts.
    let statement = pdf(&app, "/jackey/loan/statementPdf", &token, id.clone())
        .await
        .unwrap();
    let text = text_of(&statement);
    let flat = squeezed(&text);
    for expected in [
        "Statement of Account",
        "Your loan",
        "Loan paid out to your bank",
        "Payment applied to your loan",
        "Payments and refunds",
        "applied to installments 1",
        "refunded as not owed",
        "Refund to your bank: Confirmed by the bank",
        "Asia/Manila (UTC+08:00)",
        &licence,
    ] {
        assert!(
            squeezed(&text).contains(&squeezed(expected)),
            "statement lacks {expected:?}:\n{text}"
        );
    }
    for lender_only in [
        "Lender cash",
        "Interest income",
        "Fee income",
        "in transit",
        "UTC)",
    ] {
        assert!(
            !text.contains(lender_only) || lender_only == "UTC)" && text.contains("(UTC+08:00)"),
            "the statement lists the lender's {lender_only:?}:\n{text}"
        );
    }
    for receipt in &receipts {
        let number = receipt["receiptNo"].as_str().unwrap();
        assert!(
            text.contains(number),
            "statement lacks receipt {number}:\n{text}"
        );
    }
    let charge = grouped(&total_repay);
    assert!(
        flat.contains(&charge),
        "statement lacks the charge {charge}:\n{text}"
    );
    assert!(flat.contains("BalanceowednowPHP0.00"), "{text}");
    assert!(flat.contains("PaymentsreceivedPHP15,000.00"), "{text}");
    assert!(flat.contains("RefundedtoyouPHP5,000.00"), "{text}");
    assert!(flat.contains(&signed_hash));

    // Another borrower gets the not-found answer for this order's documents.
    let (other, _) = app.qualified_borrower("09175550002").await;
    for path in [
        "/jackey/loan/contractPdf",
        "/jackey/loan/statementPdf",
        "/jackey/loan/receipts",
    ] {
        let refused = pdf(&app, path, &other, id.clone()).await.unwrap_err();
        assert_eq!(refused["code"], 40007, "{path}: {refused}");
    }
    let theirs = json!({ "loanOrderId": order_id, "receiptNo": receipts[0]["receiptNo"] });
    let refused = pdf(&app, "/jackey/loan/receiptPdf", &other, theirs)
        .await
        .unwrap_err();
    assert_eq!(refused["code"], 40007, "{refused}");

    // Bad input answers the envelope, never a server error.
    for (path, body, code) in [
        (
            "/jackey/loan/receiptPdf",
            json!({"loanOrderId": order_id, "receiptNo": "nope"}),
            10004,
        ),
        (
            "/jackey/loan/receiptPdf",
            json!({"loanOrderId": order_id, "receiptNo": "OR-2601-999999"}),
            40007,
        ),
        (
            "/jackey/loan/receiptPdf",
            json!({"loanOrderId": order_id}),
            10004,
        ),
        (
            "/jackey/loan/contractPdf",
            json!({"loanOrderId": "not-a-uuid"}),
            40007,
        ),
        (
            "/jackey/loan/contractPdf",
            json!({"loanOrderId": order_id, "lang": "xx"}),
            10004,
        ),
        (
            "/jackey/loan/statementPdf",
            json!({"loanOrderId": 7}),
            10004,
        ),
    ] {
        let answer = pdf(&app, path, &token, body.clone()).await.unwrap_err();
        assert_eq!(answer["code"], code, "{path} {body}: {answer}");
    }
    for (path, body, code) in [
        (
            "/admin/api/documents/contractPdf",
            json!({"orderId": "nope"}),
            40007,
        ),
        (
            "/admin/api/documents/receiptPdf",
            json!({"orderId": order_id, "receiptNo": "RF-1"}),
            10004,
        ),
        ("/admin/api/documents/statementPdf", json!({}), 10004),
    ] {
        let answer = pdf(&app, path, &auditor, body.clone()).await.unwrap_err();
        assert_eq!(answer["code"], code, "{path} {body}: {answer}");
    }
    // A borrower's token opens no auditor document, an auditor's no borrower one.
    let answer = pdf(
        &app,
        "/admin/api/documents/contractPdf",
        &token,
        json!({"orderId": order_id}),
    )
    .await
    .unwrap_err();
    assert_eq!(answer["code"], 20001, "{answer}");

    // Auditors download any order's documents, in their language.
    let order = json!({ "orderId": order_id, "lang": "zh" });
    let zh_statement = pdf(
        &app,
        "/admin/api/documents/statementPdf",
        &auditor,
        order.clone(),
    )
    .await
    .unwrap();
    assert!(text_of(&zh_statement).contains("账户对账单"));
    let contract = pdf(&app, "/admin/api/documents/contractPdf", &auditor, order)
        .await
        .unwrap();
    assert!(squeezed(&text_of(&contract)).contains(&signed_hash));
    let refund_no = receipts[3]["receiptNo"].as_str().unwrap();
    let body = json!({ "orderId": order_id, "receiptNo": refund_no });
    pdf(&app, "/admin/api/documents/receiptPdf", &auditor, body)
        .await
        .unwrap();

    // Every download is recorded: who, which document, which order, when.
    let downloads = app
        .ok(
            "/admin/api/documents/downloads",
            s,
            json!({ "orderId": order_id }),
        )
        .await;
    let downloads = downloads.as_array().unwrap();
    let seen: Vec<(String, String, String)> = downloads
        .iter()
        .map(|d| {
            (
                d["actor"].as_str().unwrap().to_string(),
                d["document"].as_str().unwrap().to_string(),
                d["receiptNo"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    let borrower = format!("user:{user_id}");
    let officer = format!("auditor:{auditor_id}");
    // The contract in English, Chinese and Filipino.
    let mut expected = vec![
        (borrower.clone(), "contract".to_string(), String::new()),
        (borrower.clone(), "contract".to_string(), String::new()),
        (borrower.clone(), "contract".to_string(), String::new()),
    ];
    for receipt in &receipts {
        let number = receipt["receiptNo"].as_str().unwrap().to_string();
        expected.push((borrower.clone(), "receipt".to_string(), number));
    }
    expected.push((borrower.clone(), "statement".to_string(), String::new()));
    expected.push((officer.clone(), "statement".to_string(), String::new()));
    expected.push((officer.clone(), "contract".to_string(), String::new()));
    expected.push((
        officer.clone(),
        "receipt".to_string(),
        refund_no.to_string(),
    ));
    assert_eq!(seen, expected, "refusals are not downloads: {downloads:?}");
    assert_eq!(downloads[1]["lang"], "zh");
    assert_eq!(downloads[2]["lang"], "fil");
    assert_eq!(downloads.last().unwrap()["actorName"], "documents-officer");
    assert!(downloads
        .iter()
        .all(|d| d["at"].as_str().unwrap().ends_with('Z')));

    if let Ok(dir) = std::env::var("DOCUMENTS_OUT") {
        // For looking at them: DOCUMENTS_OUT=/tmp/pdfs cargo test -p api --test api documents
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(format!("{dir}/contract-zh.pdf"), &zh).unwrap();
        std::fs::write(format!("{dir}/statement-zh.pdf"), &zh_statement).unwrap();
        let en = pdf(&app, "/jackey/loan/contractPdf", &token, id.clone())
            .await
            .unwrap();
        std::fs::write(format!("{dir}/contract-en.pdf"), en).unwrap();
        std::fs::write(format!("{dir}/statement-en.pdf"), &statement).unwrap();
        for receipt in &receipts {
            let number = receipt["receiptNo"].as_str().unwrap();
            let body = json!({ "loanOrderId": order_id, "receiptNo": number });
            let bytes = pdf(&app, "/jackey/loan/receiptPdf", &token, body)
                .await
                .unwrap();
            std::fs::write(format!("{dir}/receipt-{number}.pdf"), bytes).unwrap();
        }
    }
}
