//! How a file is laid out, so that the lines a fix writes look like their neighbours: the line
//! ending and the indentation the file already uses, and `terraform fmt`'s alignment of the
//! `=` of consecutive attributes (hashicorp/hcl `hclwrite/format.go`, `formatCells`).

/// The line ending of the file: `\r\n` when its first line ends so, else `\n`.
pub fn line_ending(text: &str) -> &'static str {
    match text.find('\n') {
        Some(at) if text[..at].ends_with('\r') => "\r\n",
        _ => "\n",
    }
}

/// The leading blanks of the line that starts at `line_start`.
pub fn indentation_at(text: &str, line_start: usize) -> &str {
    let line = &text[line_start..];
    &line[..line.len() - line.trim_start_matches([' ', '\t']).len()]
}

/// One level of indentation as the file writes it: a tab when its first indented line starts
/// with a tab, else two spaces (what `terraform fmt` writes).
pub fn indent_unit(text: &str) -> &'static str {
    let first_indented = text
        .split('\n')
        .find(|line| line.starts_with([' ', '\t']) && !line.trim().is_empty());
    match first_indented {
        Some(line) if line.starts_with('\t') => "\t",
        _ => "  ",
    }
}

/// A line as `terraform fmt` cuts it into cells (hashicorp/hcl `hclwrite/format.go`,
/// `linesForFormat`): the code before an attribute's `=` (the lead), the `=` with the
/// expression after it when the expression ends on the line (the assign cell), and a comment
/// that ends the line after some code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Cells {
    /// Where the `=` of the assign cell is.
    pub(super) equals: Option<usize>,
    /// Where the trailing comment starts.
    pub(super) comment: Option<usize>,
    /// Whether fmt's columns can be counted on this line as bytes: it is ASCII, and no string,
    /// heredoc or block comment goes on past its end.
    pub(super) measurable: bool,
}

impl Cells {
    pub(super) fn any(&self) -> bool {
        self.equals.is_some() || self.comment.is_some()
    }
}

/// What a position of a line is inside of, for [`cells`].
enum Mode {
    /// A quoted string or template.
    String,
    /// The code of a template's `${ }` or `%{ }` sequence, with the braces opened in it.
    Sequence { braces: usize },
}

/// The cells of one line (without its line ending).
pub(super) fn cells(line: &str) -> Cells {
    let bytes = line.as_bytes();
    let mut found = Cells {
        equals: None,
        comment: None,
        measurable: line.is_ascii(),
    };
    // The strings and template sequences open at this point of the line, innermost last.
    let mut modes: Vec<Mode> = Vec::new();
    // Brackets opened after the `=` and not closed: a multi-line expression has no assign cell.
    let mut open_after_equals = 0i32;
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let next = bytes.get(i + 1).copied();
        if let Some(Mode::String) = modes.last() {
            match (c, next) {
                (b'\\', _) => i += 1,
                (b'$' | b'%', Some(b'{')) => {
                    modes.push(Mode::Sequence { braces: 0 });
                    open_after_equals += 1;
                    i += 1;
                }
                // `$${` and `%%{` are the escapes of a literal `${` and `%{`.
                (b'$', Some(b'$')) | (b'%', Some(b'%')) => i += 1,
                (b'"', _) => {
                    modes.pop();
                }
                _ => {}
            }
            i += 1;
            continue;
        }
        match (c, next) {
            (b'"', _) => modes.push(Mode::String),
            (b'#', _) | (b'/', Some(b'/')) => {
                if !line[..i].trim().is_empty() && modes.is_empty() {
                    found.comment = Some(i);
                }
                break;
            }
            (b'/', Some(b'*')) => {
                let closes_at_end = line[i + 2..].find("*/").map(|at| i + 2 + at + 2);
                if closes_at_end.is_none_or(|end| !line[end..].trim().is_empty()) {
                    found.measurable = false;
                } else if !line[..i].trim().is_empty() && modes.is_empty() {
                    found.comment = Some(i);
                }
                break;
            }
            (b'<', Some(b'<')) => found.measurable = false,
            (b'{' | b'[' | b'(', _) => {
                open_after_equals += 1;
                if let Some(Mode::Sequence { braces }) = modes.last_mut() {
                    *braces += 1;
                }
            }
            (b'}' | b']' | b')', _) => {
                open_after_equals -= 1;
                match modes.last_mut() {
                    Some(Mode::Sequence { braces: 0 }) if c == b'}' => {
                        modes.pop();
                    }
                    Some(Mode::Sequence { braces }) => *braces = braces.saturating_sub(1),
                    _ => {}
                }
            }
            (b'=', _) if found.equals.is_none() && modes.is_empty() => {
                let before = line[..i].trim_end();
                let operator = matches!(next, Some(b'=' | b'>'))
                    || before.len() == i && before.ends_with(['=', '!', '<', '>']);
                if !operator && !before.trim().is_empty() {
                    found.equals = Some(i);
                    open_after_equals = 0;
                }
            }
            _ => {}
        }
        i += 1;
    }
    if !modes.is_empty() {
        found.measurable = false;
    }
    // hclwrite takes the assign cell only when the brackets from the `=` on balance: a line
    // that opens a multi-line value, or closes one (`{ a = 1 },` ending a list), has none.
    if found.equals.is_some() && open_after_equals != 0 {
        found.equals = None;
    }
    found
}

