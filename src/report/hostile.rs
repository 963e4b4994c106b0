//! For the tests: hostile text (file names, labels, messages and file contents that mix control
//! characters, workflow-command markers, newlines, percent signs and other Unicode), and what
//! every output must be whatever that text: no raw control character but the format's own
//! newlines, no line that the GitHub runner reads as a workflow command but those the `github`
//! format writes, and no legacy `##[` command anywhere.

use crate::diagnostic::escape::is_ignorable;

/// A small seeded generator (SplitMix64): the same cases on every run.
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub(crate) fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// What hostile text is made of, besides single characters.
const PIECES: &[&str] = &[
    "::",
    "::error file=README.md,line=1::INJECTED",
    "::set-output name=x::y",
    "##[",
    "##[error]legacy",
    "#\u{ad}#[warning]x",
    "%",
    "%0A",
    "%25",
    ",",
    ":",
    "=",
    "\n",
    "\r",
    "\r\n",
    "\n::error::x",
    "\r::warning::x",
    "\n  ::notice::x",
    "\u{2028}::x",
    "\t",
    " ",
    "\u{a0}",
    "é",
    "🗻",
    "\u{2028}",
    "\u{2029}",
    "\u{202e}",
    "\u{2066}",
    "\u{ad}",
    "\u{200b}",
    "\u{feff}",
    "\x1b]0;pwned\x07",
    "\x1b[31m",
    "\x1b]8;;http://evil\x1b\\",
    "\u{9b}31m",
    "\u{85}",
    "\0",
    "\x7f",
    "\"",
    "'",
    "<",
    ">",
    "&",
    "\\",
    "\\n",
    "a",
    "main",
    ".tf",
    "[",
    "]",
];

/// A character a terminal or a CI runner may act on.
fn control(rng: &mut Rng) -> char {
    let ranges: &[(u32, u32)] = &[
        (0, 0x1f),
        (0x7f, 0x9f),
        (0x2028, 0x2029),
        (0x202a, 0x202e),
        (0x2066, 0x2069),
        (0x200b, 0x200f),
    ];
    let &(low, high) = rng.pick(ranges);
    let code = low + rng.below((high - low + 1) as usize) as u32;
    char::from_u32(code).unwrap_or('\0')
}

/// Hostile text of one to `pieces` pieces.
pub(crate) fn text(rng: &mut Rng, pieces: usize) -> String {
    let mut out = String::new();
    for _ in 0..=rng.below(pieces) {
        match rng.below(5) {
            0 => out.push(control(rng)),
            1 => out.push(char::from_u32(rng.below(0x3_0000) as u32).unwrap_or('\u{fffd}')),
            _ => out.push_str(PIECES[rng.below(PIECES.len())]),
        }
    }
    out
}

/// How an output may use what the checks otherwise refuse.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Printed {
    /// Plain text, JSON or XML: no control character but newlines, no workflow command.
    Text,
    /// The human format with `--color always`: ESC too, but only to start a colour (SGR).
    Colored,
    /// The `github` format: every line a workflow command, and as many as it writes.
    Github { commands: usize },
}

