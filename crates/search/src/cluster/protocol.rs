//! The messages between rank 0 and the workers, as bytes.
//!
//! Every message is one MPI message of bytes: a tag byte, then fixed-width
//! little-endian fields. A hand-written format keeps the protocol small and
//! its decoding total: a short or unknown message is a [`ProtocolError`],
//! never a panic, and proofs travel as raw bytes (no text encoding that would
//! double their size).

/// Rank 0 to a worker.
#[derive(Clone, Debug, PartialEq)]
pub enum ToWorker {
    /// Solve `formula ∧ cube`, giving up after `budget` seconds (none: no limit).
    Task {
        /// The number of columns of the formula (a minimising run moves on
        /// from one to the next; the worker encodes each once).
        time: u32,
        /// The cube's number in rank 0's queue.
        id: u32,
        /// The digest of the formula rank 0 split (the worker checks it has the same).
        digest: u64,
        /// Seconds before the worker gives up and answers [`Answer::Unknown`].
        budget: Option<f64>,
        /// The cube's literals.
        cube: Vec<i32>,
    },
    /// The run is over: answer [`ToRoot::Bye`] and stop.
    Stop,
    /// The formula of the cube being solved is settled (a table found, or its
    /// time up): stop its solver and answer [`ToRoot::Ready`]. A worker that
    /// already answered ignores it.
    Abandon,
}

/// What a worker's solver said about one cube.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// A model of `formula ∧ cube` (`model[v - 1]` is variable `v`).
    Sat(Vec<bool>),
    /// Unsatisfiable, with the solver's proof (the bytes of its proof file).
    Unsat(Vec<u8>),
    /// The budget ran out: rank 0 splits the cube further.
    Unknown,
    /// The solver process died or failed; the text says how. Rank 0 hands
    /// the cube out again.
    Lost(String),
}

/// A worker to rank 0.
#[derive(Clone, Debug, PartialEq)]
pub enum ToRoot {
    /// Idle: send a cube.
    Ready,
    /// The answer for cube `id` after `seconds` of solving (the worker is idle again).
    Done {
        /// The number of columns of the task's formula, as the task said.
        time: u32,
        /// The cube's number.
        id: u32,
        /// Wall time of the solver process.
        seconds: f64,
        /// What it said.
        answer: Answer,
    },
    /// The worker cannot work (its formula differs, it cannot start a solver).
    Failed(String),
    /// Acknowledges [`ToWorker::Stop`]; nothing more comes from this worker.
    Bye,
}

/// A message that does not decode.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("malformed message from another rank: {0}")]
pub struct ProtocolError(&'static str);

impl ToWorker {
    /// The message as bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::new();
        match self {
            ToWorker::Task {
                time,
                id,
                digest,
                budget,
                cube,
            } => {
                out.push(1);
                out.extend(time.to_le_bytes());
                out.extend(id.to_le_bytes());
                out.extend(digest.to_le_bytes());
                out.extend(budget.unwrap_or(-1.0).to_le_bytes());
                for l in cube {
                    out.extend(l.to_le_bytes());
                }
            }
            ToWorker::Stop => out.push(2),
            ToWorker::Abandon => out.push(3),
        }
        out
    }

    /// The message of `bytes`.
    pub fn decode(bytes: &[u8]) -> Result<ToWorker, ProtocolError> {
        let mut r = Reader(bytes);
        match r.u8()? {
            1 => {
                let time = r.u32()?;
                let id = r.u32()?;
                let digest = r.u64()?;
                let budget = Some(r.f64()?).filter(|b| *b >= 0.0);
                let mut cube = Vec::new();
                while !r.0.is_empty() {
                    cube.push(r.u32()? as i32);
                }
                Ok(ToWorker::Task {
                    time,
                    id,
                    digest,
                    budget,
                    cube,
                })
            }
            2 => r.end(ToWorker::Stop),
            3 => r.end(ToWorker::Abandon),
            _ => Err(ProtocolError("unknown message to a worker")),
        }
    }
}

