//! What a dated run leaves for people: `index.json` and `index.md` in its folder (the
//! outputs, their files and counts, and whether each file still matches the
//! manifest), and how puzzlebook tells its own files under the names it writes there
//! (`index.json`, `index.md`, `published.txt`) from anyone else's: by their seal, or,
//! written by an earlier version, by being exactly what that version writes.

use super::manifest::{self, Manifest};
use super::{Job, PUBLISHED};
use crate::game::Registry;
use crate::output::{escaped_path, seal};
use crate::{Error, Result};
use serde_json::{json, Value};
use std::path::Path;

/// Write `index.json` and `index.md` into `dir` from its manifest: every output with
/// its files, sizes, items and whether each file's SHA-256 and size match the
/// manifest now (read back, not assumed). `catalogue`: (the catalogue as the job
/// names it, the puzzles this date published into it). Nothing in it depends on how
/// often the date was run, so a rerun leaves the same bytes.
pub fn write(job: &Job, dir: &Path, catalogue: Option<(&Path, usize)>) -> Result<Value> {
    let m = Manifest::load(&dir.join("manifest.json"))?;
    let mut outputs = Vec::new();
    let mut all_ok = true;
    for o in &job.outputs {
        let entries = m.entries(&o.name);
        let files: Vec<Value> = entries
            .iter()
            .map(|e| {
                let ok = manifest::file_sha256(&dir.join(&e.file))
                    .is_ok_and(|(h, n)| h == e.sha256 && n == e.bytes);
                all_ok &= ok;
                json!({"file": e.file, "bytes": e.bytes, "sha256": e.sha256, "verified": ok})
            })
            .collect();
        all_ok &= !files.is_empty();
        outputs.push(json!({
            "name": o.name,
            "kind": o.spec.kind(),
            "items": entries.first().map_or(0, |e| e.items),
            "seed": entries.first().map(|e| e.seed),
            "files": files,
        }));
    }
    let mut index = json!({
        "tool": "puzzlebook",
        "version": crate::VERSION,
        "job": job.path.file_name().map(|n| n.to_string_lossy().into_owned()),
        "date": job.date,
        "outputs": outputs,
        "verified": all_ok,
    });
    if let Some((path, published)) = catalogue {
        index["catalogue"] = json!({
            "file": path.display().to_string(),
            "published": published,
        });
    }
    let text = seal::json(index.clone(), "seal");
    crate::output::write_atomic(&dir.join("index.json"), text.as_bytes())?;
    let md = seal::text(&markdown(&index), seal::MARKDOWN);
    crate::output::write_atomic(&dir.join("index.md"), md.as_bytes())?;
    Ok(index)
}

/// The line every `index.md` puzzlebook writes starts its second paragraph with.
const MD_MARK: &str = "Made by puzzlebook ";

/// The names in a run folder that puzzlebook writes besides the outputs and the
/// manifest, and tells as its own by their content.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OwnName {
    /// `index.json`.
    IndexJson,
    /// `index.md`.
    IndexMd,
    /// `published.txt`.
    Published,
}

impl OwnName {
    /// The file name.
    pub fn name(self) -> &'static str {
        match self {
            OwnName::IndexJson => "index.json",
            OwnName::IndexMd => "index.md",
            OwnName::Published => PUBLISHED,
        }
    }

    /// The own name `name` is, if any.
    pub fn of(name: &str) -> Option<OwnName> {
        [OwnName::IndexJson, OwnName::IndexMd, OwnName::Published]
            .into_iter()
            .find(|o| o.name() == name)
    }
}

/// The most bytes an index file may hold to be read.
const MAX_INDEX_BYTES: u64 = crate::limits::MAX_MANIFEST_BYTES;
/// The most bytes a `published.txt` puzzlebook wrote may hold (a line per puzzle).
pub(crate) const MAX_PUBLISHED_BYTES: u64 = 1 << 34;
/// The most bytes a `published.txt` of an earlier version is read to be recognised.
const MAX_LEGACY_PUBLISHED_BYTES: u64 = 64 << 20;

/// Whether a manifest was written by an earlier version of puzzlebook: no seal and no
/// job path (fields this version always writes).
pub(crate) fn is_legacy(m: &Manifest) -> bool {
    m.seal.is_none() && m.job_path.is_none()
}

