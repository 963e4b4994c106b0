//! `--fix`, `--unsafe-fixes` and `--diff`: the fixes of a run's findings applied in memory by
//! [`crate::diagnostic::fix::apply`], then written to the files (atomically, file by file) or,
//! pass after pass in memory ([`plan_passes`]), shown as a unified diff.
//!
//! A file is changed only when it is still what the run checked: one that changed on disk
//! since is left alone, with a message naming it. A symbolic link is written through only when
//! it leads to a file inside the checked paths.

use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::diagnostic::Diagnostic;
use crate::diagnostic::escape::{self, Keep};
use crate::diagnostic::fix::{self, FileOperation, Fix, Texts};
use crate::input::overlay::Overlay;
use crate::input::read::current_text;
use crate::source::display_path;

/// How many times `--fix` re-checks and fixes again before it stops: fixes that make room for
/// other fixes settle in two or three passes; more means fixes that undo each other.
pub(crate) const MAX_PASSES: usize = 10;

/// One pass's fixes, applied in memory.
pub(crate) struct Planned {
    /// The files the fixes touch, as they are on disk (`None`: absent)...
    before: Texts,
    /// ...and as the fixes leave them.
    after: Texts,
    /// Where to write a path that is a symbolic link (its target, inside the checked paths).
    link_targets: BTreeMap<PathBuf, PathBuf>,
    /// The file a renamed file came from, whose permissions it keeps.
    renamed_from: BTreeMap<PathBuf, PathBuf>,
    /// How many findings the applied fixes fix.
    pub(crate) fixed: usize,
    /// Fixes that wait for the next pass.
    pub(crate) deferred: usize,
    /// Files left alone and fixes that could not apply, one message each.
    pub(crate) problems: Vec<String>,
    /// The size limit of the run: what is read to compare is read with it.
    max_bytes: u64,
}

/// The fixes of `diagnostics` (safe ones, and unsafe ones with `unsafe_fixes`), in their order,
/// applied in memory in one pass. `roots` are the checked paths: a symbolic link leading out of
/// them is not written through. Files are read with the run's size limit, `max_bytes`, or taken
/// from `overlay` (what `--diff`'s earlier passes left).
pub(crate) fn plan(
    diagnostics: &[Diagnostic],
    unsafe_fixes: bool,
    roots: &[PathBuf],
    max_bytes: u64,
    overlay: &Overlay,
) -> Planned {
    // The texts the run checked, which the fixes' ranges are of (the files fixes change are
    // kept whole: see `diagnostic::excerpt_files`).
    let mut checked: HashMap<&Path, &str> = HashMap::new();
    for d in diagnostics {
        for label in d.primary.iter().chain(&d.secondary) {
            if let Some(text) = label.file.whole_text() {
                checked.insert(&label.file.path, text);
            }
        }
    }
    let roots: Vec<PathBuf> = roots.iter().filter_map(|r| canonical_dir(r)).collect();
    let mut planned = Planned {
        before: Texts::new(),
        after: Texts::new(),
        link_targets: BTreeMap::new(),
        renamed_from: BTreeMap::new(),
        fixed: 0,
        deferred: 0,
        problems: Vec::new(),
        max_bytes,
    };
    // Paths that cannot be changed, each reported once.
    let mut refused: BTreeMap<PathBuf, String> = BTreeMap::new();
    let mut fixes: Vec<&Fix> = Vec::new();
    for fix in diagnostics.iter().filter(|d| d.fixable(unsafe_fixes)) {
        let Some(fix) = &fix.fix else { continue };
        let mut usable = true;
        for path in fix.paths() {
            if refused.contains_key(path) {
                usable = false;
                continue;
            }
            if planned.before.contains_key(path) {
                continue;
            }
            match disk_state(path, checked.get(path).copied(), &roots, max_bytes, overlay) {
                Ok((text, target)) => {
                    planned.before.insert(path.to_path_buf(), text);
                    if let Some(target) = target {
                        planned.link_targets.insert(path.to_path_buf(), target);
                    }
                }
                Err(problem) => {
                    refused.insert(path.to_path_buf(), problem);
                    usable = false;
                }
            }
        }
        if usable {
            fixes.push(fix);
        }
    }
    planned.problems.extend(refused.into_values());
    planned.after = planned.before.clone();
    let outcome = fix::apply(&mut planned.after, &fixes);
    for (index, problem) in &outcome.invalid {
        let title = &fixes[*index].title;
        planned
            .problems
            .push(format!("cannot apply the fix \"{title}\": {problem}"));
    }
    for &index in &outcome.applied {
        for operation in &fixes[index].operations {
            if let FileOperation::Rename { from, to } = operation {
                planned.renamed_from.insert(to.clone(), from.clone());
            }
        }
    }
    planned.fixed = outcome.applied.len();
    planned.deferred = outcome.deferred.len();
    planned
}

