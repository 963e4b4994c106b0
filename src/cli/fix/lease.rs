//! A read lease on a file while `--fix` replaces it (Linux `fcntl(F_SETLEASE, F_RDLCK)`, see
//! fcntl(2), "Leases"): the kernel grants it only while no process has the file open for
//! writing, and breaks it when one opens it for writing or truncates it. Holding one from the
//! last look at a file until after the rename that replaces it turns the save no look can see
//! (a program that opened the file before the rename and writes into it after the last look)
//! into one that is seen: the writer's `open` waits for the lease, and the lease tells that it
//! came.
//!
//! A lease that breaks after the file is gone (the program's `open` had found it by name just
//! before) still holds that program back: the lease is released, the program writes into the
//! removed file, and once it closed it what it wrote is read, to be put back under the name
//! ([`Lease::contents_once_written`]).
//!
//! A lease needs a file the user owns (or `CAP_LEASE`) on a file system that has them; where
//! there is none, [`Lease::take`] says so and the replacement relies on its looks alone.

use std::fs;
#[cfg(target_os = "linux")]
use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

#[cfg(target_os = "linux")]
use crate::input::read::{open_to_read, read_opened};

/// A read lease held on a file, released when dropped (closing the descriptor releases it).
pub(crate) struct Lease {
    file: fs::File,
    /// Where it was opened, for the messages of a read.
    path: PathBuf,
}

/// Why no lease was taken.
#[derive(Debug)]
pub(crate) enum NoLease {
    /// A program has the file open for writing: a save may be under way.
    OpenForWriting,
    /// No lease here (another system, a file system without them, a file of another user):
    /// the replacement goes on without one.
    Unavailable,
}

impl Lease {
    /// Takes a read lease on the file at `path` (through symbolic links).
    #[cfg(target_os = "linux")]
    pub(crate) fn take(path: &Path) -> Result<Lease, NoLease> {
        ignore_lease_break_signal();
        let file = open_to_read(path).map_err(|_| NoLease::Unavailable)?;
        match fcntl(&file, libc::F_SETLEASE, libc::F_RDLCK) {
            Ok(_) => Ok(Lease {
                file,
                path: path.to_path_buf(),
            }),
            Err(error) if error.raw_os_error() == Some(libc::EAGAIN) => {
                Err(NoLease::OpenForWriting)
            }
            Err(_) => Err(NoLease::Unavailable),
        }
    }

    #[cfg(not(target_os = "linux"))]
    pub(crate) fn take(_path: &Path) -> Result<Lease, NoLease> {
        Err(NoLease::Unavailable)
    }

    /// Whether the lease still stands: no program opened the file for writing or truncated it
    /// since it was taken. A broken lease reads as `F_UNLCK` until it is released.
    #[cfg(target_os = "linux")]
    pub(crate) fn intact(&self) -> bool {
        fcntl(&self.file, libc::F_GETLEASE, 0).is_ok_and(|kind| kind == libc::F_RDLCK)
    }

    #[cfg(not(target_os = "linux"))]
    pub(crate) fn intact(&self) -> bool {
        false
    }

    /// After the lease broke: releases it, so that the program that broke it goes on opening
    /// the file, waits until no program has the file open for writing any more (a lease is
    /// granted again; at most `patience`), and reads what the file holds then. `None` when that
    /// cannot be known: the file is still open for writing after `patience`, or unreadable.
    #[cfg(target_os = "linux")]
    pub(crate) fn contents_once_written(self, patience: Duration) -> Option<Vec<u8>> {
        fcntl(&self.file, libc::F_SETLEASE, libc::F_UNLCK).ok()?;
        let deadline = std::time::Instant::now() + patience;
        loop {
            match fcntl(&self.file, libc::F_SETLEASE, libc::F_RDLCK) {
                Ok(_) => break,
                Err(error)
                    if error.raw_os_error() == Some(libc::EAGAIN)
                        && std::time::Instant::now() < deadline =>
                {
                    std::thread::sleep(Duration::from_millis(1));
                }
                Err(_) => return None,
            }
        }
        // Whatever its size: these are the bytes of a save, to be put back whole.
        read_opened(&self.path, self.file, u64::MAX).ok()
    }

    #[cfg(not(target_os = "linux"))]
    pub(crate) fn contents_once_written(self, _patience: Duration) -> Option<Vec<u8>> {
        let _ = (self.file, self.path);
        None
    }

    /// Whether the file at `path` (not through a final symbolic link: the name itself) is the
    /// leased file.
    pub(crate) fn is_at(&self, path: &Path) -> bool {
        let (Ok(leased), Ok(there)) = (self.file.metadata(), fs::symlink_metadata(path)) else {
            return false;
        };
        same_file(&leased, &there)
    }
}

#[cfg(unix)]
fn same_file(a: &fs::Metadata, b: &fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    (a.dev(), a.ino()) == (b.dev(), b.ino())
}

#[cfg(not(unix))]
fn same_file(_a: &fs::Metadata, _b: &fs::Metadata) -> bool {
    false
}

/// A broken lease is announced to its holder with `SIGIO`, whose default action ends the
/// process; tflint-merge does no signal-driven I/O and asks the lease itself instead, so the
/// signal is ignored (once, unless someone installed a handler for it).
#[cfg(target_os = "linux")]
#[expect(
    unsafe_code,
    reason = "std cannot set a signal's disposition; without it a lease break would end the run"
)]
fn ignore_lease_break_signal() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // SAFETY: an all-zero `sigaction` is a valid plain C struct (no handler, empty mask).
        let mut current: libc::sigaction = unsafe { std::mem::zeroed() };
        // SAFETY: with a null new action, `sigaction` only writes the current one into
        // `current`, which outlives the call.
        let asked = unsafe { libc::sigaction(libc::SIGIO, std::ptr::null(), &mut current) };
        if asked == 0 && current.sa_sigaction == libc::SIG_DFL {
            // SAFETY: SIG_IGN installs no handler code; the disposition is the process's own.
            unsafe { libc::signal(libc::SIGIO, libc::SIG_IGN) };
        }
    });
}

/// `fcntl(2)` with an integer argument on `file`.
#[cfg(target_os = "linux")]
#[expect(
    unsafe_code,
    reason = "std has no fcntl(2): leases are only taken and asked about through it"
)]
fn fcntl(file: &fs::File, command: libc::c_int, argument: libc::c_int) -> io::Result<libc::c_int> {
    use std::os::fd::AsRawFd;
    // SAFETY: the descriptor is open for the duration of the call (borrowed from `file`), and
    // the lease commands take an integer argument and touch no memory of ours.
    let result = unsafe { libc::fcntl(file.as_raw_fd(), command, argument) };
    if result == -1 {
        Err(io::Error::last_os_error())
    } else {
        Ok(result)
    }
}