/// `lines` (without line endings) with the `=` of each run of consecutive assign cells and
/// the comments of each run of consecutive trailing comments aligned as `terraform fmt` aligns
/// them (`formatCells`: one space after the longest lead, then after the longest code); `None`
/// when a line cannot be measured.
fn fmt_aligned(lines: &[&str]) -> Option<Vec<String>> {
    let all: Vec<Cells> = lines.iter().map(|l| cells(l)).collect();
    if all.iter().any(|c| !c.measurable) {
        return None;
    }
    let lead_width = |line: &str, cells: &Cells| cells.equals.map(|at| line[..at].trim_end().len());
    let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    for run in runs(&all, |c| c.equals.is_some()) {
        let widest = run
            .clone()
            .filter_map(|i| lead_width(lines[i], &all[i]))
            .max();
        for i in run {
            let (Some(at), Some(widest)) = (all[i].equals, widest) else {
                continue;
            };
            let lead = lines[i][..at].trim_end();
            out[i] = format!(
                "{lead}{}{}",
                " ".repeat(widest - lead.len() + 1),
                &lines[i][at..]
            );
        }
    }
    let aligned: Vec<Cells> = out.iter().map(|l| cells(l)).collect();
    let code_width =
        |line: &str, cells: &Cells| cells.comment.map(|at| line[..at].trim_end().len());
    for run in runs(&aligned, |c| c.comment.is_some()) {
        let widest = run
            .clone()
            .filter_map(|i| code_width(&out[i], &aligned[i]))
            .max();
        for i in run {
            let (Some(at), Some(widest)) = (aligned[i].comment, widest) else {
                continue;
            };
            let code = out[i][..at].trim_end().to_string();
            let comment = out[i][at..].to_string();
            out[i] = format!("{code}{}{comment}", " ".repeat(widest - code.len() + 1));
        }
    }
    Some(out)
}