/// A directory given on the command line (or the directory of a file given), resolved.
fn canonical_dir(path: &Path) -> Option<PathBuf> {
    let dir = if path.is_dir() { path } else { path.parent()? };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    fs::canonicalize(dir).ok()
}

/// A file as it is on disk (`None` when absent) and, for a symbolic link, the file it leads to;
/// an error when it may not be changed: it changed since the run checked it (`checked`), it is
/// (or is in a directory that is) a link leading out of `roots`, or it cannot be read.
fn disk_state(
    path: &Path,
    checked: Option<&str>,
    roots: &[PathBuf],
    max_bytes: u64,
    overlay: &Overlay,
) -> Result<(Option<String>, Option<PathBuf>), String> {
    let shown = display_path(path);
    // A file `--diff`'s earlier passes changed: in the checked paths, as it stands in.
    if let Some(text) = overlay.file(path) {
        return Ok((text.map(str::to_string), None));
    }
    let exists = match fs::symlink_metadata(path) {
        Ok(_) => true,
        Err(e) if e.kind() == io::ErrorKind::NotFound => false,
        Err(e) => return Err(format!("left alone: {shown}: {e}")),
    };
    // Where the file really is (or would be): links, and linked directories, resolved.
    let real = if exists {
        fs::canonicalize(path)
    } else {
        let parent = path.parent().filter(|p| !p.as_os_str().is_empty());
        fs::canonicalize(parent.unwrap_or(Path::new(".")))
            .map(|dir| dir.join(path.file_name().unwrap_or_default()))
    }
    .map_err(|e| format!("left alone: {shown}: {e}"))?;
    if !roots.iter().any(|root| real.starts_with(root)) {
        return Err(format!(
            "left alone: {shown} is (through a symbolic link) {}, outside the checked paths",
            real.display()
        ));
    }
    if !exists {
        return Ok((None, None));
    }
    let is_link = fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    let text = current_text(path, max_bytes).map_err(|e| format!("left alone: {shown}: {e}"))?;
    if checked.is_some_and(|checked| checked != text) {
        return Err(changed_on_disk(&shown));
    }
    Ok((Some(text), is_link.then_some(real)))
}

fn changed_on_disk(shown: &str) -> String {
    format!("left alone: {shown} changed on disk since it was checked; run again to fix it")
}

/// Writes what `planned` changes: each changed or new file atomically (a temporary file in
/// its directory, renamed over it, with the permissions it had), then, when all of them were
/// written, the deletions. Returns how many files changed, and a message for each file that
/// could not be.
pub(crate) fn write(planned: &Planned) -> (usize, Vec<String>) {
    let mut changed = 0;
    let mut problems = Vec::new();
    let changes =
        (planned.after.iter()).filter(|(path, after)| planned.before.get(*path) != Some(*after));
    let (writes, deletions): (Vec<_>, Vec<_>) = changes.partition(|(_, after)| after.is_some());
    for (path, after) in writes.into_iter().chain(deletions) {
        let shown = display_path(path);
        let before = planned.before.get(path).and_then(Option::as_ref);
        // The last look: a file changed (or created) while the fixes were planned is left
        // alone.
        let now = current_text(path, planned.max_bytes).ok();
        let appeared = before.is_none() && fs::symlink_metadata(path).is_ok();
        if appeared || before.is_some_and(|before| now.as_ref() != Some(before)) {
            problems.push(changed_on_disk(&shown));
            continue;
        }
        // A file renamed away is deleted only once everything else is written.
        if after.is_none() && !problems.is_empty() {
            problems.push(format!(
                "left alone: {shown}, as the other files of its fixes could not all be written"
            ));
            continue;
        }
        let done = match after {
            Some(text) => {
                let target = planned
                    .link_targets
                    .get(path)
                    .map_or(path.as_path(), PathBuf::as_path);
                let like = planned
                    .renamed_from
                    .get(path)
                    .map_or(target, PathBuf::as_path);
                atomic_write(target, text, like)
            }
            None => fs::remove_file(path),
        };
        match done {
            Ok(()) => changed += 1,
            Err(e) => problems.push(format!("cannot write {shown}: {e}")),
        }
    }
    (changed, problems)
}