/// Panics, naming `what` and showing the offending line, unless `output` is as [`Printed`]
/// allows.
pub(crate) fn check(what: &str, output: &[u8], printed: Printed) {
    let Ok(output) = std::str::from_utf8(output) else {
        panic!("{what}: not UTF-8: {output:?}");
    };
    let fail = |problem: &str, line: &str| -> ! {
        panic!("{what}: {problem} in line {line:?}\nwhole output:\n{output:?}")
    };
    let lines: Vec<&str> = output
        .strip_suffix('\n')
        .unwrap_or(output)
        .split('\n')
        .collect();
    for line in &lines {
        for (i, c) in line.char_indices() {
            if c == '\x1b' && matches!(printed, Printed::Colored) && is_colour(&line[i..]) {
                continue;
            }
            let separator = matches!(c, '\u{2028}' | '\u{2029}');
            let bidi = matches!(c, '\u{61c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
            if c.is_control() || separator || bidi {
                fail(&format!("raw {c:?}"), line);
            }
        }
        // What the runner compares, by culture: invisible characters count for nothing.
        let seen: String = line.chars().filter(|&c| !is_ignorable(c)).collect();
        if seen.contains("##[") {
            fail("a legacy workflow command `##[`", line);
        }
        let command = seen.trim_start().starts_with("::");
        match printed {
            Printed::Github { .. } if !command => fail("a line that is not a command", line),
            Printed::Text | Printed::Colored if command => fail("a workflow command", line),
            _ => {}
        }
    }
    if let Printed::Github { commands } = printed
        && lines.len() != commands
    {
        panic!("{what}: {} lines, not {commands}:\n{output}", lines.len());
    }
}

/// Whether `text` starts with an SGR sequence (`ESC [ digits and semicolons m`).
fn is_colour(text: &str) -> bool {
    let Some(rest) = text.strip_prefix("\x1b[") else {
        return false;
    };
    let parameters = rest.len()
        - rest
            .trim_start_matches(|c: char| c.is_ascii_digit() || c == ';')
            .len();
    rest[parameters..].starts_with('m')
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::diagnostic::fix::FileOperation;
    use crate::diagnostic::{Applicability, Diagnostic, Fix, Severity, TEST_ID, Views};
    use crate::report::{Format, RenderStyle, Rendering, Totals, render};
    use crate::source::{FileId, SourceFile, SourceFiles, Span};

    const FORMATS: [Format; 8] = [
        Format::Human,
        Format::Short,
        Format::Json,
        Format::Sarif,
        Format::Github,
        Format::Checkstyle,
        Format::Junit,
        Format::Gitlab,
    ];

    /// Renders `diagnostics` in every format (the human one with and without colour, whole and
    /// finding by finding) and checks each output.
    fn check_every_format(
        case: &str,
        diagnostics: &[Diagnostic],
        catalogue: &[&crate::lint::RuleMeta],
    ) {
        let totals = Totals {
            views: Views::BOTH,
            ..Totals::default()
        };
        for (format, color) in FORMATS
            .iter()
            .map(|&f| (f, false))
            .chain([(Format::Human, true)])
        {
            let mut out = Vec::new();
            render(&mut out, format, color, diagnostics, totals, catalogue).expect("render");
            let printed = match (format, color) {
                (Format::Github, _) => Printed::Github {
                    commands: diagnostics.len() + 1,
                },
                (_, true) => Printed::Colored,
                _ => Printed::Text,
            };
            check(&format!("{case} {format:?} color={color}"), &out, printed);
        }
        for rendering in [
            Rendering::Human { color: false },
            Rendering::Human { color: true },
            Rendering::Short,
        ] {
            let style = RenderStyle {
                format: rendering,
                views: Views::BOTH,
                unsafe_fixes: true,
            };
            let printed = match rendering {
                Rendering::Human { color: true } => Printed::Colored,
                _ => Printed::Text,
            };
            for d in diagnostics {
                let rendered = style.render(d);
                let mut out = Vec::new();
                crate::report::write_rendered(&mut out, &style, &[rendered], totals, true)
                    .expect("write");
                check(&format!("{case} {rendering:?}"), &out, printed);
            }
        }
    }

    /// A range of whole characters in `text`.
    fn span(rng: &mut Rng, file: FileId, text: &str) -> Span {
        let boundaries: Vec<usize> = (text.char_indices().map(|(i, _)| i))
            .chain([text.len()])
            .collect();
        let a = *rng.pick(&boundaries);
        let b = *rng.pick(&boundaries);
        Span::new(file, a.min(b)..a.max(b))
    }

    /// A file name: hostile text without `/` (display paths turn `\` into `/` too).
    fn name(rng: &mut Rng) -> String {
        text(rng, 6).replace(['/', '\\'], "_")
    }

    /// Findings whose every field but the id is hostile: file names, contents, messages,
    /// labels, notes, help, fix titles and edits, a finding about a path alone; in every
    /// format nothing a terminal or the runner acts on gets out, and the JSON formats keep the
    /// data exact.
    #[test]
    fn no_format_prints_what_hostile_text_asks() {
        let mut rng = Rng::new(39);
        let full = crate::rules::registry().catalogue();
        for case in 0..3000 {
            let mut files = SourceFiles::default();
            let contents = [text(&mut rng, 30), text(&mut rng, 30)];
            let a = files.add(SourceFile::new(
                PathBuf::from(name(&mut rng)),
                contents[0].clone(),
            ));
            let b = files.add(SourceFile::new(
                PathBuf::from(name(&mut rng)),
                contents[1].clone(),
            ));
            let severity = *rng.pick(&[Severity::Error, Severity::Warning, Severity::Notice]);
            let views = *rng.pick(&[Views::BOTH, Views::TERRAFORM, Views::OPENTOFU]);
            let (primary, secondary) = (
                span(&mut rng, a, &contents[0]),
                span(&mut rng, b, &contents[1]),
            );
            let fix = Fix::new(
                text(&mut rng, 4),
                *rng.pick(&[Applicability::Safe, Applicability::Unsafe]),
            )
            .edit(&files.get(a).path, primary.range(), text(&mut rng, 4))
            .operation(FileOperation::Create {
                path: PathBuf::from(name(&mut rng)),
                content: text(&mut rng, 4),
            });
            let located = Diagnostic::new(TEST_ID, severity, text(&mut rng, 8))
                .at(&files, primary, text(&mut rng, 4))
                .with_label(&files, secondary, text(&mut rng, 4))
                .with_note(text(&mut rng, 4))
                .with_help(text(&mut rng, 4))
                .with_fix(fix)
                .in_views(views);
            let pathless = Diagnostic::error(crate::rules::IO_ERROR.id(), text(&mut rng, 6))
                .at_path(name(&mut rng));
            let diagnostics = [located, pathless];
            // The rules' own text once in a while: it is long, and not hostile.
            let catalogue = if case % 500 == 0 { full } else { &[] };
            check_every_format(&format!("case {case}"), &diagnostics, catalogue);
            // The data survives the JSON formats' escapes.
            let totals = Totals::default();
            let mut json = Vec::new();
            render(
                &mut json,
                Format::Json,
                false,
                &diagnostics,
                totals,
                catalogue,
            )
            .expect("render");
            let json: serde_json::Value = serde_json::from_slice(&json).expect("JSON");
            for (finding, d) in json["findings"]
                .as_array()
                .expect("findings")
                .iter()
                .zip(&diagnostics)
            {
                assert_eq!(finding["message"], &*d.message, "case {case}");
                assert_eq!(
                    finding["file"],
                    super::super::location::file_of(d).as_str(),
                    "case {case}"
                );
                assert_eq!(finding["notes"], serde_json::json!(d.notes), "case {case}");
            }
        }
    }

    /// Hostile file names and contents through a real run: load errors with excerpts, a
    /// backend label that holds a newline and a command, values with control bytes.
    #[test]
    fn no_run_prints_what_hostile_files_ask() {
        let mut rng = Rng::new(3939);
        for case in 0..300 {
            let dir = tempfile::tempdir().expect("tempdir");
            // A name a file system takes: no `/`, no NUL, not too long.
            let file_name = |rng: &mut Rng, suffix: &str| {
                let mut name: String = name(rng).replace('\0', "_").chars().take(40).collect();
                name.push_str(suffix);
                dir.path().join(name)
            };
            // A label written with the escapes of a quoted HCL string, so that it holds every
            // character of the hostile text; a value with the raw bytes.
            let label = text(&mut rng, 8);
            let quoted: String = label
                .chars()
                .map(|c| match c {
                    '"' => "\\\"".to_string(),
                    '\\' => "\\\\".to_string(),
                    '\n' => "\\n".to_string(),
                    '\r' => "\\r".to_string(),
                    '$' | '%' => format!("{c}{c}"),
                    c => c.to_string(),
                })
                .collect();
            let raw = text(&mut rng, 8).replace(['"', '\n', '\\'], "_");
            let files = [
                (
                    file_name(&mut rng, ".tf"),
                    format!(
                        "terraform {{\n  backend \"{quoted}\" {{}}\n}}\nlocals {{\n  a = \"{raw}\"\n}}\n"
                    ),
                ),
                (
                    file_name(&mut rng, "_override.tf"),
                    format!("variable \"{quoted}\" {{\n  default = \"{raw}\"\n}}\n"),
                ),
                (file_name(&mut rng, ".tf"), text(&mut rng, 20)),
            ];
            for (path, content) in &files {
                std::fs::write(path, content).expect("write");
            }
            let report = crate::rules::check_with_defaults(dir.path());
            assert!(!report.diagnostics.is_empty(), "case {case}");
            check_every_format(&format!("run {case}"), &report.diagnostics, &[]);
        }
    }
}