/// The index ranges of the runs of consecutive lines whose cells have `what`.
fn runs(all: &[Cells], what: impl Fn(&Cells) -> bool) -> Vec<std::ops::Range<usize>> {
    let mut found = Vec::new();
    let mut start = None;
    for (i, c) in all.iter().enumerate() {
        match (what(c), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                found.push(s..i);
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        found.push(s..all.len());
    }
    found
}

/// The text `region` (whole lines) laid out as `terraform fmt` aligns it, when it differs.
pub(super) fn realigned(region: &str) -> Option<String> {
    let mut lines: Vec<&str> = region.split('\n').collect();
    // A region ends with its last line's ending: the piece after it is empty.
    let trailing = lines.pop_if(|l| l.is_empty()).is_some();
    let endings: Vec<bool> = lines.iter().map(|l| l.ends_with('\r')).collect();
    let bare: Vec<&str> = lines.iter().map(|l| l.trim_end_matches('\r')).collect();
    let aligned = fmt_aligned(&bare)?;
    let mut out = String::with_capacity(region.len());
    for (i, line) in aligned.iter().enumerate() {
        out.push_str(line);
        if endings[i] {
            out.push('\r');
        }
        if i + 1 < aligned.len() || trailing {
            out.push('\n');
        }
    }
    (out != region).then_some(out)
}

/// Whether the text `region` (whole lines) is aligned as `terraform fmt` aligns it: what
/// [`super::alignment::Alignment`] answers without reading the region, checked against it.
#[cfg(test)]
pub(super) fn is_fmt_aligned(region: &str) -> bool {
    let bare: Vec<&str> = (region.split('\n'))
        .map(|l| l.trim_end_matches('\r'))
        .collect();
    fmt_aligned(&bare).is_some_and(|aligned| aligned == bare)
}

/// The whole lines around `range` of `text`: from the start of the first line it touches to the
/// end (line ending included) of the last, widened over the neighbouring lines that have an
/// assign or comment cell, where fmt's runs of aligned lines may go on: what
/// [`super::alignment::Alignment::region`] answers without walking the lines, checked against
/// it.
#[cfg(test)]
pub(super) fn alignment_region(
    text: &str,
    range: std::ops::Range<usize>,
) -> std::ops::Range<usize> {
    let line_start = |at: usize| text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line_end = |at: usize| text[at..].find('\n').map_or(text.len(), |i| at + i + 1);
    let has_cells =
        |start: usize, end: usize| cells(text[start..end].trim_end_matches(['\n', '\r'])).any();
    let mut start = line_start(range.start);
    while start > 0 {
        let previous = line_start(start - 1);
        if !has_cells(previous, start) {
            break;
        }
        start = previous;
    }
    let mut end = line_end(range.end.max(start));
    if range.end > range.start && text[..range.end].ends_with('\n') {
        end = range.end;
    }
    while end < text.len() {
        let next = line_end(end);
        if !has_cells(end, next) {
            break;
        }
        end = next;
    }
    start..end
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_cut_as_fmt_cuts_them() {
        let c = cells("  ami = \"a=b\" # x = 1");
        assert_eq!((c.equals, c.comment), (Some(6), Some(14)));
        assert_eq!(cells("  tags = {").equals, None);
        assert_eq!(cells("  t = { a = 1 }").equals, Some(4));
        assert_eq!(cells("  a = x == y").equals, Some(4));
        assert_eq!(cells("  { a = 1 },").equals, None);
        assert_eq!(cells("  # a = 1").comment, None);
        assert_eq!(cells("  # a = 1").equals, None);
        assert_eq!(cells("  a = \"${x}\" // c").comment, Some(13));
        assert!(!cells("  a = <<EOT").measurable);
        assert!(!cells("  a = \"é\"").measurable);
    }

    #[test]
    fn runs_are_aligned_as_fmt_aligns_them() {
        let region = "  ami           = \"a\" # one\n  x = 1 # two\n\n  bb = 2\n  c  = 3\n";
        assert_eq!(
            realigned(region).as_deref(),
            Some("  ami = \"a\" # one\n  x   = 1   # two\n\n  bb = 2\n  c  = 3\n")
        );
        assert!(is_fmt_aligned("  ami = \"a\" # one\n  x   = 1   # two\n"));
        assert!(!is_fmt_aligned("  ami  = \"a\"\n  x   = 1\n"));
        assert_eq!(
            realigned("  a = 1\r\n  bb = 2\r\n").as_deref(),
            Some("  a  = 1\r\n  bb = 2\r\n")
        );
    }

    /// What Terraform 1.15's `terraform fmt` writes for this text (checked with it): objects
    /// of a list are no assign cells, trailing comments align after the longest code.
    #[test]
    fn alignment_is_terraform_fmts() {
        let text = "locals {\n  l = [\n    { a = 1 },\n    { bbb = 2 },\n  ]\n  x = 1 # c\n  \
                    yy = { k = 1 } # d\n  z = \"#\" // e\n}\n";
        let fmt = "locals {\n  l = [\n    { a = 1 },\n    { bbb = 2 },\n  ]\n  x  = 1         # c\n  \
                   yy = { k = 1 } # d\n  z  = \"#\"       // e\n}\n";
        assert_eq!(realigned(text).as_deref(), Some(fmt));
        assert!(is_fmt_aligned(fmt));
    }
}
