//! The table drawn as the paper draws it: one row per lane, one column per step,
//! each word one framed block, step numbers on top; the kernel's violations
//! marked on their cells, numbered, with the reasons listed under the grid.
//!
//! A table wider than [`TableOptions::max_columns`] (or taller than
//! `max_rows`) is drawn aggregated: each drawn column stands for a run of
//! steps, coloured by what fills most of it, and the picture says so. The
//! 32×32×32 torus (131,072 steps) is then 1,024 drawn columns, so the time and
//! the file size stay bounded whatever the table.

use super::svg::{
    category_colour, escape, grouped, label_step, num, open, sequential_colour, text,
};
use crate::shared::wording::describe;
use std::collections::HashMap;
use std::fmt::Write;
use txverify_core::kernel::{Checked, Instance, Table, TableLetter, Verdict, Violation};

/// What a block's colour says.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ColourBy {
    /// The length of the word (one colour per block).
    #[default]
    Length,
    /// The link of each letter (one colour per cell).
    Link,
}

/// How to draw a table.
#[derive(Clone, Debug)]
pub struct TableOptions {
    /// What colours say.
    pub colour_by: ColourBy,
    /// Above this many steps, steps are aggregated into at most this many columns.
    pub max_columns: usize,
    /// Above this many lanes, lanes are aggregated into at most this many rows.
    pub max_rows: usize,
    /// At most this many violations are marked on the grid (all are counted).
    pub max_marks: usize,
    /// The title line.
    pub title: String,
    /// Make each mark a link to `#violation-K` (the HTML report's list).
    pub link_marks: bool,
}

impl Default for TableOptions {
    fn default() -> Self {
        TableOptions {
            colour_by: ColourBy::Length,
            max_columns: 1024,
            max_rows: 64,
            max_marks: 100,
            title: String::new(),
            link_marks: false,
        }
    }
}

/// Width and height of one cell when every step is drawn.
const CELL_W: f64 = 18.0;
const CELL_H: f64 = 22.0;
/// Left of the grid (lane numbers) and top of the grid (title, note, step numbers).
const LEFT: f64 = 44.0;
const TOP: f64 = 62.0;
/// Drawn width of the grid when columns are aggregated.
const AGGREGATED_WIDTH: f64 = 1600.0;
/// Colours used for lengths or links before the rest share one.
const MAX_CATEGORIES: usize = 24;
/// Word lengths get at most this many colours (longer tables share them in ranges).
const LENGTH_BUCKETS: usize = 16;
const MARK: &str = "#d0021b";
const OTHER: &str = "#bdbdbd";

/// The drawing geometry: how many steps and lanes one drawn column and row hold.
struct Grid {
    steps: usize,
    lanes: usize,
    steps_per_column: usize,
    lanes_per_row: usize,
    columns: usize,
    rows: usize,
    cell_w: f64,
}

impl Grid {
    fn new(steps: usize, lanes: usize, options: &TableOptions) -> Grid {
        let steps_per_column = steps.div_ceil(options.max_columns.max(1)).max(1);
        let lanes_per_row = lanes.div_ceil(options.max_rows.max(1)).max(1);
        let columns = steps.div_ceil(steps_per_column);
        let rows = lanes.div_ceil(lanes_per_row);
        let cell_w = if steps_per_column == 1 {
            CELL_W
        } else {
            (AGGREGATED_WIDTH / columns.max(1) as f64).clamp(1.0, CELL_W)
        };
        Grid {
            steps,
            lanes,
            steps_per_column,
            lanes_per_row,
            columns,
            rows,
            cell_w,
        }
    }

    fn aggregated(&self) -> bool {
        self.steps_per_column > 1 || self.lanes_per_row > 1
    }

    /// Left edge of the drawn column holding 1-based `step`.
    fn x(&self, step: usize) -> f64 {
        LEFT + ((step - 1) / self.steps_per_column) as f64 * self.cell_w
    }

    /// Top edge of the drawn row holding 1-based `lane`.
    fn y(&self, lane: usize) -> f64 {
        TOP + ((lane - 1) / self.lanes_per_row) as f64 * CELL_H
    }

    fn width(&self) -> f64 {
        self.columns as f64 * self.cell_w
    }

    fn height(&self) -> f64 {
        self.rows as f64 * CELL_H
    }
}

/// The colour classes of letters: by word length (in ranges for long words) or by link.
struct Palette {
    by: ColourBy,
    links: usize,
    bucket: usize,
    buckets: usize,
}

