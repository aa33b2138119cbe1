//! Who caused an event: written into every event's metadata as `actor`
//! (`user:<id>`, `auditor:<id>`, `system`, DESIGN.md "Aggregates and events"),
//! and carried inside the commands whose rules depend on it (P2, P3: only the
//! borrower may set a PIN or bind a bank account).

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;
use uuid::Uuid;

/// The author of a command. Serialized as `user:<uuid>`, `auditor:<uuid>` or `system`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Actor {
    /// A borrower acting on their own account.
    User(Uuid),
    /// A loan officer (auditor) in the back office.
    Auditor(Uuid),
    /// The platform itself: the scheduler, a process manager, a provider callback.
    System,
}

impl Actor {
    /// The metadata map every committed event carries (DESIGN.md): `actor`,
    /// `request_id`, and `idempotency_key` when the request had one.
    pub fn metadata(
        self,
        request_id: &str,
        idempotency_key: Option<&str>,
    ) -> std::collections::HashMap<String, String> {
        let mut map = std::collections::HashMap::new();
        map.insert("actor".to_string(), self.to_string());
        map.insert("request_id".to_string(), request_id.to_string());
        if let Some(key) = idempotency_key {
            map.insert("idempotency_key".to_string(), key.to_string());
        }
        map
    }
}

impl fmt::Display for Actor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Actor::User(id) => write!(f, "user:{id}"),
            Actor::Auditor(id) => write!(f, "auditor:{id}"),
            Actor::System => f.write_str("system"),
        }
    }
}

/// The text was not `user:<uuid>`, `auditor:<uuid>` or `system`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not an actor: {0}")]
pub struct ParseActorError(String);

impl FromStr for Actor {
    type Err = ParseActorError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || ParseActorError(s.to_string());
        if s == "system" {
            return Ok(Actor::System);
        }
        let (kind, id) = s.split_once(':').ok_or_else(bad)?;
        let id = Uuid::parse_str(id).map_err(|_| bad())?;
        match kind {
            "user" => Ok(Actor::User(id)),
            "auditor" => Ok(Actor::Auditor(id)),
            _ => Err(bad()),
        }
    }
}

impl Serialize for Actor {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Actor {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actors_round_trip_through_their_wire_form() {
        let id = Uuid::now_v7();
        for actor in [Actor::User(id), Actor::Auditor(id), Actor::System] {
            assert_eq!(actor.to_string().parse::<Actor>(), Ok(actor));
        }
        assert!("staff:1".parse::<Actor>().is_err());
        assert!("user:not-a-uuid".parse::<Actor>().is_err());
    }
}
