//! Logging and, optionally, trace export (issue 17 item 2).
//!
//! Log lines go to standard error (`RUST_LOG`, default `info`). When
//! `OTEL_EXPORTER_OTLP_ENDPOINT` is set, every span (each request's, with its
//! `request_id`; each workflow step's) is also exported over OTLP/HTTP (protobuf) to
//! that collector, in batches from a background thread (the standard `OTEL_*`
//! variables tune it, e.g. `OTEL_BSP_SCHEDULE_DELAY`), as service `loan-api`. Without
//! it nothing is exported and no exporter is built.

use opentelemetry::trace::TracerProvider as _;
use opentelemetry_sdk::trace::SdkTracerProvider;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

/// The service name exported spans carry.
pub const SERVICE_NAME: &str = "loan-api";

/// Keeps the exporter alive; dropping it flushes the spans not yet sent.
pub struct Telemetry {
    provider: Option<SdkTracerProvider>,
}

impl Drop for Telemetry {
    fn drop(&mut self) {
        if let Some(provider) = self.provider.take() {
            if let Err(error) = provider.shutdown() {
                eprintln!("trace export: could not flush at exit: {error}");
            }
        }
    }
}

/// Installs the process's subscriber: the log lines, plus the OTLP layer when
/// `OTEL_EXPORTER_OTLP_ENDPOINT` is set. An exporter that cannot be built is said on
/// standard error and left out (the server still runs and logs).
pub fn init() -> Telemetry {
    let filter = crate::config::log_filter();
    let logs = tracing_subscriber::fmt::layer();
    let provider = crate::config::otlp_endpoint().and_then(|endpoint| {
        let exporter = opentelemetry_otlp::SpanExporter::builder()
            .with_http()
            .build()
            .map_err(|error| eprintln!("trace export to {endpoint} off: {error}"))
            .ok()?;
        let resource = opentelemetry_sdk::Resource::builder()
            .with_service_name(SERVICE_NAME)
            .build();
        Some(
            SdkTracerProvider::builder()
                .with_batch_exporter(exporter)
                .with_resource(resource)
                .build(),
        )
    });
    let otel = provider
        .as_ref()
        .map(|provider| tracing_opentelemetry::layer().with_tracer(provider.tracer(SERVICE_NAME)));
    tracing_subscriber::registry()
        .with(filter)
        .with(logs)
        .with(otel)
        .init();
    Telemetry { provider }
}
