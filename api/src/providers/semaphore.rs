//! Semaphore (<https://semaphore.co/docs>), a Philippine SMS gateway:
//! `POST /api/v4/messages` with the form fields `apikey`, `number`, `message` and,
//! when the lender registered one, `sendername`. A 2xx answer means the gateway took
//! the message; anything else, or no answer in time, is a failure the outbox relay
//! retries ([`crate::workflows::sms_relay`]).

use secrecy::ExposeSecret;

use crate::config::SemaphoreSettings;
use crate::workflows::sms_relay::SmsSender;

/// A Semaphore account.
pub struct Semaphore {
    settings: SemaphoreSettings,
    http: reqwest::Client,
}

impl Semaphore {
    /// A client for `settings`.
    pub fn new(settings: SemaphoreSettings) -> Self {
        let http = reqwest::Client::builder()
            .timeout(super::CALL_TIMEOUT)
            .build()
            .expect("an HTTP client");
        Self { settings, http }
    }
}

#[async_trait::async_trait]
impl SmsSender for Semaphore {
    async fn send(&self, mobile: &str, body: &str) -> Result<(), String> {
        let url = format!(
            "{}/api/v4/messages",
            self.settings.base_url.trim_end_matches('/')
        );
        let mut form = vec![
            ("apikey", self.settings.api_key.expose_secret()),
            ("number", mobile),
            ("message", body),
        ];
        if let Some(sender) = &self.settings.sender_name {
            form.push(("sendername", sender));
        }
        let answer = self
            .http
            .post(url)
            .form(&form)
            .send()
            .await
            .map_err(|e| format!("semaphore unreachable: {}", e.without_url()))?;
        let status = answer.status();
        if status.is_success() {
            Ok(())
        } else {
            Err(format!("semaphore answered {status}"))
        }
    }
}