/// Writes `text` to a temporary file next to `path` and renames it over `path`, keeping the
/// permissions of `like` (the file itself, or the one it was renamed from) when it exists.
fn atomic_write(path: &Path, text: &str, like: &Path) -> io::Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    let temporary = dir.join(format!(".{name}.tflint-merge-fix-{}", std::process::id()));
    let written = (|| {
        let mut file = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temporary)?;
        file.write_all(text.as_bytes())?;
        file.sync_all()?;
        if let Ok(meta) = fs::metadata(like) {
            fs::set_permissions(&temporary, meta.permissions())?;
        }
        fs::rename(&temporary, path)
    })();
    if written.is_err() {
        // Nothing to do when the temporary file is already gone.
        let _ = fs::remove_file(&temporary);
    }
    written
}

/// `--diff`'s passes: the fixes of `diagnostics` planned in memory, then, while they fix
/// something, the findings `relint` gives with what they leave standing in for the files
/// (an [`Overlay`]), planned again on top, as `--fix` would write and re-check them (at most
/// [`MAX_PASSES`]). Returns everything planned, with the texts first read as `before`, and the
/// number of passes.
pub(crate) fn plan_passes(
    diagnostics: &[Diagnostic],
    relint: &dyn Fn(&Overlay) -> Vec<Diagnostic>,
    unsafe_fixes: bool,
    roots: &[PathBuf],
    max_bytes: u64,
) -> (Planned, usize) {
    let mut total = plan(
        diagnostics,
        unsafe_fixes,
        roots,
        max_bytes,
        &Overlay::default(),
    );
    let mut passes = 1;
    let mut last_fixed = total.fixed;
    while last_fixed > 0 && passes < MAX_PASSES {
        let stand_in = Overlay::with_deletions(total.after.clone());
        let found = relint(&stand_in);
        if !found.iter().any(|d| d.fixable(unsafe_fixes)) {
            break;
        }
        let next = plan(&found, unsafe_fixes, roots, max_bytes, &stand_in);
        last_fixed = next.fixed;
        for (path, text) in next.before {
            total.before.entry(path).or_insert(text);
        }
        total.after.extend(next.after);
        total.link_targets.extend(next.link_targets);
        total.renamed_from.extend(next.renamed_from);
        total.fixed += next.fixed;
        total.deferred = next.deferred;
        total.problems.extend(next.problems);
        passes += 1;
    }
    (total, passes)
}

/// The unified diff of what `planned` changes, file by file in path order, with `a/` and `b/`
/// paths relative to the working directory (`patch -p1` applies it there); a file created or
/// deleted is diffed against `/dev/null`.
pub(crate) fn diff(planned: &Planned) -> String {
    let cwd = std::env::current_dir().unwrap_or_default();
    let mut out = String::new();
    for (path, after) in &planned.after {
        let before = planned.before.get(path).cloned().flatten();
        if before.as_ref() == after.as_ref() {
            continue;
        }
        let relative = display_path(path.strip_prefix(&cwd).unwrap_or(path));
        let old_name = match before {
            Some(_) => diff_name(&format!("a/{relative}")),
            None => "/dev/null".to_string(),
        };
        let new_name = match after {
            Some(_) => diff_name(&format!("b/{relative}")),
            None => "/dev/null".to_string(),
        };
        let (old, new) = (
            before.as_deref().unwrap_or(""),
            after.as_deref().unwrap_or(""),
        );
        let text_diff = similar::TextDiff::from_lines(old, new);
        let unified = text_diff
            .unified_diff()
            .context_radius(3)
            .header(&old_name, &new_name)
            .to_string();
        out.push_str(&unified);
    }
    out
}

