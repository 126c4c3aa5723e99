//! Writing a file atomically: its bytes go to a temporary name beside it
//! (`NAME.tmp-PID-RANDOM`), which is renamed to `NAME` only once complete and removed
//! when the writing stops before that (an error, a panic), so that a file under its
//! final name is always whole. Every output of galign is written through here.
//!
//! The temporary is created exclusively (`O_CREAT | O_EXCL`, which never follows a
//! symbolic link) under a name with 64 random bits: no other process (another PID
//! namespace, another host on NFS) writes into it, and a file or link planted at a
//! predictable name is never written through. An output that is a symbolic link is
//! written through: the temporary goes beside the link's target, which the rename
//! replaces (the link stays). An existing output that this user may not write
//! (`access(W_OK)`) is refused, not replaced.
//!
//! The temporaries of the files being written are listed, so that a process stopped by
//! a signal can remove them ([`remove_pending`]) before it ends.
//!
//! An output that exists and is no regular file (`/dev/null`, `/dev/stdout`, a FIFO, a
//! terminal) is written straight into: renaming over it would replace the device or
//! pipe with a plain file (and removing a temporary would remove it).
//!
//! [`ensure_distinct`] refuses a run whose output is one of its inputs or another of its
//! outputs.

use std::ffi::{CString, OsStr};
use std::fs::File;
use std::io::Write;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Why an output is refused before anything is written to it.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// The output exists and this user may not write it: it is not replaced.
    #[error(
        "it exists and you have no permission to write it, so it is not replaced \
         (remove it, or give another output)"
    )]
    NotWritable {
        /// The output as given.
        path: String,
    },
    /// The output is also an input of the run, or another of its outputs.
    #[error("{path}: is both {first} and {second} of this run; give the output another name")]
    SameFile {
        /// The output as given.
        path: String,
        /// The other role of the same file ("the reads", "the index", ...).
        first: String,
        /// This output's role ("the output", "the --stats file", ...).
        second: String,
    },
    /// The output is a device or pipe where a file written at offsets (an index) is
    /// needed.
    #[error(
        "{path}: is a device or pipe; this output is written at offsets, into a regular \
         file: give a file's path"
    )]
    NotRegular {
        /// The output as given.
        path: String,
    },
}

impl From<OutputError> for std::io::Error {
    fn from(error: OutputError) -> std::io::Error {
        let kind = match error {
            OutputError::NotWritable { .. } => std::io::ErrorKind::PermissionDenied,
            OutputError::SameFile { .. } => std::io::ErrorKind::AlreadyExists,
            OutputError::NotRegular { .. } => std::io::ErrorKind::InvalidInput,
        };
        std::io::Error::new(kind, error)
    }
}

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

/// Lists `temporary` (before it is created, so that a signal in between finds it).
fn list(temporary: &Path) {
    let listed = CString::new(temporary.as_os_str().as_bytes()).expect("paths hold no NUL");
    pending().push(listed);
}

/// Forgets `temporary` (committed, or removed by its owner).
fn unlist(temporary: &Path) {
    pending().retain(|t| t.as_bytes() != temporary.as_os_str().as_bytes());
}

/// A file being written under a temporary name; [`AtomicFile::commit`] gives it its
/// final name, dropping it uncommitted removes the temporary.
#[derive(Debug)]
pub struct AtomicFile {
    /// The output as given (for messages).
    path: PathBuf,
    /// What the rename replaces: the path with its symbolic links followed.
    target: PathBuf,
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

/// Symbolic links followed before giving up (as the kernel's `ELOOP`).
const MAX_LINKS: usize = 40;

/// `path` with the symbolic links of its last component followed, to the file they lead
/// to (which need not exist: a dangling link's target is created).
fn follow_links(path: &Path) -> std::io::Result<PathBuf> {
    let mut at = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&at) {
            Ok(m) if m.file_type().is_symlink() => {
                let link = std::fs::read_link(&at)?;
                let folder = at.parent().unwrap_or(Path::new(""));
                at = folder.join(link);
            }
            _ => return Ok(at),
        }
    }
    Err(std::io::Error::from_raw_os_error(libc::ELOOP))
}

