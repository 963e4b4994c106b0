//! `--output-file [FORMAT=]PATH`: where the report goes. As ruff's `--output-file`, a bare
//! path takes the output of `--format` in place of stdout; with a format in front
//! (`sarif=results.sarif`), it is one more report of the same run, in that format, so that CI
//! gets its log and its SARIF file from one run. Repeatable.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use clap::ValueEnum;

use crate::diagnostic::Diagnostic;
use crate::lint::RuleMeta;
use crate::report::{self, Format, Totals};

/// One more report of the run, written to a file.
#[derive(Debug, Clone)]
pub(super) struct ExtraOutput {
    pub(super) format: Format,
    pub(super) path: PathBuf,
}

/// The `--output-file` values, parsed.
#[derive(Debug, Default)]
pub(super) struct Outputs {
    /// Where the `--format` output goes instead of stdout.
    pub(super) main: Option<PathBuf>,
    pub(super) extra: Vec<ExtraOutput>,
}

impl Outputs {
    /// Reads `[FORMAT=]PATH` values: `FORMAT` is a `--format` name (a path whose text before
    /// its first `=` is not one is a path). At most one bare path.
    pub(super) fn parse(values: &[String]) -> Result<Outputs, String> {
        let mut outputs = Outputs::default();
        for value in values {
            let named = value.split_once('=').and_then(|(name, path)| {
                let format = Format::from_str(name, true).ok()?;
                Some((format, path))
            });
            match named {
                Some((_, "")) => {
                    return Err(format!("--output-file {value}: a path is needed after `=`"));
                }
                Some((format, path)) => outputs.extra.push(ExtraOutput {
                    format,
                    path: PathBuf::from(path),
                }),
                None if value.is_empty() => return Err("--output-file: an empty path".into()),
                None if outputs.main.is_some() => {
                    return Err(format!(
                        "--output-file {value}: the output of --format already goes to a \
                         file; name another output's format, as `sarif={value}`"
                    ));
                }
                None => outputs.main = Some(PathBuf::from(value)),
            }
        }
        Ok(outputs)
    }
}

/// A file to write a report to, its directory made first (as ruff does).
pub(super) fn create(path: &Path) -> io::Result<BufWriter<File>> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)?;
    }
    File::create(path).map(BufWriter::new)
}

/// Writes each extra report, never coloured; an error names the file.
pub(super) fn write_extra(
    extra: &[ExtraOutput],
    diagnostics: &[Diagnostic],
    totals: Totals,
    catalogue: &[&RuleMeta],
) -> io::Result<()> {
    for output in extra {
        let named = |error: io::Error| {
            let shown = crate::source::display_path(&output.path);
            io::Error::new(error.kind(), format!("{shown}: {error}"))
        };
        let mut file = create(&output.path).map_err(named)?;
        report::render(
            &mut file,
            output.format,
            false,
            diagnostics,
            totals,
            catalogue,
        )
        .and_then(|()| file.flush())
        .map_err(named)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_format_name_before_equals_makes_an_extra_output() {
        let values = ["out.txt", "sarif=a/b.sarif", "SARIF=c.sarif", "x=y.txt"];
        let outputs = Outputs::parse(&values.map(String::from)).expect_err("two bare paths");
        assert!(outputs.contains("already goes to a file"), "{outputs}");
        let values = ["sarif=a/b.sarif", "JUnit=c.xml", "x=y.txt"];
        let outputs = Outputs::parse(&values.map(String::from)).expect("parse");
        assert_eq!(outputs.main, Some(PathBuf::from("x=y.txt")));
        let extra: Vec<(Format, &str)> = (outputs.extra.iter())
            .map(|o| (o.format, o.path.to_str().expect("UTF-8")))
            .collect();
        assert_eq!(
            extra,
            [(Format::Sarif, "a/b.sarif"), (Format::Junit, "c.xml")]
        );
        assert!(Outputs::parse(&["sarif=".to_string()]).is_err());
    }
}
