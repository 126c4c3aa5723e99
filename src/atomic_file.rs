//! Writing a file atomically: its bytes go to a temporary name beside it
//! (`NAME.tmp-PID`), which is renamed to `NAME` only once complete and removed when
//! the writing stops before that (an error, a panic), so that a file under its final
//! name is always whole. Every output of galign is written through here.
//!
//! The temporaries of the files being written are listed, so that a process stopped by
//! a signal can remove them ([`remove_pending`]) before it ends.
//!
//! An output that exists and is no regular file (`/dev/null`, `/dev/stdout`, a FIFO, a
//! terminal) is written straight into: renaming over it would replace the device or
//! pipe with a plain file (and removing a temporary would remove it).

use std::ffi::{CString, OsStr};
use std::fs::File;
use std::io::Write;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The temporaries of the files being written now, as C strings (for
/// [`remove_pending_in_signal_handler`], which may not allocate).
static PENDING: Mutex<Vec<CString>> = Mutex::new(Vec::new());

/// The listed temporaries, with the lock held (a panic elsewhere never leaves it unusable).
fn pending() -> std::sync::MutexGuard<'static, Vec<CString>> {
    PENDING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Removes the temporary of every file still being written (for a process that is
/// about to end on a signal); each is forgotten, so a later commit or drop does nothing.
/// (Tested through the CLI, `tests/map_cli.rs`: in a test process it would remove the
/// temporaries of tests running beside it.)
pub fn remove_pending() {
    for temporary in pending().drain(..) {
        let _ = std::fs::remove_file(OsStr::from_bytes(temporary.as_bytes()));
    }
}

/// [`remove_pending`] from a signal handler: no allocation, no waiting (nothing is
/// removed if another thread holds the list at that moment).
pub fn remove_pending_in_signal_handler() {
    if let Ok(list) = PENDING.try_lock() {
        for temporary in list.iter() {
            // SAFETY: a valid NUL-terminated path; unlink is async-signal-safe.
            unsafe { libc::unlink(temporary.as_ptr()) };
        }
    }
}

/// Forgets `temporary` (committed, or removed by its owner).
fn unlist(temporary: &Path) {
    pending().retain(|t| t.as_bytes() != temporary.as_os_str().as_bytes());
}

/// A file being written under a temporary name; [`AtomicFile::commit`] gives it its
/// final name, dropping it uncommitted removes the temporary.
#[derive(Debug)]
pub struct AtomicFile {
    path: PathBuf,
    temporary: PathBuf,
    committed: bool,
    /// The path is a device or pipe, written straight into.
    direct: bool,
}

/// Whether `path` exists and is neither a regular file nor a folder (a device, a FIFO,
/// a socket), following symbolic links.
fn is_special(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

impl AtomicFile {
    /// A file to be written to `path`; nothing exists on disk until the temporary is
    /// created ([`AtomicFile::create`], or a writer that opens
    /// [`AtomicFile::temporary`] itself).
    pub fn new(path: &Path) -> AtomicFile {
        if is_special(path) {
            return AtomicFile {
                path: path.to_path_buf(),
                temporary: path.to_path_buf(),
                committed: false,
                direct: true,
            };
        }
        let mut temporary = path.as_os_str().to_owned();
        temporary.push(format!(".tmp-{}", std::process::id()));
        let temporary = PathBuf::from(temporary);
        let listed = CString::new(temporary.as_os_str().as_bytes()).expect("paths hold no NUL");
        pending().push(listed);
        AtomicFile {
            path: path.to_path_buf(),
            temporary,
            committed: false,
            direct: false,
        }
    }

    /// The final name.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The temporary name the bytes are written under (the path itself for a device or
    /// pipe).
    pub fn temporary(&self) -> &Path {
        &self.temporary
    }

    /// Creates (or truncates) the temporary file for writing.
    pub fn create(&self) -> std::io::Result<File> {
        if self.direct {
            return std::fs::OpenOptions::new().write(true).open(&self.path);
        }
        File::create(&self.temporary)
    }

    /// Renames the complete temporary file to the final name. On failure the temporary
    /// is removed.
    pub fn commit(mut self) -> std::io::Result<()> {
        if self.direct {
            self.committed = true;
            return Ok(());
        }
        std::fs::rename(&self.temporary, &self.path)?;
        self.committed = true;
        unlist(&self.temporary);
        Ok(())
    }
}

impl Drop for AtomicFile {
    /// Removes the temporary file of an uncommitted write, if there is one.
    fn drop(&mut self) {
        if !self.committed && !self.direct {
            let _ = std::fs::remove_file(&self.temporary);
            unlist(&self.temporary);
        }
    }
}

/// Writes `bytes` to `path` atomically, synced to disk before the rename (a device or
/// pipe is written straight into, unsynced).
pub fn write(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let file = AtomicFile::new(path);
    let mut out = file.create()?;
    out.write_all(bytes)?;
    if !file.direct {
        out.sync_all()?;
    }
    drop(out);
    file.commit()
}

/// Writes what `fill` writes to `path` atomically, through a buffer, synced to disk
/// before the rename (a device or pipe is written straight into, unsynced): for an
/// output made a piece at a time.
pub fn write_with(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let file = AtomicFile::new(path);
    let mut out = std::io::BufWriter::with_capacity(1 << 22, file.create()?);
    fill(&mut out)?;
    let out = out.into_inner().map_err(|e| e.into_error())?;
    if !file.direct {
        out.sync_all()?;
    }
    drop(out);
    file.commit()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names_in(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn the_temporary_sits_beside_the_file_with_the_process_id() {
        let file = AtomicFile::new(Path::new("out/x.sam"));
        let want = format!("out/x.sam.tmp-{}", std::process::id());
        assert_eq!(file.temporary(), Path::new(&want));
    }

    #[test]
    fn commit_renames_the_complete_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.txt");
        let file = AtomicFile::new(&path);
        let mut out = file.create().unwrap();
        out.write_all(b"whole").unwrap();
        drop(out);
        assert_eq!(
            names_in(dir.path()),
            [format!("x.txt.tmp-{}", std::process::id())]
        );
        file.commit().unwrap();
        assert_eq!(names_in(dir.path()), ["x.txt"]);
        assert_eq!(std::fs::read(&path).unwrap(), b"whole");
    }

    #[test]
    fn commit_replaces_an_older_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.txt");
        std::fs::write(&path, b"old").unwrap();
        write(&path, b"new").unwrap();
        assert_eq!(names_in(dir.path()), ["x.txt"]);
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
    }

    #[test]
    fn dropping_without_commit_leaves_nothing_and_keeps_an_older_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.txt");
        let file = AtomicFile::new(&path);
        file.create().unwrap().write_all(b"half").unwrap();
        drop(file);
        assert!(names_in(dir.path()).is_empty());
        std::fs::write(&path, b"old").unwrap();
        let file = AtomicFile::new(&path);
        file.create().unwrap().write_all(b"half").unwrap();
        drop(file);
        assert_eq!(names_in(dir.path()), ["x.txt"]);
        assert_eq!(std::fs::read(&path).unwrap(), b"old");
    }

    #[test]
    fn a_fifo_is_written_into_not_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read(fifo).unwrap())
        };
        write(&fifo, b"through").unwrap();
        assert_eq!(reader.join().unwrap(), b"through");
        let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
        assert!(
            std::os::unix::fs::FileTypeExt::is_fifo(&kind),
            "still a FIFO"
        );
        assert_eq!(names_in(dir.path()), ["pipe"]);
    }

    #[test]
    fn errors_leave_nothing_behind() {
        let dir = tempfile::tempdir().unwrap();
        // The temporary cannot be created: no such folder.
        let missing = dir.path().join("no/x.txt");
        assert!(write(&missing, b"x").is_err());
        // The rename fails: the final name is a non-empty folder.
        let taken = dir.path().join("taken");
        std::fs::create_dir_all(taken.join("inside")).unwrap();
        let e = write(&taken, b"x").unwrap_err();
        assert_ne!(e.kind(), std::io::ErrorKind::NotFound, "{e}");
        assert_eq!(names_in(dir.path()), ["taken"]);
        assert_eq!(names_in(&taken), ["inside"]);
    }
}
