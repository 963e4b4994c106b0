//! `--fix`, `--unsafe-fixes` and `--diff`: the fixes of a run's findings applied in memory by
//! [`crate::diagnostic::fix::apply`], then written to the files (file by file, see [`disk`])
//! or, pass after pass in memory ([`plan_passes`]), shown as a unified diff.
//!
//! A file is changed only when it is still what the run checked, up to the moment it is
//! replaced: one that changed on disk is left alone, with a message naming it. So are
//! read-only files. A symbolic link stays a link: a fix is written to the file it leads to,
//! when that is inside the checked paths (as ruff writes through links), and a link that a fix
//! renames is renamed itself.

pub(super) mod disk;
mod lease;
mod linked;
pub(crate) mod unified;

pub(crate) use linked::unsafe_where_linked;

use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};

use crate::diagnostic::Diagnostic;
use crate::diagnostic::escape::{self, Keep};
use crate::diagnostic::fix::{self, FileOperation, Fix, Texts};
use crate::input::overlay::Overlay;
use crate::source::display_path;

/// How many times `--fix` re-checks and fixes again before it stops: fixes that make room for
/// other fixes settle in two or three passes; more means fixes that undo each other.
pub(crate) const MAX_PASSES: usize = 10;

/// The checked paths, resolved: a symbolic link leading out of them is not written through.
pub(crate) struct Roots(Vec<PathBuf>);

impl Roots {
    /// The directories of the paths given on the command line (a file's own directory).
    pub(crate) fn of(paths: &[PathBuf]) -> Roots {
        Roots(paths.iter().filter_map(|p| canonical_dir(p)).collect())
    }

    fn contain(&self, real: &Path) -> bool {
        self.0.iter().any(|root| real.starts_with(root))
    }
}

/// One pass's fixes, applied in memory.
pub(crate) struct Planned {
    /// The files the fixes touch, as they are on disk (`None`: absent)...
    before: Texts,
    /// ...and as the fixes leave them.
    after: Texts,
    /// The identity each existing file had when it was read (for a link, the file it leads
    /// to), which it must still have when it is changed.
    identities: BTreeMap<PathBuf, disk::Identity>,
    /// Where to write a path that is a symbolic link (its target, inside the checked paths).
    link_targets: BTreeMap<PathBuf, PathBuf>,
    /// The file a renamed file came from.
    renamed_from: BTreeMap<PathBuf, PathBuf>,
    /// How many findings the applied fixes fix.
    pub(crate) fixed: usize,
    /// Fixes that wait for the next pass.
    pub(crate) deferred: usize,
    /// Files left alone and fixes that could not apply, one message each: a fix asked for and
    /// refused.
    pub(crate) problems: Vec<String>,
}

