//! Renumbering CaDiCaL's binary LRAT so that the formula's clauses are 1, 2, …,
//! and writing binary LRAT out as text.
//!
//! CaDiCaL numbers original and derived clauses from one counter. While the
//! formula is being added, a clause with a literal already false at the top
//! level (after a unit clause) is shortened at once into a *derived* clause
//! that takes the next number, so the numbers of later original clauses move
//! up. The proof then numbers clauses as no checker reading the formula does.
//! This pass gives the formula's clauses their places 1..m back: a number no
//! derived step uses, taken in increasing order, is the next original clause
//! (every number CaDiCaL hands out is either an original clause or a step of
//! the proof); a derived clause `d` becomes `d + m`, which keeps the steps'
//! numbers increasing. Nothing here is trusted: the renumbered proof is what
//! the LRAT checker checks.

use std::io::{self, BufRead, Write};

/// Copies the binary LRAT `input` to `output` with the clauses renumbered for
/// a formula of `originals` clauses.
pub fn renumber(input: impl BufRead, output: impl Write, originals: u64) -> io::Result<()> {
    let mut pass = Pass {
        input,
        output,
        originals,
        placed: Vec::new(),
        last: 0,
    };
    pass.run()?;
    pass.output.flush()
}

/// Copies an LRAT proof to `output` as text: binary LRAT (it starts with `a` or
/// `d`) is written out step by step, a deletion numbered by the step before it
/// (`originals` before the first); text is copied as it is.
pub fn to_text(mut input: impl BufRead, mut output: impl Write, originals: u64) -> io::Result<()> {
    let binary = matches!(input.fill_buf()?.first(), Some(b'a' | b'd'));
    if !binary {
        io::copy(&mut input, &mut output)?;
        return output.flush();
    }
    let mut pass = Pass {
        input,
        output,
        originals,
        placed: Vec::new(),
        last: originals,
    };
    let mut line = String::new();
    while let Some(tag) = pass.byte()? {
        line.clear();
        let lists = match tag {
            b'a' => {
                pass.last = pass.number()?.unsigned_abs();
                line.push_str(&pass.last.to_string());
                2
            }
            b'd' => {
                line.push_str(&format!("{} d", pass.last));
                1
            }
            _ => return Err(io::Error::other(format!("unexpected LRAT byte {tag}"))),
        };
        for _ in 0..lists {
            loop {
                let x = pass.number()?;
                line.push(' ');
                line.push_str(&x.to_string());
                if x == 0 {
                    break;
                }
            }
        }
        line.push('\n');
        pass.output.write_all(line.as_bytes())?;
    }
    pass.output.flush()
}

struct Pass<R, W> {
    input: R,
    output: W,
    originals: u64,
    /// CaDiCaL's numbers of the original clauses placed so far, in order.
    placed: Vec<u64>,
    /// The largest CaDiCaL number accounted for.
    last: u64,
}

impl<R: BufRead, W: Write> Pass<R, W> {
    fn run(&mut self) -> io::Result<()> {
        while let Some(tag) = self.byte()? {
            self.output.write_all(&[tag])?;
            match tag {
                b'a' => {
                    let id = self.number()?.unsigned_abs();
                    self.place_below(id);
                    self.last = self.last.max(id);
                    self.put(self.originals as i64 + id as i64)?;
                    self.copy_literals()?;
                    self.copy_ids()?;
                }
                b'd' => self.copy_ids()?,
                _ => return Err(io::Error::other(format!("unexpected LRAT byte {tag}"))),
            }
        }
        Ok(())
    }

    /// Numbers below `id` not yet accounted for are original clauses.
    fn place_below(&mut self, id: u64) {
        while self.last + 1 < id && (self.placed.len() as u64) < self.originals {
            self.last += 1;
            self.placed.push(self.last);
        }
    }

    /// The new number of CaDiCaL's clause `id`.
    fn translate(&mut self, id: u64) -> u64 {
        if id > self.last {
            self.place_below(id + 1);
        }
        match self.placed.binary_search(&id) {
            Ok(i) => i as u64 + 1,
            Err(_) => id + self.originals,
        }
    }