/// Whether this user may write the existing file `path` (`access(W_OK)`).
fn writable(path: &Path) -> bool {
    let Ok(c_path) = CString::new(path.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: a valid NUL-terminated path; access only reads it.
    unsafe { libc::access(c_path.as_ptr(), libc::W_OK) == 0 }
}

/// 64 bits from the kernel's random source (`getrandom`, else `/dev/urandom`).
fn random_word() -> std::io::Result<u64> {
    let mut bytes = [0u8; 8];
    // SAFETY: getrandom writes at most `bytes.len()` bytes into the buffer.
    let got = unsafe { libc::getrandom(bytes.as_mut_ptr().cast(), bytes.len(), 0) };
    if got != bytes.len() as isize {
        File::open("/dev/urandom")
            .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut bytes))?;
    }
    Ok(u64::from_ne_bytes(bytes))
}

/// Names tried for a temporary before giving up (each taken name is another file's).
const NAME_TRIES: usize = 16;

/// Creates a temporary for `target` beside it, exclusively (never through a link),
/// under a fresh random name; it is listed for [`remove_pending`].
fn create_temporary(target: &Path) -> std::io::Result<(PathBuf, File)> {
    let mut taken = None;
    for _ in 0..NAME_TRIES {
        let mut name = target.as_os_str().to_owned();
        name.push(format!(
            ".tmp-{}-{:016x}",
            std::process::id(),
            random_word()?
        ));
        let temporary = PathBuf::from(name);
        list(&temporary);
        let created = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .custom_flags(libc::O_NOFOLLOW)
            .mode(0o666)
            .open(&temporary);
        match created {
            Ok(file) => return Ok((temporary, file)),
            Err(e) => {
                unlist(&temporary);
                if e.kind() != std::io::ErrorKind::AlreadyExists {
                    return Err(e);
                }
                taken = Some(e);
            }
        }
    }
    Err(taken.expect("tried at least once"))
}

impl AtomicFile {
    /// Starts writing `path`: creates its temporary (exclusively, under a random name,
    /// beside the target of a symbolic link) and returns it open for writing; a device
    /// or pipe is opened as it is. An existing file this user may not write is refused
    /// ([`OutputError::NotWritable`]).
    pub fn open(path: &Path) -> std::io::Result<(AtomicFile, File)> {
        if is_special(path) {
            let out = std::fs::OpenOptions::new().write(true).open(path)?;
            return Ok((AtomicFile::direct(path), out));
        }
        let target = follow_links(path)?;
        if std::fs::metadata(&target).is_ok_and(|m| m.is_file()) && !writable(&target) {
            let path = path.display().to_string();
            return Err(OutputError::NotWritable { path }.into());
        }
        let (temporary, out) = create_temporary(&target)?;
        let file = AtomicFile {
            path: path.to_path_buf(),
            target,
            temporary,
            committed: false,
            direct: false,
        };
        Ok((file, out))
    }

    /// A device or pipe at `path`, written straight into.
    fn direct(path: &Path) -> AtomicFile {
        AtomicFile {
            path: path.to_path_buf(),
            target: path.to_path_buf(),
            temporary: path.to_path_buf(),
            committed: false,
            direct: true,
        }
    }

    /// The final name, as given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The temporary name the bytes are written under (the path itself for a device or
    /// pipe).
    pub fn temporary(&self) -> &Path {
        &self.temporary
    }

    /// Syncs `out`, this file's open temporary, to disk (a device or pipe is not
    /// synced).
    pub fn sync(&self, out: &File) -> std::io::Result<()> {
        if self.direct {
            return Ok(());
        }
        out.sync_all()
    }

