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

/// Writes the line breaks of `lines` (written with `\n`) as `ending`.
pub fn with_line_ending(lines: &str, ending: &str) -> String {
    if ending == "\n" {
        return lines.to_string();
    }
    lines.replace("\r\n", "\n").replace('\n', ending)
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
