//! Changing a file on disk only while it is still the file `--fix` read: every change is
//! prepared first (a temporary file written and flushed), then the file is looked at once more,
//! content and identity, right before the rename that replaces it, and the file the rename
//! displaced is checked again afterwards, so that a save that lands in between is put back
//! rather than lost.
//!
//! On Linux the replacement is an exchange (`renameat2` with `RENAME_EXCHANGE`), which keeps the
//! displaced file to check; elsewhere, or on a file system without it, a plain rename after
//! the last look. A save written in place by a program that opened the file before the
//! exchange lands in the displaced file, possibly after every look at it: a read lease
//! ([`super::lease`]) held from the last look until the displaced file is gone makes such a program
//! wait and tells that it came, so its save is put back rather than lost. One case is left that
//! no file system call can prevent: a program whose `open` had looked the name up before the
//! exchange and reaches the file only after the last look at the lease. That one is reported
//! ([`Failure::OpenedWhileReplaced`]), not silent.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::input::read::{current_text, read_bytes};

use super::lease::{Lease, NoLease};

/// What tells one version of a file from another without reading it: the file itself (device
/// and inode), its size and its modification time. A save by an editor changes at least one:
/// writing in place changes the size or the time, saving by renaming changes the inode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Identity {
    device: u64,
    inode: u64,
    size: u64,
    modified: Option<SystemTime>,
}

impl Identity {
    fn of(meta: &fs::Metadata) -> Identity {
        #[cfg(unix)]
        let (device, inode) = {
            use std::os::unix::fs::MetadataExt;
            (meta.dev(), meta.ino())
        };
        #[cfg(not(unix))]
        let (device, inode) = (0, 0);
        Identity {
            device,
            inode,
            size: meta.len(),
            modified: meta.modified().ok(),
        }
    }

    /// The identity of the file at `path` now (through symbolic links).
    fn at(path: &Path) -> io::Result<Identity> {
        fs::metadata(path).map(|meta| Identity::of(&meta))
    }
}

/// A file as `--fix` read it (or wrote it): its bytes and its identity then.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Version<'a> {
    pub(crate) text: &'a [u8],
    pub(crate) identity: Identity,
}

/// Reads the file at `path` (through symbolic links; a regular UTF-8 file of at most
/// `max_bytes`), with its identity, taken before and after the read: an error when it cannot
/// be read, or changed while it was.
pub(crate) fn read(path: &Path, max_bytes: u64) -> Result<(String, Identity), Failure> {
    let before = Identity::at(path).map_err(|e| Failure::Unreadable(e.to_string()))?;
    let text = current_text(path, max_bytes).map_err(Failure::Unreadable)?;
    let after = Identity::at(path).map_err(|e| Failure::Unreadable(e.to_string()))?;
    if before != after {
        return Err(Failure::Changed);
    }
    Ok((text, after))
}

impl Version<'_> {
    /// Whether the file at `path` is still this version: the same identity, and the same text
    /// (a save within the time stamps' resolution that keeps the size is caught by the text).
    fn still_at(&self, path: &Path) -> bool {
        let max_bytes = self.text.len() as u64;
        Identity::at(path).is_ok_and(|now| now == self.identity)
            && read_bytes(path, max_bytes).is_ok_and(|now| now == self.text)
    }
}

/// Why a file was not changed.
#[derive(Debug)]
pub(crate) enum Failure {
    /// It is not what was read: a save came in.
    Changed,
    /// A program has it open for writing: a save may be under way.
    OpenForWriting,
    /// Replaced (or deleted), but a program opened the file that was there for writing just as
    /// it went: what that program writes goes to the file that is gone.
    OpenedWhileReplaced,
    /// It exists where a new file was to be created.
    Appeared,
    /// It cannot be read.
    Unreadable(String),
    /// Writing failed.
    Io(io::Error),
}

/// Whether `path` (through symbolic links) may not be written: nobody may write it by its mode
/// (`r--r--r--`), or the user running tflint-merge may not (as `terraform fmt`, which writes a
/// file in place, fails on it). Renaming over a file needs no permission on the file, only on
/// its directory, so this is asked before, not found by writing.
pub(crate) fn read_only(path: &Path) -> bool {
    let Ok(meta) = fs::metadata(path) else {
        return false;
    };
    meta.permissions().readonly() || !user_may_write(path)
}

