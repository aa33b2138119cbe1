//! A tiny aggregate for exercising the store without the domain crate.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use cqrs_es::event_sink::EventSink;
use cqrs_es::{Aggregate, DomainEvent};
use serde::{Deserialize, Serialize};
use tokio::sync::Barrier;

/// Counts up; every increment is an event.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
pub struct Counter {
    pub value: i64,
}

#[derive(Debug, Clone)]
pub enum CounterCommand {
    /// One `Incremented` event.
    Increment { by: i64 },
    /// One `Incremented` event per step, all in one commit; no steps, no events.
    IncrementEach { steps: Vec<i64> },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum CounterEvent {
    Incremented { by: i64 },
}

#[derive(Debug, PartialEq, thiserror::Error)]
pub enum CounterError {
    #[error("an increment must not be zero")]
    ZeroIncrement,
}

/// Counts `handle` calls and can hold the first few of them at a barrier, so that
/// they all decide from the same loaded version before any of them commits.
#[derive(Debug, Clone, Default)]
pub struct CounterServices {
    rendezvous: Option<Arc<Rendezvous>>,
    meeting: Option<Arc<Barrier>>,
    handle_calls: Arc<AtomicUsize>,
}

#[derive(Debug)]
struct Rendezvous {
    barrier: Barrier,
    parties: usize,
}

impl CounterServices {
    /// Every `handle` call proceeds at once.
    pub fn plain() -> Self {
        Self::default()
    }

    /// The first `parties` calls to `handle` (which happen after their aggregate was
    /// loaded) wait for each other; later calls proceed at once.
    pub fn rendezvous(parties: usize) -> Self {
        Self {
            rendezvous: Some(Arc::new(Rendezvous {
                barrier: Barrier::new(parties),
                parties,
            })),
            ..Self::default()
        }
    }

    /// The first call to `handle` meets the test at `meeting` (a barrier of two)
    /// twice: once when its aggregate is loaded, and again before it decides, so that
    /// the test can act in between.
    pub fn meeting(meeting: Arc<Barrier>) -> Self {
        Self {
            meeting: Some(meeting),
            ..Self::default()
        }
    }

    /// How many times `handle` has run with these services (or a clone of them).
    pub fn handle_calls(&self) -> usize {
        self.handle_calls.load(Ordering::SeqCst)
    }
}

impl DomainEvent for CounterEvent {
    fn event_type(&self) -> String {
        match self {
            Self::Incremented { .. } => "Incremented".to_owned(),
        }
    }

    fn event_version(&self) -> String {
        "1.0".to_owned()
    }
}

impl Aggregate for Counter {
    const TYPE: &'static str = "Counter";
    type Command = CounterCommand;
    type Event = CounterEvent;
    type Error = CounterError;
    type Services = CounterServices;

    async fn handle(
        &mut self,
        command: Self::Command,
        services: &Self::Services,
        sink: &EventSink<Self>,
    ) -> Result<(), Self::Error> {
        let call = services.handle_calls.fetch_add(1, Ordering::SeqCst);
        if let Some(rendezvous) = &services.rendezvous {
            if call < rendezvous.parties {
                rendezvous.barrier.wait().await;
            }
        }
        if let Some(meeting) = services.meeting.as_ref().filter(|_| call == 0) {
            meeting.wait().await;
            meeting.wait().await;
        }
        let steps = match command {
            CounterCommand::Increment { by } => vec![by],
            CounterCommand::IncrementEach { steps } => steps,
        };
        // Refuses at the first zero, after the earlier steps are already in the sink.
        for by in steps {
            if by == 0 {
                return Err(CounterError::ZeroIncrement);
            }
            sink.write(CounterEvent::Incremented { by }, self).await;
        }
        Ok(())
    }

    fn apply(&mut self, event: Self::Event) {
        match event {
            CounterEvent::Incremented { by } => self.value += by,
        }
    }
}
