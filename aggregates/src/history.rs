//! History replay (P9): an aggregate's state after each of its events. The auditor
//! console and `replay-tool history` both use this fold, so there is one way to
//! answer "what did this order look like as of event N".

use cqrs_es::Aggregate;

/// The state after each event, in order: element `k` is the state after event `k + 1`
/// (sequences are 1-based).
pub fn states_after_each<A>(events: impl IntoIterator<Item = A::Event>) -> Vec<A>
where
    A: Aggregate + Clone,
{
    let mut state = A::default();
    events
        .into_iter()
        .map(|event| {
            state.apply(event);
            state.clone()
        })
        .collect()
}

/// The state as of event `sequence` (1-based; 0 gives the empty aggregate; beyond the
/// last event gives the current state).
pub fn state_as_of<A>(events: impl IntoIterator<Item = A::Event>, sequence: usize) -> A
where
    A: Aggregate,
{
    let mut state = A::default();
    for event in events.into_iter().take(sequence) {
        state.apply(event);
    }
    state
}
