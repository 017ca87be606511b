//! Writing output files safely: to a temporary name beside the target, then renamed,
//! so an interrupted run never leaves a truncated file that looks finished.

use crate::{Error, Result};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// A file being written; it appears under its real name only on [`AtomicFile::commit`].
/// Dropped without commit, the temporary file is removed.
pub struct AtomicFile {
    target: PathBuf,
    temp: PathBuf,
    file: Option<std::io::BufWriter<fs::File>>,
}

impl AtomicFile {
    pub fn create(target: &Path) -> Result<Self> {
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        if !dir.is_dir() {
            return Err(Error::invalid(format!(
                "output folder {} does not exist: create it or choose another --out",
                dir.display()
            )));
        }
        let name = target.file_name().ok_or_else(|| {
            Error::invalid(format!("output path {} has no file name", target.display()))
        })?;
        let temp = dir.join(format!(
            ".{}.tmp-{}",
            name.to_string_lossy(),
            std::process::id()
        ));
        let file = fs::File::create(&temp).map_err(|e| Error::io("cannot write to", &dir, e))?;
        Ok(AtomicFile {
            target: target.to_path_buf(),
            temp,
            file: Some(std::io::BufWriter::new(file)),
        })
    }

    pub fn commit(mut self) -> Result<()> {
        let file = self.file.take().expect("commit once");
        let file = file
            .into_inner()
            .map_err(|e| Error::io("cannot write", &self.temp, e.into_error()))?;
        file.sync_all()
            .map_err(|e| Error::io("cannot write", &self.temp, e))?;
        drop(file);
        fs::rename(&self.temp, &self.target)
            .map_err(|e| Error::io("cannot create", &self.target, e))
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.file.as_mut().expect("open").write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.file.as_mut().expect("open").flush()
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            let _ = fs::remove_file(&self.temp);
        }
    }
}

/// Write a whole buffer to `target` atomically.
pub fn write_atomic(target: &Path, bytes: &[u8]) -> Result<()> {
    let mut f = AtomicFile::create(target)?;
    f.write_all(bytes)
        .map_err(|e| Error::io("cannot write", target, e))?;
    f.commit()
}
