//! `replay-tool`: the operators' and auditors' tool over the event log — `rebuild`
//! read models, print an order's `history` as of any event, `verify` the ledger and
//! the read models, `export` an order for a regulator (DESIGN.md "replay-tool").
//!
//! The commands arrive with the projections (issue 3); until then this binary only
//! says so, and exits non-zero so no script mistakes it for a finished run.

fn main() -> std::process::ExitCode {
    eprintln!(
        "replay-tool: rebuild, history, verify and export are not available yet; \
         they arrive with the read models and the ledger."
    );
    std::process::ExitCode::from(2)
}