    /// Renames the complete temporary file to the final name (the target of a symbolic
    /// link). On failure the temporary is removed.
    pub fn commit(mut self) -> std::io::Result<()> {
        if self.direct {
            self.committed = true;
            return Ok(());
        }
        std::fs::rename(&self.temporary, &self.target)?;
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
    let (file, out) = AtomicFile::open(path)?;
    write_into(file, out, bytes)
}

/// Writes `bytes` into `out`, the open file of `file` (as [`AtomicFile::open`] gave
/// them), syncs a regular file and commits it.
pub fn write_into(file: AtomicFile, mut out: File, bytes: &[u8]) -> std::io::Result<()> {
    out.write_all(bytes)?;
    file.sync(&out)?;
    drop(out);
    file.commit()
}

/// Writes `bytes` to `path`'s temporary and syncs it, leaving the rename to the caller
/// ([`AtomicFile::commit`]; dropped uncommitted, the temporary is removed): for outputs
/// that appear together, once every one is complete.
pub fn write_uncommitted(path: &Path, bytes: &[u8]) -> std::io::Result<AtomicFile> {
    let (file, mut out) = AtomicFile::open(path)?;
    out.write_all(bytes)?;
    file.sync(&out)?;
    Ok(file)
}

/// Checks, before a long run, that an output can be created at `path` (its folder
/// writable, an existing file writable by this user): a temporary is made and removed.
pub fn ensure_creatable(path: &Path) -> std::io::Result<()> {
    AtomicFile::open(path).map(drop)
}

/// Refuses an output at `path` that is an existing device or pipe ([`OutputError::NotRegular`]),
/// for an output written at offsets and resized (an index), which such a file cannot
/// take.
pub fn ensure_regular(path: &Path) -> Result<(), OutputError> {
    if is_special(path) {
        return Err(OutputError::NotRegular {
            path: path.display().to_string(),
        });
    }
    Ok(())
}

/// The file one path of a run names, for [`ensure_distinct`].
#[derive(Debug, PartialEq, Eq)]
enum Identity {
    /// An existing regular file: its device and inode.
    Inode(u64, u64),
    /// A file to be created: its absolute path, links followed.
    Path(PathBuf),
}

/// The file `path` names; `None` for stdin or stdout (`-`), a device, a pipe or a
/// folder (never replaced by an output, so never lost).
fn identity(path: &Path) -> Option<Identity> {
    if path.as_os_str() == "-" {
        return None;
    }
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() => Some(Identity::Inode(m.dev(), m.ino())),
        Ok(_) => None,
        Err(_) => {
            let target = follow_links(path).ok()?;
            let folder = match target.parent() {
                Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
                _ => PathBuf::from("."),
            };
            let folder = std::fs::canonicalize(&folder).unwrap_or(folder);
            Some(Identity::Path(folder.join(target.file_name()?)))
        }
    }
}

/// Refuses a run whose outputs name the same file (device and inode, or path once
/// symbolic links are followed) as one of its `inputs` or as each other: writing it
/// would replace that input, or one output the other. Each path comes with its role,
/// which the message names ("the reads", "the index", "the output").
pub fn ensure_distinct(
    inputs: &[(&str, &Path)],
    outputs: &[(&str, &Path)],
) -> Result<(), OutputError> {
    let mut seen: Vec<(&str, Identity)> = inputs
        .iter()
        .filter_map(|&(role, path)| identity(path).map(|id| (role, id)))
        .collect();
    for &(role, path) in outputs {
        let Some(id) = identity(path) else { continue };
        if let Some((first, _)) = seen.iter().find(|(_, other)| *other == id) {
            return Err(OutputError::SameFile {
                path: path.display().to_string(),
                first: first.to_string(),
                second: role.to_string(),
            });
        }
        seen.push((role, id));
    }
    Ok(())
}