/// A file a fix touches, as the plan found it.
struct OnDisk {
    /// Its text (`None`: absent) and identity (`None` for absent files and texts standing in
    /// for files).
    text: Option<String>,
    identity: Option<disk::Identity>,
    /// For a symbolic link, the file it leads to.
    link_target: Option<PathBuf>,
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
    let roots = Roots::of(roots);
    let mut planned = Planned {
        before: Texts::new(),
        after: Texts::new(),
        identities: BTreeMap::new(),
        link_targets: BTreeMap::new(),
        renamed_from: BTreeMap::new(),
        fixed: 0,
        deferred: 0,
        problems: Vec::new(),
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
                Ok(found) => {
                    let path = path.to_path_buf();
                    if let Some(identity) = found.identity {
                        planned.identities.insert(path.clone(), identity);
                    }
                    if let Some(target) = found.link_target {
                        planned.link_targets.insert(path.clone(), target);
                    }
                    planned.before.insert(path, found.text);
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

/// Drops the fix of every finding that `--fix` would refuse to apply, because a file it
/// changes is read-only, is (or is in a directory that is) a link leading out of `roots`, or
/// cannot be looked at: after `--fix`, `[*]` and the counts of fixable findings show only what
/// it would change. Whether a file changed since it was checked is not asked: that passes.
pub(crate) fn withhold_refused(diagnostics: &mut [Diagnostic], roots: &Roots) {
    let mut refused: HashMap<PathBuf, bool> = HashMap::new();
    for d in diagnostics.iter_mut() {
        let Some(fix) = &d.fix else { continue };
        let refuses = fix.paths().into_iter().any(|path| {
            *(refused.entry(path.to_path_buf())).or_insert_with(|| place(path, roots).is_err())
        });
        if refuses {
            d.fix = None;
        }
    }
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

/// Where a file a fix touches is: whether it exists and, for a symbolic link, the file it leads
/// to; an error when it may not be changed: it is (or is in a directory that is) a link leading
/// out of `roots`, or it is read-only.
fn place(path: &Path, roots: &Roots) -> Result<(bool, Option<PathBuf>), String> {
    let shown = display_path(path);
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
    if !roots.contain(&real) {
        return Err(format!(
            "left alone: {shown} is (through a symbolic link) {}, outside the checked paths",
            real.display()
        ));
    }
    if !exists {
        return Ok((false, None));
    }
    if disk::read_only(path) {
        return Err(format!("left alone: {shown} is read-only"));
    }
    let is_link = fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    Ok((true, is_link.then_some(real)))
}

/// A file as it is on disk (see [`OnDisk`]); an error when it may not be changed (see
/// [`place`]), it changed since the run checked it (`checked`), or it cannot be read.
fn disk_state(
    path: &Path,
    checked: Option<&str>,
    roots: &Roots,
    max_bytes: u64,
    overlay: &Overlay,
) -> Result<OnDisk, String> {
    let shown = display_path(path);
    // A file `--diff`'s earlier passes changed: in the checked paths, as it stands in.
    if let Some(text) = overlay.file(path) {
        return Ok(OnDisk {
            text: text.map(str::to_string),
            identity: None,
            link_target: None,
        });
    }
    let (exists, link_target) = place(path, roots)?;
    if !exists {
        return Ok(OnDisk {
            text: None,
            identity: None,
            link_target: None,
        });
    }
    let (text, identity) = match disk::read(path, max_bytes) {
        Ok(read) => read,
        Err(disk::Failure::Unreadable(e)) => return Err(format!("left alone: {shown}: {e}")),
        Err(_) => return Err(changed_since_checked(&shown)),
    };
    if checked.is_some_and(|checked| checked != text) {
        return Err(changed_since_checked(&shown));
    }
    Ok(OnDisk {
        text: Some(text),
        identity: Some(identity),
        link_target,
    })
}

fn changed_since_checked(shown: &str) -> String {
    format!("left alone: {shown} changed on disk since it was checked; run again to fix it")
}

/// The message for a file `write` did not change.
pub(super) fn not_written(path: &Path, failure: disk::Failure) -> String {
    let shown = display_path(path);
    match failure {
        disk::Failure::Changed => format!(
            "left alone: {shown} changed on disk while it was being fixed; nothing was written \
             to it; run again to fix it"
        ),
        disk::Failure::OpenForWriting => format!(
            "left alone: {shown} is open for writing in another program; nothing was written \
             to it; run again to fix it"
        ),
        disk::Failure::OpenedWhileReplaced => format!(
            "{shown} was fixed, but another program opened it for writing just as the fix \
             replaced it: what that program writes goes to the file the fix replaced, which is \
             gone; save {shown} again"
        ),
        disk::Failure::Appeared => {
            format!("left alone: {shown} appeared on disk while it was being fixed")
        }
        disk::Failure::Unreadable(e) => format!("left alone: {shown}: {e}"),
        disk::Failure::Io(e) => format!("cannot write {shown}: {e}"),
    }
}

/// Writes what `planned` changes, file by file, each only while it is still what was read (see
/// [`disk`]): first the renames (a file, or a link, moved under its new name), then the
/// changed and new files (with the permissions they had), then, when all of those were
/// written, the deletions. Returns how many files changed, and a message for each file that
/// could not be.
pub(crate) fn write(planned: &Planned) -> Written {
    let mut changed = 0;
    let mut problems = Vec::new();
    let mut files = FilesMoved::default();
    let version = |path: &Path| {
        let text = planned.before.get(path)?.as_deref()?;
        let identity = *planned.identities.get(path)?;
        Some(disk::Version {
            text: text.as_bytes(),
            identity,
        })
    };
    let mut moved: Vec<&Path> = Vec::new();
    for (to, from) in &planned.renamed_from {
        let Some(seen) = version(from) else { continue };
        match disk::rename(from, to, &seen) {
            Ok(()) => {
                changed += 1;
                moved.push(to);
                files.renamed.push((from.clone(), to.clone()));
            }
            Err(failure) => problems.push(not_written(from, failure)),
        }
    }
    for (path, after) in &planned.after {
        let Some(text) = after else { continue };
        // Where the text was read: under this name, or the name the file was renamed from.
        let origin = match planned.renamed_from.get(path) {
            Some(_) if !moved.contains(&path.as_path()) => continue,
            Some(from) => from,
            None => path,
        };
        let seen = version(origin);
        if seen.is_some_and(|seen| seen.text == text.as_bytes()) {
            continue;
        }
        // A link is written through: the file it leads to changes, the link stays.
        let target = planned.link_targets.get(origin).unwrap_or(path);
        let done = match seen {
            Some(seen) => disk::replace(target, text.as_bytes(), &seen),
            None => disk::create(path, text.as_bytes()),
        };
        match done {
            Ok(()) => changed += 1,
            Err(failure @ disk::Failure::OpenedWhileReplaced) => {
                changed += 1;
                problems.push(not_written(path, failure));
            }
            Err(failure) => problems.push(not_written(path, failure)),
        }
    }
    let renamed_away: Vec<&PathBuf> = planned.renamed_from.values().collect();
    let deletions = (planned.after.iter())
        .filter(|(path, after)| after.is_none() && !renamed_away.contains(path));
    for (path, _) in deletions {
        let Some(seen) = version(path) else { continue };
        if !problems.is_empty() {
            let shown = display_path(path);
            problems.push(format!(
                "left alone: {shown}, as the other files of its fixes could not all be written"
            ));
            continue;
        }
        match disk::remove(path, &seen) {
            Ok(()) => {
                changed += 1;
                files.deleted.push(path.clone());
            }
            Err(failure @ disk::Failure::OpenedWhileReplaced) => {
                changed += 1;
                files.deleted.push(path.clone());
                problems.push(not_written(path, failure));
            }
            Err(failure) => problems.push(not_written(path, failure)),
        }
    }
    Written {
        changed,
        problems,
        files,
    }
}

/// What [`write`] did.
pub(crate) struct Written {
    /// How many files it changed, created, renamed or deleted.
    #[cfg_attr(not(test), allow(dead_code))] // read by the tests only: the CLI counts findings
    pub(crate) changed: usize,
    /// The fixes it could not write, one message each.
    pub(crate) problems: Vec<String>,
    pub(crate) files: FilesMoved,
}

/// The files fixes deleted or renamed: said after the count of findings fixed, since a
/// file gone from its place is what a user looks for first.
#[derive(Debug, Default)]
pub(crate) struct FilesMoved {
    pub(crate) deleted: Vec<PathBuf>,
    /// From, to.
    pub(crate) renamed: Vec<(PathBuf, PathBuf)>,
}

impl FilesMoved {
    pub(crate) fn extend(&mut self, other: FilesMoved) {
        self.deleted.extend(other.deleted);
        self.renamed.extend(other.renamed);
    }

    /// `` (deleted a.tf; renamed b.tf to c.tf)``, or nothing when no file was.
    pub(crate) fn describe(&self) -> String {
        let mut parts = Vec::new();
        if !self.deleted.is_empty() {
            let names: Vec<String> = self.deleted.iter().map(|p| display_path(p)).collect();
            parts.push(format!("deleted {}", names.join(", ")));
        }
        if !self.renamed.is_empty() {
            let names: Vec<String> = (self.renamed.iter())
                .map(|(from, to)| format!("{} to {}", display_path(from), display_path(to)))
                .collect();
            parts.push(format!("renamed {}", names.join(", ")));
        }
        if parts.is_empty() {
            String::new()
        } else {
            format!(" ({})", parts.join("; "))
        }
    }
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
        for (path, identity) in next.identities {
            total.identities.entry(path).or_insert(identity);
        }
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
/// paths relative to the working directory, so that `patch -p1` applies it there; a file
/// created or deleted is diffed against `/dev/null`, and a link's change is shown on the file
/// it leads to, which is what `--fix` writes (`patch` does not write through links). With the
/// diff, a message for each change it cannot show: a file outside the working directory, and
/// a link renamed or deleted (`patch` neither renames nor deletes links).
pub(crate) fn diff(planned: &Planned) -> (String, Vec<String>) {
    let cwd = std::env::current_dir().unwrap_or_default();
    let mut out = String::new();
    let mut problems = Vec::new();
    for (path, after) in &planned.after {
        let before = planned.before.get(path).cloned().flatten();
        if before.as_ref() == after.as_ref() {
            continue;
        }
        let origin = planned.renamed_from.get(path).unwrap_or(path);
        let link = planned.link_targets.get(origin);
        let in_place = before.is_some() && after.is_some();
        if let Some(target) = link.filter(|_| !in_place) {
            // Said once, for the name the link goes to or for a link deleted.
            if after.is_some() || !planned.renamed_from.values().any(|from| from == path) {
                problems.push(format!(
                    "left out of the diff: {} is a symbolic link (to {}), which `patch` cannot \
                     rename or delete; `--fix` does",
                    display_path(origin),
                    target.display()
                ));
            }
            continue;
        }
        let written = link.unwrap_or(path);
        let Some(relative) = relative_to(&cwd, written) else {
            problems.push(format!(
                "left out of the diff: {} is outside the working directory, where `patch -p1` \
                 cannot reach it; run `--diff` from a directory that holds it",
                display_path(written)
            ));
            continue;
        };
        let relative = display_path(&relative);
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
        out.push_str(&unified::unified_diff(old, new, &old_name, &new_name).text);
    }
    (out, problems)
}

/// `path` relative to the working directory `cwd`, with no `.` or `..` in it (what `patch`
/// accepts): as written when it has no `..` (`./m/main.tf`, or an absolute path into `cwd`),
/// else as it really is, its directory resolved (`../here/m/main.tf` from `here`). `None` when
/// it is outside `cwd`.
fn relative_to(cwd: &Path, path: &Path) -> Option<PathBuf> {
    let absolute = cwd.join(path);
    if !absolute.components().any(|c| c == Component::ParentDir) {
        let normal: PathBuf = (absolute.components())
            .filter(|c| *c != Component::CurDir)
            .collect();
        if let Ok(relative) = normal.strip_prefix(cwd) {
            return Some(relative.to_path_buf());
        }
    }
    let real = fs::canonicalize(absolute.parent()?).ok()?;
    let real = real.join(absolute.file_name()?);
    let cwd = fs::canonicalize(cwd).ok()?;
    real.strip_prefix(&cwd).ok().map(Path::to_path_buf)
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
    use crate::input::read::current_text;
    use crate::lint::RuleSettings;
    use crate::lint::directory::{Options, ViewSelection, check_directory};

    /// A file with an unused ignore comment, whose safe fix removes the comment's line.
    fn ignored(value: usize) -> String {
        format!("locals {{\n  # tflint-merge-ignore: override_noop\n  a = {value}\n}}\n")
    }

    fn fixed(value: usize) -> String {
        format!("locals {{\n  a = {value}\n}}\n")
    }

    fn check(dir: &Path) -> Vec<Diagnostic> {
        let settings = RuleSettings::defaults(crate::rules::registry());
        let options = Options::new(ViewSelection::Both, settings);
        check_directory(dir, &options).diagnostics
    }

    fn plan_in(dir: &Path, checked: &[Diagnostic]) -> Planned {
        plan(
            checked,
            false,
            &[dir.to_path_buf()],
            1000,
            &Overlay::default(),
        )
    }

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
        let dir = tempfile::tempdir().expect("tempdir");
        let main = dir.path().join("main.tf");
        let text = ignored(1);
        fs::write(&main, &text).expect("write");
        let checked = check(dir.path());
        assert_eq!(plan_in(dir.path(), &checked).fixed, 1);

        let edited = format!("# edited\n{text}");
        fs::write(&main, &edited).expect("write");
        let planned = plan_in(dir.path(), &checked);
        assert_eq!(planned.fixed, 0);
        assert!(
            planned.problems[0].contains("changed on disk since it was checked"),
            "{:?}",
            planned.problems
        );

        fs::write(&main, &text).expect("write");
        let planned = plan_in(dir.path(), &checked);
        fs::write(&main, &edited).expect("write");
        let Written {
            changed, problems, ..
        } = write(&planned);
        assert_eq!(changed, 0);
        assert!(
            problems[0].contains("changed on disk while it was being fixed"),
            "{problems:?}"
        );
        assert_eq!(current_text(&main, 1000).as_ref(), Ok(&edited));

        // The same text saved again is another version of the file (another inode): left
        // alone too, as what was checked is not what is there.
        fs::write(&main, &text).expect("write");
        let planned = plan_in(dir.path(), &checked);
        let saved = dir.path().join(".main.tf.saving");
        fs::write(&saved, &text).expect("write");
        fs::rename(&saved, &main).expect("rename");
        let Written {
            changed, problems, ..
        } = write(&planned);
        assert_eq!((changed, problems.len()), (0, 1), "{problems:?}");
    }

    #[test]
    fn writes_keep_permissions_and_leave_no_temporary_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("main.tf");
        fs::write(&path, ignored(1)).expect("write");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).expect("chmod");
        }
        let planned = plan_in(dir.path(), &check(dir.path()));
        let written = write(&planned);
        assert_eq!((written.changed, written.problems), (1, Vec::new()));
        assert_eq!(current_text(&path, 1000), Ok(fixed(1)));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(&path).expect("metadata").permissions().mode();
            assert_eq!(mode & 0o777, 0o640);
        }
        let names: Vec<_> = fs::read_dir(dir.path()).expect("list").flatten().collect();
        assert_eq!(names.len(), 1, "only main.tf: {names:?}");
    }

