//! Open directories, so that the walk lists a directory and the check reads a file relative to
//! a directory that is open already, not by its whole path.
//!
//! The kernel resolves a path component by component on every `open` and `stat` (Linux's
//! `link_path_walk`, <https://www.kernel.org/doc/html/latest/filesystems/path-lookup.html>):
//! by path, listing each directory of a chain N deep and reading its files costs N² lookups.
//! Relative to its parent's descriptor (`openat`, `fstatat`), a directory costs one, as GNU
//! `find` walks (gnulib's `fts`, `FTS_CWDFD`).
//!
//! Descriptors are limited (`RLIMIT_NOFILE`, 1,024 by default on Linux and 256 on macOS), so
//! the run holds a bounded number open ([`held_limit`]): past it, a directory is opened, listed
//! and closed again, and what is below it is reached by path, as before. Elsewhere than on Unix
//! a handle is the directory's path, and everything is done by path.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// An open directory (on Unix; elsewhere, its path).
#[derive(Debug)]
pub(crate) struct DirHandle {
    #[cfg(unix)]
    fd: std::os::fd::OwnedFd,
    #[cfg(not(unix))]
    path: PathBuf,
}

/// A [`DirHandle`] the run holds open, counted against [`held_limit`].
#[derive(Debug)]
pub(crate) struct HeldDir {
    handle: DirHandle,
}

/// How many [`HeldDir`]s are open.
static HELD: AtomicUsize = AtomicUsize::new(0);

impl Drop for HeldDir {
    fn drop(&mut self) {
        HELD.fetch_sub(1, Ordering::Relaxed);
    }
}

impl std::ops::Deref for HeldDir {
    type Target = DirHandle;
    fn deref(&self) -> &DirHandle {
        &self.handle
    }
}

/// How many directories the run holds open at most: a quarter of the descriptor limit, so that
/// the files read meanwhile (one per thread), the language server's and `--fix`'s own files
/// never run short, and at most 1,024.
fn held_limit() -> usize {
    static LIMIT: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *LIMIT.get_or_init(|| {
        #[cfg(unix)]
        {
            let limit = rustix::process::getrlimit(rustix::process::Resource::Nofile);
            let soft = limit.current.unwrap_or(u64::MAX);
            usize::try_from(soft / 4).unwrap_or(usize::MAX).min(1024)
        }
        #[cfg(not(unix))]
        {
            // A handle is a path here: nothing is held open.
            usize::MAX
        }
    })
}

/// What an entry of a directory is, from the listing itself (`d_type`), without a `stat`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum EntryKind {
    Directory,
    /// A symlink, or an entry whose type could not be found.
    Link,
    Other,
}

/// One entry of a listed directory.
#[derive(Debug)]
pub(crate) struct Entry {
    pub(crate) name: OsString,
    pub(crate) kind: EntryKind,
}

/// Whether opening follows a symlink that is the last component of what is opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Links {
    Follow,
    /// Fails (`ELOOP`) on a symlink.
    Refuse,
}

impl DirHandle {
    /// Opens the directory at `path`, following links.
    pub(crate) fn open(path: &Path) -> std::io::Result<DirHandle> {
        #[cfg(unix)]
        {
            let fd = rustix::fs::openat(rustix::fs::CWD, path, dir_flags(Links::Follow), 0.into())?;
            Ok(DirHandle { fd })
        }
        #[cfg(not(unix))]
        {
            if !std::fs::metadata(path)?.is_dir() {
                return Err(std::io::ErrorKind::NotADirectory.into());
            }
            Ok(DirHandle {
                path: path.to_path_buf(),
            })
        }
    }

    /// Opens the directory `name` in this one; with [`Links::Refuse`], fails on a symlink (a
    /// real directory listed here that was replaced by a link since is not followed out).
    pub(crate) fn open_below(&self, name: &OsStr, links: Links) -> std::io::Result<DirHandle> {
        #[cfg(unix)]
        {
            let fd = rustix::fs::openat(&self.fd, name, dir_flags(links), 0.into())?;
            Ok(DirHandle { fd })
        }
        #[cfg(not(unix))]
        {
            let _ = links;
            DirHandle::open(&self.path.join(name))
        }
    }