/// Writes what `fill` writes to `path` atomically, through a buffer, synced to disk
/// before the rename (a device or pipe is written straight into, unsynced): for an
/// output made a piece at a time.
pub fn write_with(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let (file, out) = AtomicFile::open(path)?;
    let mut out = std::io::BufWriter::with_capacity(1 << 22, out);
    fill(&mut out)?;
    let out = out.into_inner().map_err(|e| e.into_error())?;
    file.sync(&out)?;
    drop(out);
    file.commit()
}

/// [`write_with`], leaving the rename to the caller ([`write_uncommitted`]).
pub fn write_with_uncommitted(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<AtomicFile> {
    let (file, out) = AtomicFile::open(path)?;
    let mut out = std::io::BufWriter::with_capacity(1 << 22, out);
    fill(&mut out)?;
    let out = out.into_inner().map_err(|e| e.into_error())?;
    file.sync(&out)?;
    Ok(file)
}

/// The errors of a run that writes one output, to stdout or to a file
/// ([`write_output`]).
pub trait OutputErrors: std::error::Error + Send + Sync + Sized + 'static {
    /// The error of the output file `path` that could not be written: `source` is the
    /// write's own error, or the run's other error wrapped (see [`Self::into_write`]).
    fn file(path: &Path, source: std::io::Error) -> Self;
    /// The error of records that could not be flushed to stdout.
    fn stdout(source: std::io::Error) -> Self;
    /// A write's I/O error as it is, or the error back where it is none.
    fn into_write(self) -> Result<std::io::Error, Self>;
}