impl Palette {
    fn new(by: ColourBy, instance: &Instance, table: &Table) -> Palette {
        let longest = table
            .words
            .iter()
            .map(|w| w.letters.len())
            .max()
            .unwrap_or(1);
        let bucket = longest.div_ceil(LENGTH_BUCKETS).max(1);
        Palette {
            by,
            links: instance.links().len(),
            bucket,
            buckets: longest.div_ceil(bucket).max(1),
        }
    }

    /// Number of classes (the last one is "other": letters that are no link, or links past the palette).
    fn classes(&self) -> usize {
        match self.by {
            ColourBy::Length => self.buckets,
            ColourBy::Link => self.links.min(MAX_CATEGORIES) + 1,
        }
    }

    fn of_length(&self, length: usize) -> usize {
        (length.max(1) - 1) / self.bucket
    }

    fn of_link(&self, link: Option<usize>) -> usize {
        match link {
            Some(l) if l < MAX_CATEGORIES => l,
            _ => self.links.min(MAX_CATEGORIES),
        }
    }

    fn colour(&self, class: usize) -> String {
        match self.by {
            ColourBy::Length if self.buckets > 1 => {
                sequential_colour(class as f64 / (self.buckets - 1) as f64)
            }
            ColourBy::Length => sequential_colour(0.0),
            ColourBy::Link if class < self.links.min(MAX_CATEGORIES) => {
                category_colour(class, self.links.min(MAX_CATEGORIES))
            }
            ColourBy::Link => OTHER.to_string(),
        }
    }

    fn label(&self, class: usize, link_names: &[String]) -> String {
        match self.by {
            ColourBy::Length if self.bucket == 1 => format!("length {}", class + 1),
            ColourBy::Length => format!(
                "length {}–{}",
                class * self.bucket + 1,
                (class + 1) * self.bucket
            ),
            ColourBy::Link => match link_names.get(class) {
                Some(name) if class < MAX_CATEGORIES => format!("link {name}"),
                _ => "other".to_string(),
            },
        }
    }
}

/// Names and links of letters, computed once per generator letter.
struct Letters<'a> {
    instance: &'a Instance,
    cache: HashMap<(u32, bool), (String, Option<usize>)>,
}

impl<'a> Letters<'a> {
    fn new(instance: &'a Instance) -> Self {
        Letters {
            instance,
            cache: HashMap::new(),
        }
    }

    fn get(&mut self, letter: &TableLetter) -> (String, Option<usize>) {
        match letter {
            TableLetter::UnknownName(name) => (name.clone(), None),
            TableLetter::Gen(g) => self
                .cache
                .entry((g.generator, g.inverse))
                .or_insert_with(|| {
                    let name = self.instance.group().format_word(&[*g]);
                    (name, self.instance.link_of_letter(*g).map(|l| l.index()))
                })
                .clone(),
        }
    }
}

/// Where a violation is drawn: cells of one lane, or a whole step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Area {
    Cells {
        lane: usize,
        first: usize,
        last: usize,
    },
    Step(usize),
}

/// The cells a violation is about; empty for violations of no cell (a missing
/// message, a defective link set).
fn areas(v: &Violation, lengths: &HashMap<(usize, usize), usize>) -> Vec<Area> {
    let word = |row: usize, column: usize| Area::Cells {
        lane: row,
        first: column,
        last: column + lengths.get(&(row, column)).copied().unwrap_or(1).max(1) - 1,
    };
    let cell = |lane: usize, column: usize| Area::Cells {
        lane,
        first: column,
        last: column,
    };
    match v {
        Violation::UnknownLetter {
            word: w, column, ..
        }
        | Violation::NotALink {
            word: w, column, ..
        } => vec![cell(w.row, *column)],
        Violation::ColumnConflict {
            column,
            first,
            second,
            ..
        } => vec![cell(first.row, *column), cell(second.row, *column)],
        Violation::PortsExceeded { column, .. } => vec![Area::Step(*column)],
        Violation::IdentityWord { word: w } | Violation::UnexpectedMessage { word: w, .. } => {
            vec![word(w.row, w.column)]
        }
        Violation::DuplicateMessage { word: w, .. } => vec![word(w.row, w.column)],
        Violation::MissingMessage { .. } | Violation::LinkSet { .. } => Vec::new(),
    }
}