/// `faccessat(W_OK)` with the effective user and groups (`AT_EACCESS`), as the kernel would
/// judge an `open` for writing; a read-only file system counts as not writable.
#[cfg(unix)]
#[expect(
    unsafe_code,
    reason = "std has no access(2): the user's write permission, groups and ACLs included, is \
              only known by asking the kernel"
)]
fn user_may_write(path: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let Ok(c_path) = std::ffi::CString::new(path.as_os_str().as_bytes()) else {
        return true;
    };
    // SAFETY: `c_path` is a valid NUL-terminated string that outlives the call.
    let result = unsafe {
        libc::faccessat(
            libc::AT_FDCWD,
            c_path.as_ptr(),
            libc::W_OK,
            libc::AT_EACCESS,
        )
    };
    if result == 0 {
        return true;
    }
    let error = io::Error::last_os_error().raw_os_error();
    !matches!(error, Some(libc::EACCES | libc::EPERM | libc::EROFS))
}

#[cfg(not(unix))]
fn user_may_write(_path: &Path) -> bool {
    true
}

/// A name for a temporary file next to `path`, hidden, that no configuration walk loads.
fn temporary_next_to(path: &Path, purpose: &str) -> PathBuf {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    dir.join(format!(
        ".{name}.tflint-merge-{purpose}-{}",
        std::process::id()
    ))
}

/// Writes `text` to a new temporary file next to `path`, with the permissions of `path` when it
/// exists, and flushes it to disk; returns its path and identity.
fn prepare(path: &Path, text: &[u8]) -> Result<(PathBuf, Identity), Failure> {
    let temporary = temporary_next_to(path, "fix");
    let written = (|| {
        let mut file = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temporary)?;
        file.write_all(text)?;
        if let Ok(meta) = fs::metadata(path) {
            fs::set_permissions(&temporary, meta.permissions())?;
        }
        file.sync_all()?;
        Ok(Identity::of(&file.metadata()?))
    })();
    match written {
        Ok(identity) => Ok((temporary, identity)),
        Err(error) => {
            // Nothing to do when the temporary file is already gone.
            let _ = fs::remove_file(&temporary);
            Err(Failure::Io(error))
        }
    }
}

/// How long a program that opened a file just as `--fix` replaced it is waited for, to put
/// back what it writes: a save is written and closed at once.
const SAVE_PATIENCE: std::time::Duration = std::time::Duration::from_secs(5);

/// Replaces the file at `path` (a regular file: the target of a link, not the link) with
/// `text`, with its permissions, if it is still the version `seen`.
pub(crate) fn replace(path: &Path, text: &[u8], seen: &Version) -> Result<(), Failure> {
    let (temporary, ours) = prepare(path, text)?;
    let discard = |failure| {
        let _ = fs::remove_file(&temporary);
        Err(failure)
    };
    // Held until the file `path` holds now is gone: a program opening it for writing is seen.
    let lease = match Lease::take(path) {
        Ok(lease) => Some(lease),
        Err(NoLease::OpenForWriting) => return discard(Failure::OpenForWriting),
        Err(NoLease::Unavailable) => None,
    };
    // The last look, after the slow part (writing and flushing), on the leased file.
    if !seen.still_at(path) || lease.as_ref().is_some_and(|lease| !lease.is_at(path)) {
        return discard(Failure::Changed);
    }
    let written = Version {
        text,
        identity: ours,
    };
    match exchange(&temporary, path) {
        Ok(()) => {
            // `temporary` now holds what `path` held at the exchange: the file seen, unless a
            // save came in between the last look and the exchange, or is coming into it.
            let untouched = seen.still_at(&temporary)
                && (lease.as_ref()).is_none_or(|lease| lease.intact() && lease.is_at(&temporary));
            if !untouched {
                put_back(path, &temporary, ours);
                // Released only now: a program waiting to open the file writes into it where
                // it is back.
                drop(lease);
                return Err(Failure::Changed);
            }
            let _ = fs::remove_file(&temporary);
            after_removal(lease, seen, |saved| replace(path, saved, &written))
        }
        Err(error) if exchange_unsupported(&error) => {
            fs::rename(&temporary, path).map_err(|error| {
                let _ = fs::remove_file(&temporary);
                Failure::Io(error)
            })?;
            after_removal(lease, seen, |saved| replace(path, saved, &written))
        }
        Err(error) => discard(Failure::Io(error)),
    }
}

/// After the leased file, still the version `seen`, was removed from its name: when a program
/// opened it for writing since the last look (its `open` had found the file by name before it
/// went), what that program writes into it is waited for and handed to `restore`, which puts
/// it back under the name; the run then says the file changed, as the save stands instead of
/// the fix.
fn after_removal(
    lease: Option<Lease>,
    seen: &Version,
    restore: impl FnOnce(&[u8]) -> Result<(), Failure>,
) -> Result<(), Failure> {
    let Some(lease) = lease.filter(|lease| !lease.intact()) else {
        return Ok(());
    };
    match lease.contents_once_written(SAVE_PATIENCE) {
        // Opened for writing, but what it holds is still what was fixed.
        Some(saved) if saved == seen.text => Ok(()),
        Some(saved) => match restore(&saved) {
            Ok(()) | Err(Failure::Changed) => Err(Failure::Changed),
            Err(_) => Err(Failure::OpenedWhileReplaced),
        },
        None => Err(Failure::OpenedWhileReplaced),
    }
}