/// Runs `fill` on the output: stdout (buffered, flushed at the end) when `path` is
/// `None`, else the file `path`, written under a temporary name and given its own only
/// once complete ([`write_with`]); an error of the run then names the file.
pub fn write_output<E: OutputErrors>(
    path: Option<&Path>,
    fill: impl FnOnce(&mut dyn Write) -> Result<(), E>,
) -> Result<(), E> {
    match path {
        Some(path) => write_with(path, |out| {
            fill(out).map_err(|e| e.into_write().unwrap_or_else(std::io::Error::other))
        })
        .map_err(|source| E::file(path, source)),
        None => {
            let mut out = std::io::BufWriter::with_capacity(1 << 20, std::io::stdout().lock());
            fill(&mut out)?;
            out.flush().map_err(E::stdout)
        }
    }
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

    /// Whether `name` is a temporary of `file` made by this process.
    fn is_temporary_of(name: &str, file: &str) -> bool {
        let start = format!("{file}.tmp-{}-", std::process::id());
        name.strip_prefix(&start).is_some_and(|random| {
            random.len() == 16 && random.bytes().all(|b| b.is_ascii_hexdigit())
        })
    }

    #[test]
    fn the_temporary_sits_beside_the_file_with_the_process_id_and_a_random_part() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.sam");
        let (file, _out) = AtomicFile::open(&path).unwrap();
        assert_eq!(file.temporary().parent(), Some(dir.path()));
        let name = file.temporary().file_name().unwrap().to_str().unwrap();
        assert!(is_temporary_of(name, "x.sam"), "{name}");
    }

    #[test]
    fn two_writers_of_one_path_get_different_temporaries() {
        // As two processes with the same PID (two PID namespaces, two hosts on NFS) would.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.txt");
        let (first, mut first_out) = AtomicFile::open(&path).unwrap();
        let (second, mut second_out) = AtomicFile::open(&path).unwrap();
        assert_ne!(first.temporary(), second.temporary());
        first_out.write_all(b"first").unwrap();
        second_out.write_all(b"second").unwrap();
        drop((first_out, second_out));
        first.commit().unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"first");
        second.commit().unwrap();
        assert_eq!(
            std::fs::read(&path).unwrap(),
            b"second",
            "whole, never mixed"
        );
        assert_eq!(names_in(dir.path()), ["x.txt"]);
    }

    #[test]
    fn a_file_or_link_planted_at_a_temporary_name_is_never_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, b"precious").unwrap();
        let path = dir.path().join("out.sam");
        // Every name the old scheme used, and a planted link at this process's prefix.
        let old_name = dir
            .path()
            .join(format!("out.sam.tmp-{}", std::process::id()));
        std::os::unix::fs::symlink(&victim, &old_name).unwrap();
        write(&path, b"output").unwrap();
        assert_eq!(std::fs::read(&victim).unwrap(), b"precious");
        assert_eq!(std::fs::read(&path).unwrap(), b"output");
        assert!(std::fs::symlink_metadata(&old_name)
            .unwrap()
            .file_type()
            .is_symlink());
    }

    #[test]
    fn commit_renames_the_complete_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.txt");
        let (file, mut out) = AtomicFile::open(&path).unwrap();
        out.write_all(b"whole").unwrap();
        drop(out);
        let names = names_in(dir.path());
        assert!(
            names.len() == 1 && is_temporary_of(&names[0], "x.txt"),
            "{names:?}"
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
        let (file, mut out) = AtomicFile::open(&path).unwrap();
        out.write_all(b"half").unwrap();
        drop((file, out));
        assert!(names_in(dir.path()).is_empty());
        std::fs::write(&path, b"old").unwrap();
        let (file, mut out) = AtomicFile::open(&path).unwrap();
        out.write_all(b"half").unwrap();
        drop((file, out));
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

#[cfg(test)]
mod links_and_identity_tests {
    use super::*;

    #[test]
    fn an_output_that_is_a_symbolic_link_is_written_through_the_link() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("real")).unwrap();
        let target = dir.path().join("real/out.sam");
        std::fs::write(&target, b"old").unwrap();
        let link = dir.path().join("out.sam");
        std::os::unix::fs::symlink("real/out.sam", &link).unwrap();
        let (file, out) = AtomicFile::open(&link).unwrap();
        assert_eq!(
            file.temporary().parent(),
            Some(dir.path().join("real").as_path())
        );
        write_into(file, out, b"new").unwrap();
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read(&target).unwrap(), b"new");
        // A dangling link: its target is created.
        std::fs::remove_file(&target).unwrap();
        write(&link, b"again").unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"again");
    }

    #[test]
    fn a_link_loop_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a");
        std::os::unix::fs::symlink("b", &a).unwrap();
        std::os::unix::fs::symlink("a", dir.path().join("b")).unwrap();
        assert_eq!(
            write(&a, b"x").unwrap_err().raw_os_error(),
            Some(libc::ELOOP)
        );
    }

    #[test]
    fn an_output_that_is_an_input_or_another_output_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let reads = dir.path().join("r.fq");
        std::fs::write(&reads, b"@r\nA\n+\nI\n").unwrap();
        let hard = dir.path().join("hard.fq");
        std::fs::hard_link(&reads, &hard).unwrap();
        let soft = dir.path().join("soft.fq");
        std::os::unix::fs::symlink("r.fq", &soft).unwrap();
        let new = dir.path().join("new.sam");
        let inputs = [("the reads", reads.as_path())];
        for same in [&reads, &hard, &soft] {
            let e = ensure_distinct(&inputs, &[("the output", same)]).unwrap_err();
            assert!(
                e.to_string().contains("is both the reads and the output"),
                "{e}"
            );
        }
        let dotted = dir.path().join(".").join("new.sam");
        let e = ensure_distinct(
            &inputs,
            &[("the output", &new), ("the --stats file", &dotted)],
        )
        .unwrap_err();
        assert!(
            e.to_string()
                .contains("both the output and the --stats file"),
            "{e}"
        );
        ensure_distinct(&inputs, &[("the output", &new)]).unwrap();
        let stdout = Path::new("-");
        ensure_distinct(&[("the reads", stdout)], &[("the output", stdout)]).unwrap();
        ensure_distinct(
            &inputs,
            &[
                ("the output", Path::new("/dev/null")),
                ("the --stats file", Path::new("/dev/null")),
            ],
        )
        .unwrap();
    }
}
