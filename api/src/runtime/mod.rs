//! What a running api process holds: the state every handler shares ([`state`]), the
//! real clock and password hasher the aggregates are given ([`services`]), and logging
//! and trace export ([`telemetry`]).

pub mod services;
pub mod state;
pub mod telemetry;