/// Draws `table` (checked as `checked`) as an SVG picture.
pub fn table_svg(
    instance: &Instance,
    table: &Table,
    checked: &Checked,
    options: &TableOptions,
) -> String {
    let steps = checked.time().max(1);
    let lanes = table.rows.max(1);
    let grid = Grid::new(steps, lanes, options);
    let palette = Palette::new(options.colour_by, instance, table);
    let mut letters = Letters::new(instance);

    let violations = checked.violations();
    let marked = violations.len().min(options.max_marks);
    let lengths: HashMap<(usize, usize), usize> = if violations.is_empty() {
        HashMap::new()
    } else {
        table
            .words
            .iter()
            .map(|w| ((w.row, w.column), w.letters.len()))
            .collect()
    };
    let notes = notes(violations, marked);
    let legend_y = TOP + grid.height() + 30.0;
    let notes_y = legend_y + 30.0;
    let longest_note = notes.iter().map(|n| n.chars().count()).max().unwrap_or(0);
    let width = (LEFT + grid.width() + 12.0)
        .max(LEFT + 7.3 * longest_note as f64)
        .max(LEFT + legend_width(&palette, instance.link_names()))
        .max(760.0);
    let height = notes_y + 16.0 * notes.len() as f64 + 8.0;

    let mut out = String::new();
    let attributes = format!(
        r#" class="txverify-table" data-steps="{}" data-lanes="{}" data-words="{}" data-steps-per-column="{}" data-lanes-per-row="{}" data-aggregated="{}" data-violations="{}""#,
        grid.steps,
        grid.lanes,
        table.words.len(),
        grid.steps_per_column,
        grid.lanes_per_row,
        grid.aggregated(),
        violations.len()
    );
    open(&mut out, width, height, &attributes);
    header(&mut out, &grid, table, checked, options, &palette);
    step_numbers(&mut out, &grid);
    lane_numbers(&mut out, &grid);
    if grid.aggregated() {
        aggregated_blocks(&mut out, &grid, table, &palette, &mut letters);
    } else {
        word_blocks(&mut out, &grid, table, &palette, &mut letters);
    }
    for (k, v) in violations.iter().take(marked).enumerate() {
        mark(&mut out, &grid, k + 1, v, &areas(v, &lengths), options);
    }
    legend(&mut out, &palette, instance.link_names(), legend_y);
    for (i, note) in notes.iter().enumerate() {
        let colour = if i < marked { MARK } else { "#333333" };
        text(
            &mut out,
            LEFT,
            notes_y + 16.0 * i as f64,
            &format!(r#" class="note" fill="{colour}""#),
            note,
        );
    }
    out.push_str("</svg>\n");
    out
}

/// Title, what the picture shows, and the verdict.
fn header(
    out: &mut String,
    grid: &Grid,
    table: &Table,
    checked: &Checked,
    options: &TableOptions,
    palette: &Palette,
) {
    text(
        out,
        8.0,
        18.0,
        r#" font-size="14" font-weight="bold""#,
        &options.title,
    );
    let colour = match palette.by {
        ColourBy::Length => "colour: word length",
        ColourBy::Link => "colour: link of each letter",
    };
    let (verdict, fill) = match checked.verdict() {
        Verdict::Optimal => ("OPTIMAL".to_string(), "#1b7f3b"),
        Verdict::Valid => ("VALID, not proved optimal".to_string(), "#1b5e9f"),
        Verdict::Invalid => (
            format!(
                "INVALID: {} violations",
                grouped(checked.violations().len() as u64)
            ),
            MARK,
        ),
    };
    let summary = format!(
        "{} lanes × {} steps, {} words; {colour}",
        grouped(grid.lanes as u64),
        grouped(checked.time() as u64),
        grouped(table.words.len() as u64)
    );
    text(out, 8.0, 34.0, r##" fill="#333333""##, &summary);
    text(
        out,
        8.0 + 7.3 * (summary.chars().count() as f64 + 2.0),
        34.0,
        &format!(r#" class="verdict" font-weight="bold" fill="{fill}""#),
        &verdict,
    );
    if grid.aggregated() {
        let mut parts = Vec::new();
        if grid.steps_per_column > 1 {
            parts.push(format!(
                "each drawn column is {} steps",
                grouped(grid.steps_per_column as u64)
            ));
        }
        if grid.lanes_per_row > 1 {
            parts.push(format!(
                "each drawn row {} lanes",
                grouped(grid.lanes_per_row as u64)
            ));
        }
        let mut note = format!("aggregated: {}", parts.join(", "));
        note.push_str(
            "; colour = the class filling most of it, paler = emptier; word boundaries not drawn",
        );
        text(
            out,
            8.0,
            48.0,
            r##" class="aggregated" fill="#8a4b00""##,
            &note,
        );
    }
}

/// Step numbers on top: every step when there is room, else round numbers.
fn step_numbers(out: &mut String, grid: &Grid) {
    out.push_str(r##"<g class="steps" font-size="9" fill="#555555" text-anchor="middle">"##);
    out.push('\n');
    let room = (grid.width() / 30.0).floor().max(1.0) as usize;
    let every = label_step(grid.steps, room);
    let mut step = 1;
    while step <= grid.steps {
        let x = if grid.steps_per_column == 1 {
            grid.x(step) + grid.cell_w / 2.0
        } else {
            LEFT + (step - 1) as f64 / grid.steps_per_column as f64 * grid.cell_w
        };
        text(out, x, TOP - 4.0, "", &step.to_string());
        step = if step == 1 && every > 1 {
            every
        } else {
            step + every
        };
    }
    out.push_str("</g>\n");
}

/// Lane numbers on the left (every row when lanes are aggregated into ranges).
fn lane_numbers(out: &mut String, grid: &Grid) {
    out.push_str(r##"<g class="lanes" font-size="10" fill="#555555" text-anchor="end">"##);
    out.push('\n');
    let every = label_step(grid.rows, 40);
    for r in (0..grid.rows).step_by(every) {
        let first = r * grid.lanes_per_row + 1;
        text(
            out,
            LEFT - 6.0,
            TOP + r as f64 * CELL_H + CELL_H / 2.0 + 4.0,
            "",
            &first.to_string(),
        );
    }
    out.push_str("</g>\n");
}

/// Every word as a framed block, its letters written in it.
fn word_blocks(
    out: &mut String,
    grid: &Grid,
    table: &Table,
    palette: &Palette,
    letters: &mut Letters<'_>,
) {
    let mut names = String::new();
    out.push_str("<g class=\"words\">\n");
    for w in &table.words {
        let (x, y) = (grid.x(w.column), grid.y(w.row));
        let length = w.letters.len();
        let block_w = (length as f64 * CELL_W - 2.0).max(1.0);
        let fill = match palette.by {
            ColourBy::Length => palette.colour(palette.of_length(length)),
            ColourBy::Link => "none".to_string(),
        };
        for (offset, letter) in w.letters.iter().enumerate() {
            let (name, link) = letters.get(letter);
            let cx = x + (offset as f64 + 0.5) * CELL_W;
            if palette.by == ColourBy::Link {
                let _ = writeln!(
                    out,
                    r#"<rect class="letter" data-link="{}" x="{}" y="{}" width="{}" height="{}" fill="{}"/>"#,
                    link.map_or_else(|| "none".to_string(), |l| l.to_string()),
                    num(x + offset as f64 * CELL_W + 1.0),
                    num(y + 2.0),
                    num(CELL_W - 2.0 + if offset + 1 < length { 2.0 } else { 0.0 }),
                    num(CELL_H - 4.0),
                    palette.colour(palette.of_link(link))
                );
            }
            let shrink = if name.chars().count() > 2 {
                format!(
                    r#" textLength="{}" lengthAdjust="spacingAndGlyphs""#,
                    CELL_W - 3.0
                )
            } else {
                String::new()
            };
            let _ = writeln!(
                names,
                "<text x=\"{}\" y=\"{}\"{shrink}>{}</text>",
                num(cx),
                num(y + CELL_H / 2.0 + 4.0),
                escape(&name)
            );
        }
        let _ = writeln!(
            out,
            r##"<rect class="word" id="w-{row}-{column}" data-row="{row}" data-column="{column}" data-length="{length}" data-word="{word}" x="{x}" y="{y}" width="{w}" height="{h}" rx="3" fill="{fill}" stroke="#333333"/>"##,
            row = w.row,
            column = w.column,
            word = escape(&w.text),
            x = num(x + 1.0),
            y = num(y + 2.0),
            w = num(block_w),
            h = num(CELL_H - 4.0),
        );
    }
    out.push_str("</g>\n");
    out.push_str(r##"<g class="letters" fill="#111111" text-anchor="middle">"##);
    out.push('\n');
    out.push_str(&names);
    out.push_str("</g>\n");
}

/// Each drawn cell coloured by the class most of its letters have, paler when
/// fewer of its (step, lane) cells hold a letter; runs of equal cells in a row
/// are one rectangle.
fn aggregated_blocks(
    out: &mut String,
    grid: &Grid,
    table: &Table,
    palette: &Palette,
    letters: &mut Letters<'_>,
) {
    let classes = palette.classes();
    let cells = grid.rows * grid.columns;
    let mut counts = vec![0u32; cells * classes];
    for w in &table.words {
        let row = (w.row - 1) / grid.lanes_per_row;
        let length_class = palette.of_length(w.letters.len());
        for (offset, letter) in w.letters.iter().enumerate() {
            let column = (w.column + offset - 1) / grid.steps_per_column;
            if column >= grid.columns || row >= grid.rows {
                continue;
            }
            let class = match palette.by {
                ColourBy::Length => length_class,
                ColourBy::Link => palette.of_link(letters.get(letter).1),
            };
            counts[(row * grid.columns + column) * classes + class] += 1;
        }
    }
    let capacity = (grid.steps_per_column * grid.lanes_per_row) as f64;
    out.push_str("<g class=\"aggregate\">\n");
    for row in 0..grid.rows {
        // (class, shade) of each drawn column; None for an empty one.
        let look = |column: usize| -> Option<(usize, u32)> {
            let at = &counts[(row * grid.columns + column) * classes..][..classes];
            let filled: u32 = at.iter().sum();
            if filled == 0 {
                return None;
            }
            let class = (0..classes).max_by_key(|&c| (at[c], usize::MAX - c))?;
            let shade = ((filled as f64 / capacity) * 4.0).ceil() as u32;
            Some((class, shade.clamp(1, 4)))
        };
        let mut column = 0;
        while column < grid.columns {
            let Some((class, shade)) = look(column) else {
                column += 1;
                continue;
            };
            let mut end = column + 1;
            while end < grid.columns && look(end) == Some((class, shade)) {
                end += 1;
            }
            let _ = writeln!(
                out,
                r#"<rect class="bin" data-class="{class}" x="{}" y="{}" width="{}" height="{}" fill="{}" fill-opacity="{}"/>"#,
                num(LEFT + column as f64 * grid.cell_w),
                num(TOP + row as f64 * CELL_H + 2.0),
                num((end - column) as f64 * grid.cell_w),
                num(CELL_H - 4.0),
                palette.colour(class),
                num(0.25 * shade as f64)
            );
            column = end;
        }
    }
    out.push_str("</g>\n");
}

/// One violation: its cells outlined, each with its number.
fn mark(out: &mut String, grid: &Grid, k: usize, v: &Violation, areas: &[Area], o: &TableOptions) {
    let _ = writeln!(out, r#"<g class="mark" id="v-{k}">"#);
    if o.link_marks {
        let _ = writeln!(out, r##"<a href="#violation-{k}">"##);
    }
    let _ = writeln!(out, "<title>{}</title>", escape(&describe(v)));
    for area in areas {
        let (x0, x1, y0, y1) = match *area {
            Area::Cells { lane, first, last } => (
                grid.x(first),
                grid.x(last) + grid.cell_w,
                grid.y(lane),
                grid.y(lane) + CELL_H,
            ),
            Area::Step(step) => (
                grid.x(step),
                grid.x(step) + grid.cell_w,
                TOP,
                TOP + grid.height(),
            ),
        };
        let (lane, first) = match *area {
            Area::Cells { lane, first, .. } => (lane.to_string(), first),
            Area::Step(step) => ("all".to_string(), step),
        };
        let _ = writeln!(
            out,
            r#"<rect class="mark-cell" data-violation="{k}" data-lane="{lane}" data-column="{first}" x="{}" y="{}" width="{}" height="{}" fill="{MARK}" fill-opacity="0.18" stroke="{MARK}" stroke-width="2.5"/>"#,
            num(x0),
            num(y0),
            num((x1 - x0).max(2.0)),
            num(y1 - y0)
        );
        let _ = writeln!(
            out,
            r#"<circle cx="{}" cy="{}" r="7" fill="{MARK}"/>"#,
            num(x1),
            num(y0)
        );
        text(
            out,
            x1,
            y0 + 3.0,
            r##" font-size="9" fill="#ffffff" text-anchor="middle""##,
            &k.to_string(),
        );
    }
    if o.link_marks {
        out.push_str("</a>\n");
    }
    out.push_str("</g>\n");
}

/// The reasons, numbered as the marks, then what was left out.
fn notes(violations: &[Violation], marked: usize) -> Vec<String> {
    let mut notes: Vec<String> = violations
        .iter()
        .take(marked)
        .enumerate()
        .map(|(i, v)| {
            let line = format!("{}. {}", i + 1, describe(v));
            if line.chars().count() > 200 {
                let head: String = line.chars().take(199).collect();
                format!("{head}…")
            } else {
                line
            }
        })
        .collect();
    if violations.len() > marked {
        notes.push(format!(
            "… and {} more violations, not marked (the check report lists them all)",
            grouped((violations.len() - marked) as u64)
        ));
    }
    notes
}

/// The classes the legend shows ("other" only when links outnumber the colours).
fn legend_classes(palette: &Palette) -> usize {
    match palette.by {
        ColourBy::Length => palette.classes(),
        ColourBy::Link => palette.classes() - usize::from(palette.links <= MAX_CATEGORIES),
    }
}

/// Width of one legend entry for `label`.
fn legend_entry_width(label: &str) -> f64 {
    30.0 + 6.6 * label.chars().count() as f64
}

fn legend_width(palette: &Palette, link_names: &[String]) -> f64 {
    (0..legend_classes(palette))
        .map(|c| legend_entry_width(&palette.label(c, link_names)))
        .sum()
}

/// Colour swatches with what they mean.
fn legend(out: &mut String, palette: &Palette, link_names: &[String], y: f64) {
    out.push_str("<g class=\"legend\" font-size=\"11\">\n");
    let mut x = LEFT;
    for class in 0..legend_classes(palette) {
        let label = palette.label(class, link_names);
        let _ = writeln!(
            out,
            r##"<rect x="{}" y="{}" width="14" height="14" fill="{}" stroke="#333333"/>"##,
            num(x),
            num(y - 11.0),
            palette.colour(class)
        );
        text(out, x + 18.0, y, "", &label);
        x += legend_entry_width(&label);
    }
    out.push_str("</g>\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use txverify_core::kernel::check;
    use txverify_core::load::load;

    fn mesh5(options: &TableOptions) -> String {
        let loaded = load(
            include_str!("../../../../tables/mesh5.tbl"),
            &Default::default(),
        )
        .unwrap();
        let checked = check(&loaded.instance, &loaded.table, &[]);
        table_svg(&loaded.instance, &loaded.table, &checked, options)
    }

    #[test]
    fn many_lanes_are_aggregated_into_rows_and_the_picture_says_so() {
        let svg = mesh5(&TableOptions {
            max_rows: 2,
            ..TableOptions::default()
        });
        assert!(svg.contains(r#"data-lanes-per-row="2""#));
        assert!(svg.contains(r#"data-steps-per-column="1""#));
        assert!(svg.contains("aggregated: each drawn row 2 lanes;"), "{svg}");
        // Two drawn rows, each full; every lane has its words of length 1, 2, 3
        // and 4 on the same columns, so each row is four runs, one per length.
        assert_eq!(svg.matches(r#"class="bin""#).count(), 8);
        for class in 0..4 {
            let runs = format!(r#"class="bin" data-class="{class}""#);
            assert_eq!(svg.matches(&runs).count(), 2, "length {}", class + 1);
        }
        let doc = roxmltree::Document::parse(&svg).unwrap();
        assert!(doc.root_element().has_tag_name("svg"));
    }

    #[test]
    fn marks_beyond_the_limit_are_counted_not_drawn() {
        // The first row of the 5 × 5 torus alone: 6 of its 24 messages are sent.
        let text = "group: <a, b | a^5 = b^5 = 1, ab = ba>\nlinks: a b a' b'\ntable:\na aa ab aab abb aabb\n";
        let loaded = load(text, &Default::default()).unwrap();
        let checked = check(&loaded.instance, &loaded.table, &[]);
        assert_eq!(checked.violations().len(), 18);
        let notes = notes(checked.violations(), 1);
        assert_eq!(notes.len(), 2);
        assert!(notes[0].starts_with("1. missing message: no word spells "));
        assert!(notes[1].starts_with("… and 17 more violations, not marked"));
        let svg = table_svg(
            &loaded.instance,
            &loaded.table,
            &checked,
            &TableOptions {
                max_marks: 1,
                ..TableOptions::default()
            },
        );
        assert_eq!(svg.matches(r#"class="mark""#).count(), 1);
        assert!(svg.contains(r#"data-violations="18""#));
    }
}
