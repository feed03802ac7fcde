//! The result of checking an MSCCL program, as text and as JSON (schema
//! `txverify-msccl/1`, docs/json.md).

use super::Check;
use super::execute::Finding;
use serde_json::{Value, json};

/// The JSON schema name.
pub const SCHEMA: &str = "txverify-msccl/1";

/// One finding as a sentence: where, then why.
pub fn finding_sentence(mode: &str, f: &Finding) -> String {
    let mut at = format!("GPU {}", f.gpu);
    if let Some(tb) = f.tb {
        at.push_str(&format!(", thread block {tb}"));
    }
    if let Some(step) = f.step {
        at.push_str(&format!(", step {step}"));
    }
    if let Some(pos) = f.pos {
        at.push_str(&format!(" (line {}, column {})", pos.line, pos.col));
    }
    if let Some((buf, i)) = f.slot {
        at.push_str(&format!(", chunk {}[{i}]", buf.letter()));
    }
    format!("{at}, {mode}: {}", f.message)
}

/// The text report of `check` on file `path`.
pub fn text(path: &str, check: &Check) -> String {
    let mut out = String::new();
    let verdict = if check.valid() {
        "VALID"
    } else if check.undecided.is_some() {
        "NOT CHECKED"
    } else {
        "INVALID"
    };
    let coll = check.collective.map_or(check.coll.as_str(), |c| c.name());
    out.push_str(&format!(
        "{path}: {verdict} MSCCL {coll} on {} GPUs (\"{}\", {})\n",
        check.ngpus, check.name, check.proto
    ));
    if let Some(reason) = check.reason() {
        out.push_str(&format!("  reason: {reason}\n"));
    }
    for p in check.problems.iter().skip(1).take(9) {
        out.push_str(&format!("  also: {}: {}\n", p.pos, p.message));
    }
    if check.problems.len() > 10 {
        out.push_str(&format!(
            "  … and {} more problems\n",
            check.problems.len() - 10
        ));
    }
    if !check.problems.is_empty() {
        match &check.finding {
            Some(_) if check.modes.is_empty() => {}
            Some((mode, f)) => out.push_str(&format!(
                "  run as if accepted: {}\n",
                finding_sentence(mode, f)
            )),
            None if !check.modes.is_empty() => {
                out.push_str("  run as if accepted: the data would be right\n")
            }
            None => {}
        }
    }
    if let Some(f) = &check.figures {
        out.push_str(&format!(
            "  checked: {}; critical path {} transmissions; {} transmissions on {} thread blocks; {} chunks sent on {} connections",
            check.modes.join(" and "),
            f.critical_path,
            f.transmissions,
            check.threadblocks,
            f.connections.values().sum::<u64>(),
            f.connections.len()
        ));
        if !f.roots.is_empty() {
            let roots: Vec<String> = f.roots.iter().map(u32::to_string).collect();
            out.push_str(&format!("; right for root {}", roots.join(", ")));
        }
        out.push('\n');
        if let Some(most) = f.connections.values().max() {
            out.push_str(&format!(
                "  busiest connection: {most} chunks; at most {} chunks sent and not yet received on one connection\n",
                f.most_buffered
            ));
        }
    }
    if check.longest_threadblock > super::lower::MAX_NUM_STEPS {
        out.push_str(&format!(
            "  note: a thread block runs {} transmissions; msccl-executor-nccl's default build takes {} (MSCCL_MAX_NUM_STEPS)\n",
            check.longest_threadblock,
            super::lower::MAX_NUM_STEPS
        ));
    }
    out
}

/// The JSON report of `check` on file `path`, ending with exit status `exit`.
pub fn json(path: &str, check: &Check, exit: u8) -> Value {
    let problems: Vec<Value> = check
        .problems
        .iter()
        .map(|p| json!({"line": p.pos.line, "column": p.pos.col, "message": p.message}))
        .collect();
    let finding = check.finding.as_ref().map(|(mode, f)| {
        json!({
            "fault": f.fault.name(),
            "mode": mode,
            "gpu": f.gpu,
            "threadblock": f.tb,
            "step": f.step,
            "line": f.pos.map(|p| p.line),
            "column": f.pos.map(|p| p.col),
            "buffer": f.slot.map(|(b, _)| b.letter().to_string()),
            "chunk": f.slot.map(|(_, i)| i),
            "message": f.message,
        })
    });
    let figures = check.figures.as_ref().map(|f| {
        let connections: Vec<Value> = f
            .connections
            .iter()
            .map(|(&(channel, from, to), &chunks)| {
                json!({"channel": channel, "from": from, "to": to, "chunks": chunks})
            })
            .collect();
        json!({
            "critical_path": f.critical_path,
            "transmissions": f.transmissions,
            "chunks_sent": f.connections.values().sum::<u64>(),
            "connections": connections,
            "most_buffered": f.most_buffered,
            "roots": f.roots,
        })
    });
    json!({
        "schema": SCHEMA,
        "file": path,
        "valid": check.valid(),
        "exit": exit,
        "collective": check.collective.map(|c| c.name()),
        "coll": check.coll,
        "name": check.name,
        "proto": check.proto,
        "ngpus": check.ngpus,
        "modes": check.modes,
        "reason": check.reason(),
        "problems": problems,
        "finding": finding,
        "figures": figures,
        "threadblocks": check.threadblocks,
        "longest_threadblock": check.longest_threadblock,
    })
}

/// The JSON report of a file that cannot be read.
pub fn json_unreadable(path: &str, line: u32, column: u32, message: &str, exit: u8) -> Value {
    json!({
        "schema": SCHEMA,
        "file": path,
        "valid": false,
        "exit": exit,
        "collective": null,
        "ngpus": null,
        "reason": message,
        "line": line,
        "column": column,
    })
}