/// After an exchange displaced a save into `temporary`: puts it back at `path`, where our file
/// `ours` went, unless a later save already replaced ours there (then the later one stays).
/// Whatever is left at `temporary` (ours, or the older save) is removed.
pub(super) fn put_back(path: &Path, temporary: &Path, ours: Identity) {
    let is_ours = |at: &Path| {
        Identity::at(at).is_ok_and(|i| (i.device, i.inode) == (ours.device, ours.inode))
    };
    if is_ours(path) && exchange(temporary, path).is_ok() && !is_ours(temporary) {
        // A save replaced ours between the look and the exchange back: it is the newest, and
        // it went to `temporary`; bring it back (the older one takes its place, to go).
        let _ = exchange(temporary, path);
    }
    let _ = fs::remove_file(temporary);
}

/// Creates `path` with `text`, unless a file of that name appeared since it was found absent.
pub(crate) fn create(path: &Path, text: &[u8]) -> Result<(), Failure> {
    let (temporary, _) = prepare(path, text)?;
    match rename_no_replace(&temporary, path) {
        Ok(()) => Ok(()),
        Err(error) => {
            let _ = fs::remove_file(&temporary);
            Err(if error.kind() == io::ErrorKind::AlreadyExists {
                Failure::Appeared
            } else {
                Failure::Io(error)
            })
        }
    }
}

/// Renames `from` (the link itself when it is a symbolic link) to `to`, which must not exist,
/// if `from` is still `seen`. A rename moves the file, not its content: a save that lands on
/// either side of it is kept, in the file under its new name or in a new file under the old.
pub(crate) fn rename(from: &Path, to: &Path, seen: &Version) -> Result<(), Failure> {
    if !seen.still_at(from) {
        return Err(Failure::Changed);
    }
    rename_no_replace(from, to).map_err(|error| {
        if error.kind() == io::ErrorKind::AlreadyExists {
            Failure::Appeared
        } else {
            Failure::Io(error)
        }
    })
}

/// Deletes `path` (the link itself when it is one), if it is still the version `seen`: it is
/// first moved aside, checked there, and moved back if a save came in. A regular file is
/// leased meanwhile (see [`replace`]); a link needs none, since a save through it goes to the
/// file it leads to, which stays.
pub(crate) fn remove(path: &Path, seen: &Version) -> Result<(), Failure> {
    let is_link = fs::symlink_metadata(path).is_ok_and(|meta| meta.file_type().is_symlink());
    let lease = match (!is_link).then(|| Lease::take(path)) {
        Some(Ok(lease)) => Some(lease),
        Some(Err(NoLease::OpenForWriting)) => return Err(Failure::OpenForWriting),
        Some(Err(NoLease::Unavailable)) | None => None,
    };
    if !seen.still_at(path) || lease.as_ref().is_some_and(|lease| !lease.is_at(path)) {
        return Err(Failure::Changed);
    }
    let aside = temporary_next_to(path, "removed");
    rename_no_replace(path, &aside).map_err(Failure::Io)?;
    let untouched = seen.still_at(&aside)
        && (lease.as_ref()).is_none_or(|lease| lease.intact() && lease.is_at(&aside));
    if untouched {
        fs::remove_file(&aside).map_err(Failure::Io)?;
        return after_removal(lease, seen, |saved| create(path, saved));
    }
    // A save came in: it goes back, unless a newer one was saved under the name meanwhile.
    if rename_no_replace(&aside, path).is_err() {
        let _ = fs::remove_file(&aside);
    }
    drop(lease);
    Err(Failure::Changed)
}

/// Swaps two paths atomically (Linux `renameat2` with `RENAME_EXCHANGE`).
#[cfg(target_os = "linux")]
fn exchange(a: &Path, b: &Path) -> io::Result<()> {
    renameat2(a, b, libc::RENAME_EXCHANGE)
}

#[cfg(not(target_os = "linux"))]
fn exchange(_a: &Path, _b: &Path) -> io::Result<()> {
    Err(io::Error::from(io::ErrorKind::Unsupported))
}