/// A file name in a diff header as git writes one that holds a control character, a `"` or a
/// `\\`: in double quotes, with C escapes, and in octal the bytes of the other characters that a
/// run never prints raw (git `quote.c`, `quote_c_style`), which `git apply` and `patch` read
/// back. Other names are written as they are.
fn diff_name(name: &str) -> String {
    let mut escapes = escape::escapes(name, Keep::Nothing).peekable();
    if escapes.peek().is_none() && !name.contains(['"', '\\']) {
        return name.to_string();
    }
    let mut out = String::from("\"");
    for (i, c) in name.char_indices() {
        let escaped = escapes.next_if(|&(at, _)| at == i).is_some();
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if escaped => {
                let mut bytes = [0; 4];
                for byte in c.encode_utf8(&mut bytes).bytes() {
                    out.push_str(&format!("\\{byte:03o}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod safe_fix_properties;

#[cfg(test)]
mod tests {
    use super::*;

    /// A name that would break the header's line or the terminal is quoted as git quotes it.
    #[test]
    fn diff_names_are_quoted_as_git_quotes_them() {
        assert_eq!(diff_name("a/dir/é x.tf"), "a/dir/é x.tf");
        assert_eq!(
            diff_name("a/x\n::error \"q\"\\\x1b\u{9b}.tf"),
            "\"a/x\\n::error \\\"q\\\"\\\\\\033\\302\\233.tf\""
        );
        assert_eq!(diff_name("b/##[x].tf"), "\"b/##\\133x].tf\"");
    }

    /// A file changed after the run checked it is left alone, whether it changed before the
    /// fixes were planned or while they were.
    #[test]
    fn files_changed_on_disk_are_left_alone() {
        use crate::lint::RuleSettings;
        use crate::lint::directory::{Options, ViewSelection, check_directory};
        let dir = tempfile::tempdir().expect("tempdir");
        let main = dir.path().join("main.tf");
        let text = "locals {\n  # tflint-merge-ignore: override_noop\n  a = 1\n}\n";
        fs::write(&main, text).expect("write");
        let settings = RuleSettings::defaults(crate::rules::registry());
        let options = Options::new(ViewSelection::Both, settings);
        let checked = check_directory(dir.path(), &options).diagnostics;
        let roots = [dir.path().to_path_buf()];
        assert_eq!(
            plan(&checked, false, &roots, 1000, &Overlay::default()).fixed,
            1
        );

        let edited = format!("# edited\n{text}");
        fs::write(&main, &edited).expect("write");
        let planned = plan(&checked, false, &roots, 1000, &Overlay::default());
        assert_eq!(planned.fixed, 0);
        assert!(
            planned.problems[0].contains("changed on disk"),
            "{:?}",
            planned.problems
        );

        fs::write(&main, text).expect("write");
        let planned = plan(&checked, false, &roots, 1000, &Overlay::default());
        fs::write(&main, &edited).expect("write");
        let (changed, problems) = write(&planned);
        assert_eq!(changed, 0);
        assert!(problems[0].contains("changed on disk"), "{problems:?}");
        assert_eq!(current_text(&main, 1000).as_ref(), Ok(&edited));
    }

    #[test]
    fn atomic_write_keeps_permissions_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("main.tf");
        fs::write(&path, "old\n").expect("write");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).expect("chmod");
        }
        atomic_write(&path, "new\n", &path).expect("atomic write");
        assert_eq!(current_text(&path, 1000).as_deref(), Ok("new\n"));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(&path).expect("metadata").permissions().mode();
            assert_eq!(mode & 0o777, 0o640);
        }
        let names: Vec<_> = fs::read_dir(dir.path()).expect("list").flatten().collect();
        assert_eq!(names.len(), 1, "only main.tf: {names:?}");
    }
}
