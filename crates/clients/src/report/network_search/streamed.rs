//! The total exchange's heuristic run on networks too large to hold its
//! schedule: every schedule streamed to its file, judged as it is written.

use super::*;

/// The share of the deadline kept for replaying and writing the routers'
/// schedule: the time the quick construction's replay and writing took,
/// times this (the routers' schedule has about as many sends), so that it is
/// written by the deadline.
const WRITE_RESERVE: f64 = 1.2;

/// The heuristic's run, streamed ([`stream`]): with a deadline the fast
/// construction ([`sched::heuristic::quick`]) is replayed, judged against
/// the bounds by distance and written first, before the cut search and the
/// LP bound (it is judged again against the best bound at the end); then
/// the cuts, the LP, then the routers of [`sched::heuristic::improve`] (the
/// LP's flow followed among them), stopped early enough to replay and write
/// their best by the deadline (the time the first write took, kept back) or
/// at a signal; their best is written when faster (the deadline or a signal
/// stops that writing too: the file keeps the construction). A stop before
/// the construction is written leaves nothing written (exit 4). Without a deadline
/// (`--heuristic`) the routers of [`sched::heuristic::plan_until`] alone.
pub(super) fn streamed_search(
    request: &NetworkSearchRequest,
    graph: &Graph,
    bounds: EarlyBounds,
    sat_skipped: Option<String>,
    started: Instant,
    events: &mut dyn FnMut(NetworkSearchEvent<'_>),
) -> Outcome {
    let fail = |message: String, status: Status| Err(failure(&request.words, status, message));
    let EarlyBounds {
        mut figures,
        cuts_searched,
        early,
    } = bounds;
    let signalled = || {
        request
            .interrupt
            .as_ref()
            .is_some_and(|i| i.load(Ordering::Relaxed))
    };
    let mut best = Best {
        request,
        started,
        judged: None,
        kept: vec![],
    };
    let mut routers = sched::heuristic::Routers::default();
    let header = sched::exchange_schedule(request.network.clone(), Vec::new());
    let output = request.output.as_deref();
    let header = match output {
        Some(path) => match write::named_for(path, &header) {
            Ok(h) => h,
            Err(message) => return fail(message, Status::Input),
        },
        None => header,
    };
    // Replays, judges and writes `timed`; `None` when `stop` came first
    // (nothing kept, the file as it was).
    let mut offer = |timed: &sched::heuristic::Timed,
                     bound: &NamedBound,
                     best: &mut Best<'_>,
                     stop: &dyn Fn() -> bool|
     -> Result<Option<()>, (String, Status)> {
        let Some(found) = stream::heuristic(graph, timed, &header, bound, output, stop)
            .map_err(|m| (m, Status::Internal))?
        else {
            return Ok(None);
        };
        let judged = Judged {
            schedule: JudgedSchedule::Streamed {
                sends: found.sends,
                replayed: Box::new(found.replayed),
            },
            verdict: found.verdict,
            by_heuristic: true,
        };
        best.offer(judged, events).map_err(|m| (m, Status::Input))?;
        Ok(Some(()))
    };
    let mut quick = None;
    // The time the first schedule's replay and writing took.
    let mut first_write = Duration::ZERO;
    if request.deadline.is_some() {
        let stop = stop_of(request, started);
        let first = sched::heuristic::quick_until(graph, &stop);
        // The first schedule is replayed and written under the same stop: a
        // deadline or a signal that comes before it is whole leaves the file
        // as it was, like one that comes while it is made.
        let written = match &first {
            Some(timed) => {
                routers.ran.push(sched::heuristic::Router::Shortest);
                let writing = Instant::now();
                let offered = offer(timed, &early, &mut best, &stop);
                first_write = writing.elapsed();
                match offered {
                    Ok(written) => written.is_some(),
                    Err((message, status)) => return fail(message, status),
                }
            }
            None => false,
        };
        if !written {
            // Nothing is written; the report says what stopped the run and
            // names every router as cut.
            routers = sched::heuristic::plan_until(graph, None, &|| true, true).1;
            let lp = LpFacts::Skipped(
                "the run was stopped before its first schedule was made and written".into(),
            );
            let run = Run {
                request,
                graph,
                bound: &early,
                lp: &lp,
                flow: None,
                started,
                sat_skipped,
                construction_stopped: stopped_now(request, started),
            };
            return run.report_with(best, None, Some(&routers));
        }
        quick = first;
    }
    if !cuts_searched {
        figures = sched::heuristic::profiled("cut bounds", || figures.with_cuts(graph));
    }
    let deadline = request.deadline.map(|d| started + d);
    // The routers stop early enough for their schedule to be written by the
    // deadline, and at once at a signal.
    let routers_until = deadline.map(|d| {
        d.checked_sub(first_write.mul_f64(WRITE_RESERVE))
            .unwrap_or(started)
            .max(started)
    });
    let routers_stop = || routers_until.is_some_and(|d| Instant::now() >= d) || signalled();
    let lp_until = request
        .deadline
        .map(|d| (started + d / 2).min(routers_until.unwrap_or(started + d)));
    let (lp, lp_solution) = lp_bound(request, graph, &figures, lp_until);
    let bound = figures
        .bound_set_with_lp(Ports::All, lp_solution.as_ref())
        .best()
        .clone();
    let flow = lp_solution.as_ref().and_then(|s| s.per_source.as_deref());
    let found = match quick {
        Some(quick) => {
            let (found, more) = sched::heuristic::improve(graph, quick, flow, &routers_stop);
            routers.ran.extend(more.ran);
            routers.cut = more.cut;
            found
        }
        None => {
            let stop = stop_of(request, started);
            let (found, more) = sched::heuristic::plan_until(graph, flow, &stop, false);
            routers = more;
            found
        }
    };
    let mut write_stopped = false;
    if let Some(timed) = found
        && best.time().is_none_or(|t| timed.time() < t)
    {
        match offer(&timed, &bound, &mut best, &stop_of(request, started)) {
            Ok(Some(())) => {}
            Ok(None) => write_stopped = true,
            Err((message, status)) => return fail(message, status),
        }
    }
    // The schedule kept was judged against the bounds known then: judged
    // again against the best, which the report states.
    if let Some(judged) = best.judged.as_mut()
        && let JudgedSchedule::Streamed { replayed, .. } = &judged.schedule
    {
        let verdict = judge(replayed, Some(bound.clone()), None);
        if verdict.beats_bound() {
            return fail(
                format!(
                    "internal error: the schedule found takes {} steps, fewer than the bound {}",
                    verdict.time(),
                    bound.value()
                ),
                Status::Internal,
            );
        }
        judged.verdict = verdict;
    }
    let cut_by_stop = routers
        .cut
        .iter()
        .any(|&(_, why)| why == sched::heuristic::Cut::Stopped);
    let stopped = (cut_by_stop || write_stopped).then(|| {
        if signalled() {
            Stopped::Requested
        } else {
            Stopped::Deadline
        }
    });
    let run = Run {
        request,
        graph,
        bound: &bound,
        lp: &lp,
        flow,
        started,
        sat_skipped,
        construction_stopped: stopped,
    };
    run.report_with(best, None, Some(&routers))
}