impl ToRoot {
    /// The message as bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::new();
        match self {
            ToRoot::Ready => out.push(1),
            ToRoot::Done {
                time,
                id,
                seconds,
                answer,
            } => {
                out.push(2);
                out.extend(time.to_le_bytes());
                out.extend(id.to_le_bytes());
                out.extend(seconds.to_le_bytes());
                match answer {
                    Answer::Sat(model) => {
                        out.push(1);
                        out.extend(model.iter().map(|&b| u8::from(b)));
                    }
                    Answer::Unsat(proof) => {
                        out.push(2);
                        out.extend(proof);
                    }
                    Answer::Unknown => out.push(3),
                    Answer::Lost(why) => {
                        out.push(4);
                        out.extend(why.as_bytes());
                    }
                }
            }
            ToRoot::Failed(why) => {
                out.push(3);
                out.extend(why.as_bytes());
            }
            ToRoot::Bye => out.push(4),
        }
        out
    }

    /// The message of `bytes`.
    pub fn decode(bytes: &[u8]) -> Result<ToRoot, ProtocolError> {
        let mut r = Reader(bytes);
        match r.u8()? {
            1 => r.end(ToRoot::Ready),
            2 => {
                let time = r.u32()?;
                let id = r.u32()?;
                let seconds = r.f64()?;
                let answer = match r.u8()? {
                    1 => Answer::Sat(r.0.iter().map(|&b| b != 0).collect()),
                    2 => Answer::Unsat(r.0.to_vec()),
                    3 => r.end(Answer::Unknown)?,
                    4 => Answer::Lost(String::from_utf8_lossy(r.0).into_owned()),
                    _ => return Err(ProtocolError("unknown answer")),
                };
                Ok(ToRoot::Done {
                    time,
                    id,
                    seconds,
                    answer,
                })
            }
            3 => Ok(ToRoot::Failed(String::from_utf8_lossy(r.0).into_owned())),
            4 => r.end(ToRoot::Bye),
            _ => Err(ProtocolError("unknown message to rank 0")),
        }
    }
}

/// Reads fixed-width fields off the front of a message.
struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> Result<[u8; N], ProtocolError> {
        let Some((head, rest)) = self.0.split_first_chunk::<N>() else {
            return Err(ProtocolError("message too short"));
        };
        self.0 = rest;
        Ok(*head)
    }
    fn u8(&mut self) -> Result<u8, ProtocolError> {
        Ok(self.take::<1>()?[0])
    }
    fn u32(&mut self) -> Result<u32, ProtocolError> {
        Ok(u32::from_le_bytes(self.take()?))
    }
    fn u64(&mut self) -> Result<u64, ProtocolError> {
        Ok(u64::from_le_bytes(self.take()?))
    }
    fn f64(&mut self) -> Result<f64, ProtocolError> {
        Ok(f64::from_le_bytes(self.take()?))
    }
    /// `value`, if nothing is left.
    fn end<T>(&self, value: T) -> Result<T, ProtocolError> {
        if self.0.is_empty() {
            Ok(value)
        } else {
            Err(ProtocolError("trailing bytes"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_message_round_trips() {
        let to_worker = [
            ToWorker::Task {
                time: 21,
                id: 7,
                digest: 0xdead_beef,
                budget: Some(2.5),
                cube: vec![3, -17, i32::MAX, -i32::MAX],
            },
            ToWorker::Task {
                time: 0,
                id: 0,
                digest: 1,
                budget: None,
                cube: vec![],
            },
            ToWorker::Stop,
            ToWorker::Abandon,
        ];
        for m in to_worker {
            assert_eq!(ToWorker::decode(&m.encode()), Ok(m));
        }
        let answers = [
            Answer::Sat(vec![true, false, true]),
            Answer::Unsat(vec![0, 1, 2, 255]),
            Answer::Unknown,
            Answer::Lost("killed by signal 9".into()),
        ];
        let mut to_root = vec![ToRoot::Ready, ToRoot::Bye, ToRoot::Failed("no".into())];
        to_root.extend(answers.into_iter().map(|answer| ToRoot::Done {
            time: 14,
            id: 3,
            seconds: 0.25,
            answer,
        }));
        for m in to_root {
            assert_eq!(ToRoot::decode(&m.encode()), Ok(m));
        }
    }

    #[test]
    fn short_unknown_and_trailing_messages_are_refused() {
        assert!(ToWorker::decode(&[]).is_err());
        assert!(ToWorker::decode(&[9]).is_err());
        assert!(ToWorker::decode(&[1, 0, 0]).is_err());
        assert!(ToWorker::decode(&[2, 0]).is_err());
        assert!(ToWorker::decode(&[3, 0]).is_err());
        let task = ToWorker::Task {
            time: 9,
            id: 1,
            digest: 2,
            budget: None,
            cube: vec![5],
        };
        let mut bytes = task.encode();
        bytes.push(0); // a literal cut short
        assert!(ToWorker::decode(&bytes).is_err());
        assert!(ToRoot::decode(&[2, 1, 0, 0, 0, 1, 0, 0, 0]).is_err());
        assert!(ToRoot::decode(&[1, 1]).is_err());
        assert!(ToRoot::decode(&[7]).is_err());
    }
}