    /// Keeps this handle open for what lies below the directory, if the run may hold one more
    /// (see [`held_limit`]); else closes it.
    pub(crate) fn hold(self) -> Option<Arc<HeldDir>> {
        let limit = held_limit();
        let taken = HELD.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |held| {
            (held < limit).then_some(held + 1)
        });
        taken.ok().map(|_| Arc::new(HeldDir { handle: self }))
    }

    /// The entries of the directory, in directory order, but `.` and `..`; an entry that
    /// could not be read is an error in its place.
    pub(crate) fn entries(&self) -> std::io::Result<Vec<std::io::Result<Entry>>> {
        #[cfg(unix)]
        {
            use rustix::fs::FileType;
            // A second descriptor to read the entries with: this one stays open, unread, to
            // open what is below.
            let mut dir = rustix::fs::Dir::new(rustix::io::fcntl_dupfd_cloexec(&self.fd, 0)?)?;
            let mut entries = Vec::new();
            while let Some(entry) = dir.read() {
                let entry = match entry {
                    Ok(entry) => entry,
                    Err(error) => {
                        entries.push(Err(error.into()));
                        // `Dir` stops after an error; so does `std::fs::read_dir`.
                        break;
                    }
                };
                let name = entry.file_name().to_bytes();
                if name == b"." || name == b".." {
                    continue;
                }
                let name = <OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(name);
                let kind = match entry.file_type() {
                    FileType::Directory => EntryKind::Directory,
                    FileType::Symlink => EntryKind::Link,
                    // Some file systems do not say (`DT_UNKNOWN`): looked at, as std does.
                    FileType::Unknown => match self.stat_below(name, Links::Refuse) {
                        Ok(stat) if FileType::from_raw_mode(stat.st_mode).is_dir() => {
                            EntryKind::Directory
                        }
                        Ok(stat) if FileType::from_raw_mode(stat.st_mode) == FileType::Symlink => {
                            EntryKind::Link
                        }
                        Ok(_) => EntryKind::Other,
                        Err(_) => EntryKind::Link,
                    },
                    _ => EntryKind::Other,
                };
                entries.push(Ok(Entry {
                    name: name.to_os_string(),
                    kind,
                }));
            }
            Ok(entries)
        }
        #[cfg(not(unix))]
        {
            let mut entries = Vec::new();
            for entry in std::fs::read_dir(&self.path)? {
                entries.push(entry.map(|entry| {
                    let kind = match entry.file_type() {
                        Ok(t) if t.is_dir() => EntryKind::Directory,
                        Ok(t) if t.is_symlink() => EntryKind::Link,
                        Ok(_) => EntryKind::Other,
                        Err(_) => EntryKind::Link,
                    };
                    Entry {
                        name: entry.file_name(),
                        kind,
                    }
                }));
            }
            Ok(entries)
        }
    }

    /// Whether `name` in this directory is a directory, following links (a dangling link is
    /// not one).
    pub(crate) fn is_dir_below(&self, name: &OsStr) -> bool {
        #[cfg(unix)]
        {
            self.stat_below(name, Links::Follow).is_ok_and(|stat| {
                rustix::fs::FileType::from_raw_mode(stat.st_mode) == rustix::fs::FileType::Directory
            })
        }
        #[cfg(not(unix))]
        {
            std::fs::metadata(self.path.join(name)).is_ok_and(|m| m.is_dir())
        }
    }

    #[cfg(unix)]
    fn stat_below(&self, name: &OsStr, links: Links) -> std::io::Result<rustix::fs::Stat> {
        let flags = match links {
            Links::Follow => rustix::fs::AtFlags::empty(),
            Links::Refuse => rustix::fs::AtFlags::SYMLINK_NOFOLLOW,
        };
        Ok(rustix::fs::statat(&self.fd, name, flags)?)
    }

    /// Opens the file at `below` (a relative path) to read it: without blocking (a FIFO would
    /// wait for a writer) and never as the controlling terminal, as `read` opens files by path.
    pub(crate) fn open_file(&self, below: &Path, links: Links) -> std::io::Result<std::fs::File> {
        #[cfg(unix)]
        {
            use rustix::fs::OFlags;
            let mut flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC;
            if links == Links::Refuse {
                flags |= OFlags::NOFOLLOW;
            }
            let fd = rustix::fs::openat(&self.fd, below, flags, 0.into())?;
            Ok(std::fs::File::from(fd))
        }
        #[cfg(not(unix))]
        {
            let _ = links;
            std::fs::File::open(self.path.join(below))
        }
    }
}

