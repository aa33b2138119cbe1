//! The built web app (`WEB_DIST`, default `web/dist`), served by the api.
//!
//! - Files under the build are served as they are, from the `.br`/`.gz` copies the
//!   build writes beside each text file (web/scripts/precompress.mjs) to browsers
//!   that accept them; `/assets/` names change with their content, so they are
//!   cacheable for a year.
//! - Every other path is the app's page, `index.html`, with 200 (history-mode
//!   fallback: a deep link such as `/detail/<id>` is a page, not an error).
//! - That page names the lender in its first paint: the api writes the lender's legal
//!   name, registration and licence numbers (P14, from the lending configuration) in
//!   place of the `<!--lender-->` marker of index.html's splash, so a borrower on a
//!   slow connection sees who is lending before any script has arrived. It is also
//!   what makes the largest text of the first screen paint with the HTML instead of
//!   after the scripts and a configuration call (issue 15, Lighthouse LCP).
//! - Without a build, `/` serves a start page.

use std::path::Path;
use std::sync::Arc;

use aggregates::pricing::Lender;
use axum::extract::State;
use axum::handler::HandlerWithoutStateExt;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::Router;

/// Where index.html's splash takes the lender's line (web/index.html).
pub const LENDER_MARKER: &str = "<!--lender-->";

/// The page of the web app built in `dist`: its `index.html` with the lender's line
/// ([`first_paint`]); `None` when there is no build.
pub fn page(dist: &Path, lender: &Lender) -> Option<Arc<str>> {
    let index = std::fs::read_to_string(dist.join("index.html")).ok()?;
    Some(first_paint(&index, lender).into())
}

/// The router with the web app of `dist` added (`page` at `/` and at every path
/// without a file, the files of the build), or the start page without a build. Two
/// layers of [`crate::app`] complete it: [`index_html`] and [`cache_policy`].
pub fn with_web_app(router: Router, dist: &Path, page: Option<Arc<str>>) -> Router {
    let Some(page) = page else {
        return router.route("/", get(start_page));
    };
    let serve_page = move || {
        let page = page.clone();
        async move { page_response(&page) }
    };
    let files = tower_http::services::ServeDir::new(dist)
        .precompressed_br()
        .precompressed_gzip()
        .fallback(serve_page.clone().into_service());
    router
        // ServeDir would answer `/` with the file as built, without the lender.
        .route("/", get(serve_page))
        .fallback_service(files)
}

/// Answers `/index.html` with `page` too (not a route of its own: the router serves no
/// other file by name, and ServeDir would send the file as built, without the lender).
pub async fn index_html(
    State(page): State<Option<Arc<str>>>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    match page {
        Some(page) if request.uri().path() == "/index.html" => page_response(&page),
        _ => next.run(request).await,
    }
}

/// index.html with the lender's line in its splash (HTML-escaped). A page without
/// the marker is returned unchanged.
pub fn first_paint(index: &str, lender: &Lender) -> String {
    let line = format!(
        r#"<p class="boot__lender">{} · Reg. No. {} · {}</p>"#,
        escape(&lender.legal_name),
        escape(&lender.registration_no),
        escape(&lender.licence_no)
    );
    index.replacen(LENDER_MARKER, &line, 1)
}

/// The page as HTML that the browser revalidates on every visit (a new release
/// shows at once). Sent uncompressed: it is about 3 KB, written per configuration.
fn page_response(page: &str) -> Response {
    let mut response = Html(page.to_owned()).into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

/// Text for an HTML element's content: `&`, `<`, `>` and quotes escaped.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Vite names every file under `/assets/` after its content, so a browser may keep
/// it for a year without asking again; everything else (index.html, the API) keeps
/// the default, so a new release is picked up at the next visit.
pub async fn cache_policy(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let immutable = request.uri().path().starts_with("/assets/");
    let mut response = next.run(request).await;
    if immutable && response.status() == StatusCode::OK {
        response.headers_mut().insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static("public, max-age=31536000, immutable"),
        );
    }
    response
}

async fn start_page() -> Html<&'static str> {
    Html(include_str!("start_page.html"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lender(name: &str) -> Lender {
        Lender {
            legal_name: name.to_string(),
            registration_no: "CS201912345".to_string(),
            licence_no: "SEC CA No. 3120".to_string(),
        }
    }

    #[test]
    fn the_splash_names_the_lender() {
        let page = first_paint(
            "<div class=\"boot\"><!--lender--></div>",
            &lender("Honest Lending Corporation"),
        );
        assert_eq!(
            page,
            "<div class=\"boot\"><p class=\"boot__lender\">Honest Lending Corporation · Reg. No. CS201912345 · SEC CA No. 3120</p></div>"
        );
    }

    #[test]
    fn the_lender_is_text_not_markup() {
        let page = first_paint("<!--lender-->", &lender("A&B <script>alert(1)</script>"));
        assert!(
            page.contains("A&amp;B &lt;script&gt;alert(1)&lt;/script&gt;"),
            "{page}"
        );
        assert!(!page.contains("<script>"));
    }

    #[test]
    fn a_page_without_the_marker_is_unchanged() {
        assert_eq!(first_paint("<html></html>", &lender("X")), "<html></html>");
    }
}