/// Whether an exchange failed because the system or file system cannot do it (then a plain
/// rename replaces the file), rather than for a reason a rename would meet too.
fn exchange_unsupported(error: &io::Error) -> bool {
    #[cfg(target_os = "linux")]
    if matches!(error.raw_os_error(), Some(libc::EINVAL | libc::ENOSYS)) {
        return true;
    }
    error.kind() == io::ErrorKind::Unsupported
}

/// Renames `from` to `to`, failing with `AlreadyExists` when `to` exists (Linux `renameat2`
/// with `RENAME_NOREPLACE`; elsewhere a look first, then a rename).
fn rename_no_replace(from: &Path, to: &Path) -> io::Result<()> {
    #[cfg(target_os = "linux")]
    match renameat2(from, to, libc::RENAME_NOREPLACE) {
        Err(error) if exchange_unsupported(&error) => {}
        done => return done,
    }
    if fs::symlink_metadata(to).is_ok() {
        return Err(io::Error::from(io::ErrorKind::AlreadyExists));
    }
    fs::rename(from, to)
}

/// `renameat2(2)` through its system call, which needs no particular C library release.
#[cfg(target_os = "linux")]
#[expect(
    unsafe_code,
    reason = "std has no renameat2(2): RENAME_EXCHANGE and RENAME_NOREPLACE are what make the \
              last look before a replacement race-free"
)]
fn renameat2(from: &Path, to: &Path, flags: libc::c_uint) -> io::Result<()> {
    use std::os::unix::ffi::OsStrExt;
    let c_path = |path: &Path| {
        std::ffi::CString::new(path.as_os_str().as_bytes())
            .map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))
    };
    let (from, to) = (c_path(from)?, c_path(to)?);
    // SAFETY: both paths are valid NUL-terminated strings that outlive the call; the system
    // call reads them and nothing else.
    let result = unsafe {
        libc::syscall(
            libc::SYS_renameat2,
            libc::AT_FDCWD,
            from.as_ptr(),
            libc::AT_FDCWD,
            to.as_ptr(),
            flags,
        )
    };
    if result == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    /// A program whose `open` found the file by name just before `--fix` removed it, and that
    /// writes into it after every look (here: it opens the file while the lease is held, waits
    /// on the lease, and writes once the lease is released, into the removed file): what it
    /// wrote is put back under the name, and the run says the file changed.
    #[test]
    fn a_save_into_the_removed_file_is_put_back() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("main.tf");
        fs::write(&path, "seen").expect("write");
        let (text, identity) = read(&path, 100).expect("read");
        let seen = Version {
            text: text.as_bytes(),
            identity,
        };
        let lease = Lease::take(&path).expect("a lease on a file of ours");
        let writer_path = path.clone();
        let writer = std::thread::spawn(move || {
            // Opening for writing breaks the lease and waits until it is released.
            fs::write(&writer_path, "saved").expect("save");
        });
        while lease.intact() {
            std::thread::yield_now();
        }
        fs::remove_file(&path).expect("remove");
        let result = after_removal(Some(lease), &seen, |saved| create(&path, saved));
        writer.join().expect("writer");
        assert!(matches!(result, Err(Failure::Changed)), "{result:?}");
        assert_eq!(current_text(&path, 100).as_deref(), Ok("saved"));
    }

    /// Without a program opening it, the removed file stays removed.
    #[test]
    fn an_untouched_lease_needs_nothing_put_back() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("main.tf");
        fs::write(&path, "seen").expect("write");
        let (text, identity) = read(&path, 100).expect("read");
        let seen = Version {
            text: text.as_bytes(),
            identity,
        };
        let lease = Lease::take(&path).expect("a lease on a file of ours");
        fs::remove_file(&path).expect("remove");
        let result = after_removal(Some(lease), &seen, |saved| create(&path, saved));
        assert!(result.is_ok(), "{result:?}");
        assert!(!path.exists());
    }

    /// A file open for writing elsewhere is not leased: a save may be under way.
    #[test]
    fn a_file_open_for_writing_is_left_alone() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("main.tf");
        fs::write(&path, "seen").expect("write");
        let (text, identity) = read(&path, 100).expect("read");
        let seen = Version {
            text: text.as_bytes(),
            identity,
        };
        let open = fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .expect("open");
        let result = replace(&path, b"fixed", &seen);
        assert!(matches!(result, Err(Failure::OpenForWriting)), "{result:?}");
        drop(open);
        assert_eq!(current_text(&path, 100).as_deref(), Ok("seen"));
        let names: Vec<_> = fs::read_dir(dir.path()).expect("list").flatten().collect();
        assert_eq!(names.len(), 1, "only main.tf: {names:?}");
    }
}