#[cfg(unix)]
fn dir_flags(links: Links) -> rustix::fs::OFlags {
    use rustix::fs::OFlags;
    // As `std::fs::read_dir` opens a directory.
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NONBLOCK | OFlags::CLOEXEC;
    match links {
        Links::Follow => flags,
        Links::Refuse => flags | OFlags::NOFOLLOW,
    }
}

/// Where a listed directory is, to read its files from: an ancestor held open and the path from
/// there. One ancestor every [`ANCHOR_EVERY`] levels is an anchor, so that a read resolves at
/// most that many components, and a deep chain holds few directories open however many of its
/// directories wait to be checked.
#[derive(Debug, Clone)]
pub(crate) struct Anchor {
    held: Arc<HeldDir>,
    below: PathBuf,
}

/// How many levels apart anchors are (see [`Anchor`]).
pub(crate) const ANCHOR_EVERY: usize = 16;

impl Anchor {
    /// The directory `held` itself.
    pub(crate) fn at(held: Arc<HeldDir>) -> Anchor {
        Anchor {
            held,
            below: PathBuf::new(),
        }
    }

    /// The directory `name` below this one.
    pub(crate) fn join(&self, name: &OsStr) -> Anchor {
        Anchor {
            held: Arc::clone(&self.held),
            below: self.below.join(name),
        }
    }

    /// How many levels below its anchor the directory is.
    pub(crate) fn depth(&self) -> usize {
        self.below.components().count()
    }

    /// Opens the file `name` of the directory (see [`DirHandle::open_file`]).
    pub(crate) fn open_file(&self, name: &OsStr, links: Links) -> std::io::Result<std::fs::File> {
        self.held.open_file(&self.below.join(name), links)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_and_opens_relative_to_an_open_directory() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir(dir.path().join("sub")).expect("mkdir");
        std::fs::write(dir.path().join("sub/main.tf"), "x").expect("write");
        std::fs::write(dir.path().join("file"), "").expect("write");
        let root = DirHandle::open(dir.path()).expect("opened");
        let mut entries: Vec<(OsString, EntryKind)> = (root.entries().expect("listed"))
            .into_iter()
            .map(|entry| entry.map(|e| (e.name, e.kind)).expect("entry"))
            .collect();
        entries.sort();
        assert_eq!(
            entries,
            [
                ("file".into(), EntryKind::Other),
                ("sub".into(), EntryKind::Directory)
            ]
        );
        assert!(root.is_dir_below("sub".as_ref()));
        assert!(!root.is_dir_below("file".as_ref()));
        let held = root.hold().expect("held");
        let anchor = Anchor::at(held).join("sub".as_ref());
        assert_eq!(anchor.depth(), 1);
        let mut text = String::new();
        let mut file = (anchor.open_file("main.tf".as_ref(), Links::Refuse)).expect("opened");
        std::io::Read::read_to_string(&mut file, &mut text).expect("read");
        assert_eq!(text, "x");
    }

    #[cfg(unix)]
    #[test]
    fn refuses_a_link_where_asked() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir(dir.path().join("real")).expect("mkdir");
        std::os::unix::fs::symlink("real", dir.path().join("link")).expect("symlink");
        let root = DirHandle::open(dir.path()).expect("opened");
        assert!(root.open_below("link".as_ref(), Links::Follow).is_ok());
        assert!(root.open_below("link".as_ref(), Links::Refuse).is_err());
        assert!(root.is_dir_below("link".as_ref()));
    }
}