/// Whether the open file `f`, at the own name `which` of a folder whose manifest is
/// `m`, is puzzlebook's own, unchanged: it carries a valid seal, or the manifest is an
/// earlier version's and the file is exactly what that version writes for it (which
/// `sibling` opens the folder's other files to tell). A stop asked for is
/// [`Error::Interrupted`].
pub(crate) fn is_own<R: Registry>(
    which: OwnName,
    f: std::fs::File,
    m: Option<&Manifest>,
    sibling: &dyn Fn(&str) -> Option<std::fs::File>,
) -> Result<bool> {
    let sealed = match which {
        OwnName::IndexJson => {
            let text = read_text(f, MAX_INDEX_BYTES);
            if text.as_deref().is_some_and(seal::json_ok) {
                return Ok(true);
            }
            return Ok(match (text, m.filter(|m| is_legacy(m))) {
                (Some(t), Some(m)) => legacy_index(&t, m).is_some(),
                _ => false,
            });
        }
        OwnName::IndexMd => {
            let copy = f.try_clone().ok();
            if seal::text_reader_ok(f, seal::MARKDOWN, MAX_INDEX_BYTES)? {
                return Ok(true);
            }
            let Some(m) = m.filter(|m| is_legacy(m)) else {
                return Ok(false);
            };
            let text = copy.and_then(|f| read_text(f, MAX_INDEX_BYTES));
            let index = sibling("index.json")
                .and_then(|j| read_text(j, MAX_INDEX_BYTES))
                .and_then(|j| legacy_index(&j, m));
            return Ok(matches!((text, index), (Some(t), Some(i)) if markdown(&i) == t));
        }
        OwnName::Published => {
            let copy = f.try_clone().ok();
            if seal::text_reader_ok(f, seal::HASH_COMMENT, MAX_PUBLISHED_BYTES)? {
                return Ok(true);
            }
            match (copy, m.filter(|m| is_legacy(m))) {
                (Some(c), Some(m)) => read_text(c, MAX_LEGACY_PUBLISHED_BYTES)
                    .is_some_and(|t| legacy_published::<R>(&t, m)),
                _ => false,
            }
        }
    };
    Ok(sealed)
}

/// A file's text from its start (a clone of a file shares its offset: the seal check
/// before may have read it), if it is UTF-8 and at most `max` bytes.
fn read_text(mut f: std::fs::File, max: u64) -> Option<String> {
    std::io::Seek::rewind(&mut f).ok()?;
    let mut b = Vec::new();
    std::io::Read::read_to_end(&mut std::io::Read::take(f, max + 1), &mut b).ok()?;
    if b.len() as u64 > max {
        return None;
    }
    String::from_utf8(b).ok()
}

/// An `index.json` as an earlier version wrote it for manifest `m`: its fields and
/// no others, naming the manifest's tool, version, job and date, every file it lists
/// with the manifest's SHA-256 and size, and its text exactly the pretty JSON of
/// them. The index, or None.
fn legacy_index(text: &str, m: &Manifest) -> Option<Value> {
    let v: Value = serde_json::from_str(text).ok()?;
    let o = v.as_object()?;
    let known = [
        "tool",
        "version",
        "job",
        "date",
        "outputs",
        "verified",
        "catalogue",
    ];
    let job = Path::new(&m.job).file_name()?.to_string_lossy();
    let fits = o.keys().all(|k| known.contains(&k.as_str()))
        && v["tool"] == "puzzlebook"
        && v["version"] == m.version.as_str()
        && v["job"] == *job
        && v["date"] == json!(m.date)
        && v["outputs"].as_array().is_some_and(|outs| {
            outs.iter().all(|out| {
                out["files"].as_array().is_some_and(|files| {
                    files.iter().all(|f| {
                        m.outputs.iter().any(|e| {
                            f["file"] == e.file.as_str()
                                && f["sha256"] == e.sha256.as_str()
                                && f["bytes"] == e.bytes
                        })
                    })
                })
            })
        });
    // And the other way: every file the manifest lists is in the index.
    let listed = |e: &crate::manifest::Entry| {
        v["outputs"].as_array().is_some_and(|outs| {
            outs.iter().any(|out| {
                out["files"]
                    .as_array()
                    .is_some_and(|files| files.iter().any(|f| f["file"] == e.file.as_str()))
            })
        })
    };
    let again = serde_json::to_string_pretty(&v).ok()? + "\n";
    (fits && m.outputs.iter().all(listed) && again == text).then_some(v)
}

