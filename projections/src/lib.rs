//! The read side and the event store plumbing shared by the api, the projection
//! workers and the replay tool (DESIGN.md "Stores", "Read models").

pub mod store;
