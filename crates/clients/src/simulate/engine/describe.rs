//! Describing failures after the run: the few words concerned are replayed
//! from their sources over the routing table, so no per-step positions need to
//! be kept while the run is under way.

use txverify_core::network::Graph;

use super::super::{Failure, MessageRef, SimulationInput};
use super::chunk::StepPlan;

/// Where the word's message from `source` ends, walking the routing table.
fn walk(input: &SimulationInput<'_>, route: &[(u32, u32)], from: u32, letters: &[usize]) -> u32 {
    let n = input.embedding.network().nodes();
    letters
        .iter()
        .fold(from, |y, &s| route[s * n + y as usize].1)
}

/// The earliest-ending word other than `except`, ending no later than `by`,
/// that carries a message from `source` to `destination`.
pub(super) fn find_delivery(
    input: &SimulationInput<'_>,
    route: &[(u32, u32)],
    source: u32,
    destination: u32,
    except: Option<usize>,
    by: usize,
) -> Option<usize> {
    let mut best: Option<(usize, usize)> = None;
    for (i, w) in input.words.iter().enumerate() {
        let end = w.column + w.letters.len() - 1;
        if Some(i) == except || end > by || best.is_some_and(|b| b <= (end, i)) {
            continue;
        }
        if walk(input, route, source, &w.letters) == destination {
            best = Some((end, i));
        }
    }
    best.map(|(_, i)| i)
}

pub(super) fn message_ref(
    input: &SimulationInput<'_>,
    word: usize,
    source: u32,
    destination: u32,
) -> MessageRef {
    let w = &input.words[word];
    MessageRef {
        source,
        destination,
        word: w.text.clone(),
        row: w.row,
        column: w.column,
    }
}

/// Describes the conflict on directed link `link` at this step: replays every
/// word that moves over a letter routed through the link from its tail, from
/// every source, and keeps the messages that stood at the tail.
pub(super) fn describe_conflict(
    input: &SimulationInput<'_>,
    route: &[(u32, u32)],
    plan: &StepPlan,
    link: u32,
) -> Failure {
    let net: &Graph = input.embedding.network();
    let n = net.nodes();
    let (tail, head) = net.endpoints(link);
    let mut users: Vec<(usize, u32)> = Vec::new();
    for &(_, letter, w) in &plan.moves {
        if route[letter as usize * n + tail as usize].0 != link {
            continue;
        }
        let word = &input.words[w];
        let before = &word.letters[..plan.step - word.column];
        for x in 0..n as u32 {
            if walk(input, route, x, before) == tail {
                users.push((w, x));
            }
        }
    }
    users.sort();
    let describe = |&(w, source): &(usize, u32)| {
        let word = &input.words[w];
        message_ref(input, w, source, walk(input, route, source, &word.letters))
    };
    Failure::LinkConflict {
        step: plan.step,
        link,
        from: tail,
        to: head,
        messages: users.len(),
        first: describe(&users[0]),
        second: describe(&users[1.min(users.len() - 1)]),
    }
}