    /// A file nobody may write is left alone, with a message naming it; its fix is not
    /// counted as one `--fix` applies.
    #[test]
    fn read_only_files_are_left_alone() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("main.tf");
        fs::write(&path, ignored(1)).expect("write");
        let mut permissions = fs::metadata(&path).expect("metadata").permissions();
        permissions.set_readonly(true);
        fs::set_permissions(&path, permissions).expect("chmod");
        let mut checked = check(dir.path());
        let planned = plan_in(dir.path(), &checked);
        assert_eq!(planned.fixed, 0);
        let shown = display_path(&path);
        assert_eq!(
            planned.problems,
            [format!("left alone: {shown} is read-only")]
        );
        let written = write(&planned);
        assert_eq!((written.changed, written.problems), (0, Vec::new()));
        assert_eq!(current_text(&path, 1000), Ok(ignored(1)));
        assert!(checked.iter().any(|d| d.fixable(false)));
        withhold_refused(&mut checked, &Roots::of(&[dir.path().to_path_buf()]));
        assert!(!checked.iter().any(|d| d.fixable(true)));
    }

    /// A save that the exchange displaced goes back under the name; a later save that
    /// replaced ours there stays.
    #[test]
    fn a_save_displaced_by_the_exchange_is_put_back() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (path, temporary) = (dir.path().join("main.tf"), dir.path().join(".main.tf.tmp"));
        let identity = |p: &Path| disk::read(p, 1000).expect("read").1;
        fs::write(&path, "ours").expect("write");
        fs::write(&temporary, "saved").expect("write");
        let ours = identity(&path);
        disk::put_back(&path, &temporary, ours);
        assert_eq!(current_text(&path, 1000).as_deref(), Ok("saved"));
        assert!(!temporary.exists());

        fs::write(&path, "later").expect("write");
        fs::write(&temporary, "saved").expect("write");
        let ours = identity(&temporary);
        fs::write(dir.path().join("elsewhere"), "").expect("write");
        disk::put_back(&path, &temporary, ours);
        assert_eq!(current_text(&path, 1000).as_deref(), Ok("later"));
        assert!(!temporary.exists());
    }

    /// `patch` takes paths below the working directory without `.` or `..`.
    #[test]
    fn diff_paths_are_relative_to_the_working_directory() {
        let dir = tempfile::tempdir().expect("tempdir");
        let cwd = fs::canonicalize(dir.path()).expect("canonical");
        fs::create_dir_all(cwd.join("m")).expect("mkdir");
        fs::create_dir_all(cwd.join("../outside-of-it")).ok();
        let relative = |p: &str| relative_to(&cwd, Path::new(p));
        let m = Some(PathBuf::from("m/main.tf"));
        assert_eq!(relative("m/main.tf"), m);
        assert_eq!(relative("./m/./main.tf"), m);
        assert_eq!(relative(&format!("{}/m/main.tf", cwd.display())), m);
        let name = cwd.file_name().expect("name").to_string_lossy();
        assert_eq!(relative(&format!("../{name}/m/main.tf")), m);
        assert_eq!(relative("m/../m/main.tf"), m);
        assert_eq!(relative("../main.tf"), None);
        assert_eq!(relative("/main.tf"), None);
    }

    /// A small random number generator (xorshift), for the stress test's timing: the same
    /// sequence every run, so that a failure is not a matter of the seed.
    struct Random(u64);

    impl Random {
        fn below(&mut self, bound: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % bound.max(1)
        }
    }

    /// How one run of the stress test ended.
    #[derive(Debug, Default)]
    struct Outcomes {
        /// The run checked the saved text and fixed it.
        fixed_the_save: usize,
        /// The run fixed the text it checked, and the save came after: the saved text stands.
        saved_after_the_fix: usize,
        /// The run left the file alone and said so: the saved text stands.
        left_alone: usize,
        /// The run found nothing to fix (it read the file while the save was emptying it).
        nothing_to_fix: usize,
        /// The run wrote the fix of the text it checked over the save.
        lost: Vec<String>,
    }

    /// 500 runs of what `--fix` does (check, plan, write) while another thread saves the file
    /// once, in place (truncate and write) or by renaming a new file over it, in turns: no save
    /// is lost. Every other pair of runs, the save comes at a random moment of the whole run;
    /// in the others, at a random moment of the writing, where the file is looked at for the
    /// last time and replaced. Each run either fixes the text it checked (the saved one when
    /// the save came first), or leaves the file alone and says so, or is followed by the save.
    // Linux only: elsewhere a file is replaced by a plain rename after the last look, and a
    // save in the moment between the two is still lost (see `disk`).
    #[cfg(target_os = "linux")]
    #[test]
    fn saves_while_fixing_are_never_lost() {
        let dir = tempfile::tempdir().expect("tempdir");
        let main = dir.path().join("main.tf");
        let saving = dir.path().join(".main.tf.saving");
        // How long the parts of a run take here: the saves are spread over them.
        fs::write(&main, ignored(0)).expect("write");
        let started = std::time::Instant::now();
        let planned = plan_in(dir.path(), &check(dir.path()));
        let planning = started.elapsed();
        write(&planned);
        let span = |took: std::time::Duration| took.as_micros() as u64 * 3 / 2 + 100;
        let (whole_span, writing_span) =
            (span(started.elapsed()), span(started.elapsed() - planning));
        let mut random = Random(0x9e37_79b9_7f4a_7c15);
        let mut outcomes = Outcomes::default();
        for run in 0..500 {
            let (first, saved) = (2 * run + 1, 2 * run + 2);
            fs::write(&main, ignored(first)).expect("write");
            let in_place = run % 2 == 0;
            let during_writing = run % 4 >= 2;
            let save = |delay: std::time::Duration| {
                let (main_path, saving_path) = (main.clone(), saving.clone());
                std::thread::spawn(move || {
                    std::thread::sleep(delay);
                    if in_place {
                        fs::write(&main_path, ignored(saved)).expect("save");
                    } else {
                        fs::write(&saving_path, ignored(saved)).expect("save");
                        fs::rename(&saving_path, &main_path).expect("save");
                    }
                })
            };
            let mut delay = |span| std::time::Duration::from_micros(random.below(span));
            let (planned, writer) = if during_writing {
                let planned = plan_in(dir.path(), &check(dir.path()));
                (planned, save(delay(writing_span)))
            } else {
                let writer = save(delay(whole_span));
                (plan_in(dir.path(), &check(dir.path())), writer)
            };
            let Written {
                changed, problems, ..
            } = write(&planned);
            writer.join().expect("writer");
            let now = current_text(&main, 1000).expect("read");
            let said = format!("run {run}: changed {changed}, problems {problems:?}");
            if now == fixed(saved) && changed == 1 {
                outcomes.fixed_the_save += 1;
            } else if now == ignored(saved) && !problems.is_empty() {
                outcomes.left_alone += 1;
            } else if now == ignored(saved) && changed == 1 {
                outcomes.saved_after_the_fix += 1;
            } else if now == ignored(saved) && planned.fixed == 0 && problems.is_empty() {
                outcomes.nothing_to_fix += 1;
            } else if now == fixed(first) {
                outcomes.lost.push(said.clone());
            } else {
                panic!("{said}: unexpected text {now:?}");
            }
            let names: Vec<_> = fs::read_dir(dir.path()).expect("list").flatten().collect();
            assert_eq!(names.len(), 1, "{said}: only main.tf: {names:?}");
        }
        eprintln!("{outcomes:?}");
        assert!(outcomes.lost.is_empty(), "saves lost: {outcomes:#?}");
    }
}