    fn copy_literals(&mut self) -> io::Result<()> {
        loop {
            let lit = self.number()?;
            self.put(lit)?;
            if lit == 0 {
                return Ok(());
            }
        }
    }

    /// Copies clause numbers (signed: RAT hints are negative) up to a 0.
    fn copy_ids(&mut self) -> io::Result<()> {
        loop {
            let id = self.number()?;
            if id == 0 {
                return self.put(0);
            }
            let new = self.translate(id.unsigned_abs()) as i64;
            self.put(if id < 0 { -new } else { new })?;
        }
    }

    fn byte(&mut self) -> io::Result<Option<u8>> {
        let buf = self.input.fill_buf()?;
        let Some(&b) = buf.first() else {
            return Ok(None);
        };
        self.input.consume(1);
        Ok(Some(b))
    }

    /// A signed number: a varint of `2|x| + (x < 0)`.
    fn number(&mut self) -> io::Result<i64> {
        let (mut code, mut shift) = (0u64, 0);
        loop {
            let b = self
                .byte()?
                .ok_or_else(|| io::Error::other("the LRAT proof ends inside a step"))?;
            if shift > 56 {
                return Err(io::Error::other("an LRAT number is too large"));
            }
            code |= u64::from(b & 0x7f) << shift;
            shift += 7;
            if b & 0x80 == 0 {
                let magnitude = (code >> 1) as i64;
                return Ok(if code & 1 == 1 { -magnitude } else { magnitude });
            }
        }
    }

    fn put(&mut self, x: i64) -> io::Result<()> {
        let mut code = (x.unsigned_abs() << 1) | u64::from(x < 0);
        let mut bytes = [0u8; 10];
        let mut n = 0;
        while code >= 0x80 {
            bytes[n] = (code as u8 & 0x7f) | 0x80;
            code >>= 7;
            n += 1;
        }
        bytes[n] = code as u8;
        self.output.write_all(&bytes[..=n])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encode(steps: &[(u8, &[i64])]) -> Vec<u8> {
        let mut pass = Pass {
            input: &b""[..],
            output: Vec::new(),
            originals: 0,
            placed: Vec::new(),
            last: 0,
        };
        for (tag, numbers) in steps {
            pass.output.push(*tag);
            for &x in *numbers {
                pass.put(x).unwrap();
            }
        }
        pass.output
    }

    #[test]
    fn binary_lrat_is_written_as_text() {
        let binary = encode(&[(b'a', &[5, 2, -1, 0, 1, -3, 4, 0]), (b'd', &[1, 3, 0])]);
        let mut out = Vec::new();
        to_text(&binary[..], &mut out, 4).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "5 2 -1 0 1 -3 4 0\n5 d 1 3 0\n"
        );
        let mut copied = Vec::new();
        to_text(&b"5 0 1 2 0\n"[..], &mut copied, 4).unwrap();
        assert_eq!(copied, b"5 0 1 2 0\n");
    }

    #[test]
    fn derived_clauses_between_originals_give_the_originals_their_places() {
        // Formula of 4 clauses; CaDiCaL derived 3 after its clause 2, so the
        // formula's clauses 3 and 4 are its 4 and 5; then 6 from 5, 3 and 1,
        // deleting 4.
        let cadical = encode(&[
            (b'a', &[3, 7, 0, 2, 1, 0]),
            (b'd', &[4, 0]),
            (b'a', &[6, 0, 5, 3, -1, 0]),
        ]);
        let mut out = Vec::new();
        renumber(&cadical[..], &mut out, 4).unwrap();
        let expected = encode(&[
            (b'a', &[7, 7, 0, 2, 1, 0]),
            (b'd', &[3, 0]),
            (b'a', &[10, 0, 4, 7, -1, 0]),
        ]);
        assert_eq!(out, expected);
    }
}