/// A `published.txt` as an earlier version wrote it for manifest `m`: its header,
/// then entries of four fields, each written as puzzlebook writes them, for the
/// manifest's date and from its outputs.
fn legacy_published<R: Registry>(text: &str, m: &Manifest) -> bool {
    let Some(rest) = text.strip_prefix(super::PUBLISHED_HEADER) else {
        return false;
    };
    let stem = Path::new(&m.job)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let date = m.date.clone().unwrap_or_else(|| "-".into());
    rest.split_inclusive('\n').all(|line| {
        let Some(body) = line.strip_suffix('\n') else {
            return false;
        };
        crate::catalogue::Line::read(body, R::GAMES).is_ok_and(|e| {
            e.maker.is_none()
                && e.text() == line
                && e.date == date
                && m.outputs
                    .iter()
                    .any(|o| e.source.starts_with(&format!("{stem}/{}#", o.output)))
        })
    })
}

/// Refuse to run when the output folder holds an `index.json`, `index.md` or
/// `published.txt` that puzzlebook did not write, or that was changed since (the run
/// would replace it): a website's own index, say. Each file puzzlebook writes under
/// those names carries a seal over its bytes ([`seal`]); a phrase inside is not
/// enough. An earlier version's files are recognised by being exactly what it wrote
/// for the folder's manifest. Checked before any work.
pub(crate) fn check_not_users<R: Registry>(job: &Job, dir: &Path) -> Result<()> {
    let mut names = Vec::new();
    if job.date.is_some() {
        names.extend([OwnName::IndexJson, OwnName::IndexMd]);
    }
    if job.catalogue.is_some() {
        names.push(OwnName::Published);
    }
    let m = Manifest::load(&dir.join("manifest.json")).ok();
    let open = |n: &str| crate::output::open_regular(&dir.join(n)).ok();
    for which in names {
        let path = dir.join(which.name());
        if std::fs::symlink_metadata(&path).is_err() {
            continue;
        }
        let ours = match crate::output::open_regular(&path) {
            Ok(f) => is_own::<R>(which, f, m.as_ref(), &open)?,
            Err(_) => false,
        };
        crate::interrupt::check()?;
        if !ours {
            return Err(Error::invalid(format!(
                "{} was not written by puzzlebook (or was changed since), and a run writes that name: move it, or choose another out_dir",
                escaped_path(&path)
            )));
        }
    }
    Ok(())
}

/// The index as a short Markdown page.
fn markdown(index: &Value) -> String {
    let job = index["job"].as_str().unwrap_or("job");
    let mut s = match index["date"].as_str() {
        Some(d) => format!("# {job} for {d}\n\n"),
        None => format!("# {job}\n\n"),
    };
    s += &format!(
        "{MD_MARK}{}. Every file {} the manifest (SHA-256 and size, read back after the run).\n\n",
        index["version"].as_str().unwrap_or(""),
        if index["verified"] == true {
            "matches"
        } else {
            "is listed below with whether it matches"
        }
    );
    s += "| output | kind | items | file | bytes | verified |\n|---|---|---:|---|---:|---|\n";
    for o in index["outputs"].as_array().into_iter().flatten() {
        for f in o["files"].as_array().into_iter().flatten() {
            s += &format!(
                "| {} | {} | {} | [{}]({}) | {} | {} |\n",
                md_cell(o["name"].as_str().unwrap_or("")),
                o["kind"].as_str().unwrap_or(""),
                o["items"],
                md_cell(f["file"].as_str().unwrap_or("")),
                f["file"].as_str().unwrap_or("").replace(' ', "%20"),
                f["bytes"],
                if f["verified"] == true { "yes" } else { "NO" }
            );
        }
    }
    if let Some(c) = index.get("catalogue") {
        s += &format!(
            "\nCatalogue `{}`: holds the {} puzzles published here (`published.txt`); none was published before.\n",
            c["file"].as_str().unwrap_or(""),
            c["published"]
        );
    }
    s
}

fn md_cell(s: &str) -> String {
    s.replace('|', "\\|")
}
