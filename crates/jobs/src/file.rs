//! Job files: what a job file says (`JobFile`), read and checked into a [`Job`] and its
//! [`Output`]s, names and paths resolved.

use super::*;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct JobFile {
    pub(super) seed: Option<toml::Value>,
    pub(super) out_dir: Option<String>,
    pub(super) catalogue: Option<String>,
    pub(super) keep: Option<u32>,
    #[serde(default)]
    pub(super) output: Vec<toml::Spanned<toml::Table>>,
}

/// A loaded, checked job.
#[derive(Debug, Clone)]
pub struct Job {
    /// The job file, as given on the command line.
    pub path: PathBuf,
    /// The job file's absolute path, links resolved: with the configuration, who the
    /// job is (its catalogue entries and date folders are told by it, never by the
    /// file name alone).
    pub canonical: PathBuf,
    /// SHA-256 of the job file's bytes, in lowercase hex (recorded in the manifest).
    pub sha256: String,
    /// The job file's master seed (None: each output's own, else its template's or the default).
    pub seed: Option<u64>,
    /// The output folder: the file's `out_dir`, else `output/<job file stem>`, both
    /// relative to the job file's folder.
    pub out_dir: PathBuf,
    /// The date the run is for, `YYYY-MM-DD`, when the job draws on it (a seed from
    /// the date, or a placeholder in `out_dir` or a name); recorded in the manifest.
    pub date: Option<String>,
    /// The outputs, in the job file's order (their files never collide).
    pub outputs: Vec<Output>,
    /// The catalogue of published puzzles the job's items and books draw past and
    /// add to (`catalogue = "PATH"`, relative to the job file).
    pub catalogue: Option<PathBuf>,
    /// The catalogue as the job file spells it (for the index, which is the same
    /// from whatever folder the job is run).
    pub catalogue_named: Option<String>,
    /// Keep this many date folders (`keep = N`): after a whole run, older folders
    /// this job made for other dates are removed (see [`retain::retain`]).
    pub keep: Option<u32>,
    /// The last part of `out_dir` as the job file writes it, when that part names the
    /// date (`{date}`, ...) and the parts before it do not: the date folders of
    /// this job are the folders beside the output folder named like it.
    pub date_folder: Option<String>,
}

/// One output of a job.
#[derive(Debug, Clone)]
pub struct Output {
    /// The file name inside the output folder (no folders, not hidden).
    pub name: String,
    /// The output's own seed, else the job's (None: the template's or the default).
    pub seed: Option<u64>,
    /// What to make, with its checked parameters.
    pub spec: Spec,
    /// SHA-256 of kind, configuration and tool version: what makes the output what it is.
    pub config_sha256: String,
}

impl Output {
    /// The files this output writes, relative to the output folder: its name, and
    /// the other files its kind's options name (a summary CSV, a report).
    pub fn files<R: Registry>(&self) -> Vec<String> {
        match &self.spec {
            Spec::Images(i) => return i.files(&self.name),
            // The PDF, and beside it the facts to make it again.
            Spec::Book(_) => return vec![self.name.clone(), format!("{}.json", self.name)],
            _ => {}
        }
        self.target::<R>(Path::new(""))
            .all()
            .iter()
            .map(|f| f.to_string_lossy().into_owned())
            .collect()
    }

    pub(super) fn target<R: Registry>(&self, dir: &Path) -> StatsFiles {
        match &self.spec {
            Spec::Statistic(s) => s.job_files::<R>(dir.join(&self.name), dir),
            _ => StatsFiles::single(dir.join(&self.name)),
        }
    }

    pub(super) fn effective_seed<R: Registry>(&self) -> u64 {
        match (&self.spec, self.seed) {
            (_, Some(s)) => s,
            (Spec::Book(b), None) => crate::book::Template::load::<R>(b.template_path())
                .ok()
                .and_then(|t| t.seed)
                .unwrap_or(crate::seed::DEFAULT_SEED),
            _ => crate::seed::DEFAULT_SEED,
        }
    }
}

/// Names in an output folder that puzzlebook keeps for itself.
pub(super) const RESERVED: &[&str] = &[
    "manifest.json",
    "parts",
    PUBLISHED,
    "index.json",
    "index.md",
];

pub(super) fn file_name_ok(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('.')
        && !name.chars().any(char::is_control)
        && !name.contains(['/', '\\'])
        && !RESERVED.contains(&name)
}

impl Job {
    /// Every file the job reads, with what it is: the job file, each book's template
    /// and the fonts the template names.
    pub fn input_files<R: Registry>(&self) -> Result<Vec<(String, PathBuf)>> {
        let mut v = vec![("the job file".to_string(), self.path.clone())];
        for o in &self.outputs {
            if let Spec::Book(b) = &o.spec {
                v.push((
                    format!("the template of '{}'", o.name),
                    b.template_path().to_path_buf(),
                ));
                let t = crate::book::Template::load::<R>(b.template_path())?;
                for (what, p) in t.input_files() {
                    v.push((format!("{what} (output '{}')", o.name), p));
                }
            }
        }
        Ok(v)
    }

    /// Read and check a job file for a run today (UTC); see [`Job::load_for`].
    pub fn load<R: Registry>(path: &Path) -> Result<Job> {
        Job::load_for::<R>(path, date::RunDate::today())
    }

    /// Read and check a job file for a run on `run_date`: unknown keys, bad names,
    /// conflicting outputs, missing templates, unknown games and bad parameters are
    /// errors before anything runs. Seeds and names that draw on the date are filled
    /// in here.
    pub fn load_for<R: Registry>(path: &Path, run_date: date::RunDate) -> Result<Job> {
        let l = Loader {
            path,
            run_date,
            dated: std::cell::Cell::new(false),
        };
        let (bytes, text) = l.read()?;
        let file = l.parse(&text)?;
        if file.output.is_empty() {
            return Err(l.bad("no [[output]] tables: name at least one output".into()));
        }
        if file.keep == Some(0) {
            return Err(l.bad(
                "keep = 0 would remove the run it makes: keep at least 1 date folder".into(),
            ));
        }
        let job_seed = match &file.seed {
            None => None,
            Some(v) => Some(l.seed(v).map_err(|e| l.bad(e))?),
        };
        let outputs = l.outputs::<R>(&text, file.output, job_seed, file.catalogue.as_deref())?;
        let (out_dir, date_folder) = l.out_dir(file.out_dir.as_deref(), file.keep)?;
        let catalogue = l.catalogue(file.catalogue.as_deref())?;
        let canonical =
            std::fs::canonicalize(path).map_err(|e| Error::io("cannot read job file", path, e))?;
        Ok(Job {
            path: path.to_path_buf(),
            canonical,
            sha256: manifest::sha256_hex(&bytes),
            seed: job_seed,
            out_dir,
            date: l.dated.get().then(|| run_date.iso()),
            outputs,
            catalogue,
            catalogue_named: file
                .catalogue
                .as_deref()
                .map(|c| run_date.expand(c).unwrap_or_else(|_| c.to_string())),
            keep: file.keep,
            date_folder,
        })
    }
}

/// The loading of one job file: where it is, the date it runs for, and whether
/// anything read so far draws on that date.
pub(super) struct Loader<'a> {
    pub(super) path: &'a Path,
    pub(super) run_date: date::RunDate,
    pub(super) dated: std::cell::Cell<bool>,
}

impl Loader<'_> {
    /// An error in the job file, naming it.
    pub(super) fn bad(&self, m: String) -> Error {
        Error::invalid(format!("job {}: {m}", self.path.display()))
    }

    /// An error in the output named `name`, whose table starts on `line`.
    pub(super) fn at(&self, line: usize, name: &str, m: String) -> Error {
        let shown = crate::input::excerpt(name);
        self.bad(format!("line {line}: output '{shown}': {m}"))
    }

    /// Note that what was just read draws on the date (when `dated`).
    pub(super) fn draws_on_date(&self, dated: bool) {
        self.dated.set(self.dated.get() | dated);
    }

    /// A path the job file names, relative to the job file's folder.
    pub(super) fn near_job(&self, p: &Path) -> PathBuf {
        if p.is_relative() {
            self.path.parent().unwrap_or(Path::new("")).join(p)
        } else {
            p.to_path_buf()
        }
    }

    /// The job file's bytes, and the same as text.
    pub(super) fn read(&self) -> Result<(Vec<u8>, String)> {
        let path = self.path;
        let bytes = crate::input::read_capped(path, crate::limits::MAX_CONFIG_BYTES, "job file")
            .map_err(|e| match e {
                Error::Io { source, .. } => Error::io("cannot read job file", path, source),
                e => e,
            })?;
        let text =
            String::from_utf8(bytes.clone()).map_err(|_| self.bad("not UTF-8 text".into()))?;
        Ok((bytes, text))
    }

    /// The job file's text as TOML, in the shape of a job file.
    pub(super) fn parse(&self, text: &str) -> Result<JobFile> {
        toml::from_str(text).map_err(|e| {
            let m = crate::input::toml_error(&e, text);
            // `[output]` (one table) where `[[output]]` (a list of them) is meant.
            let single = toml::from_str::<toml::Table>(text)
                .ok()
                .is_some_and(|t| t.get("output").is_some_and(toml::Value::is_table));
            if single {
                self.bad(format!("{m}: write each output as an [[output]] table"))
            } else {
                self.bad(m)
            }
        })
    }

    /// A seed as the job file writes it (a number, `"date"` or `"date+N"`), for the
    /// run's date.
    pub(super) fn seed(&self, v: &toml::Value) -> std::result::Result<u64, String> {
        let spec = date::SeedSpec::from_toml(v, "seed").map_err(|e| e.to_string())?;
        self.draws_on_date(spec.is_dated());
        Ok(spec.seed(self.run_date))
    }

    /// Every `[[output]]` table, checked, in order; no two may write one file.
    pub(super) fn outputs<R: Registry>(
        &self,
        text: &str,
        tables: Vec<toml::Spanned<toml::Table>>,
        job_seed: Option<u64>,
        catalogue: Option<&str>,
    ) -> Result<Vec<Output>> {
        let mut outputs: Vec<Output> = Vec::new();
        let mut written: Vec<(String, String)> = Vec::new();
        for (i, spanned) in tables.into_iter().enumerate() {
            // Errors inside an [[output]] table name the line the table starts on.
            let line = crate::input::line_of(text, spanned.span().start);
            let o = self.output::<R>(i, line, spanned.into_inner(), job_seed, catalogue)?;
            for f in o.files::<R>() {
                if !file_name_ok(&f) {
                    return Err(self.at(line, &o.name, format!("'{f}' is not a plain file name")));
                }
                if let Some((other, _)) = written.iter().find(|(_, g)| *g == f) {
                    return Err(self.bad(format!(
                        "conflicting outputs: '{other}' and '{}' both write {f}",
                        o.name
                    )));
                }
                written.push((o.name.clone(), f));
            }
            outputs.push(o);
        }
        Ok(outputs)
    }

    /// The `i`th `[[output]]` table, starting on `line`: its name, seed and checked
    /// configuration.
    pub(super) fn output<R: Registry>(
        &self,
        i: usize,
        line: usize,
        mut t: toml::Table,
        job_seed: Option<u64>,
        catalogue: Option<&str>,
    ) -> Result<Output> {
        let name = self.output_name(t.remove("name"), i, line)?;
        let at = |m: String| self.at(line, &name, m);
        if !file_name_ok(&name) {
            return Err(at(format!(
                "the name is a file name inside out_dir: no folders, not hidden, no control characters, and none of the names puzzlebook keeps for itself ({})",
                RESERVED.join(", ")
            )));
        }
        let seed = match t.remove("seed") {
            None => job_seed,
            Some(v) => Some(self.seed(&v).map_err(at)?),
        };
        let mut spec = Spec::from_table::<R>(t).map_err(at)?;
        if let Spec::Book(b) = &mut spec {
            self.place_template::<R>(b, catalogue).map_err(at)?;
        }
        let mut config = spec.check::<R>(seed).map_err(|e| at(e.to_string()))?;
        if let Spec::Images(i) = &mut spec {
            i.solutions = config["solutions"] == true;
        }
        if let (Some(c), true) = (catalogue, spec.publishes()) {
            // Drawn past a catalogue: other puzzles than without one.
            config["catalogue"] = json!(c);
        }
        let config_sha256 = manifest::sha256_hex(
            json!({"kind": spec.kind(), "version": crate::VERSION, "config": config})
                .to_string()
                .as_bytes(),
        );
        Ok(Output {
            name,
            seed,
            spec,
            config_sha256,
        })
    }

    /// The `name` of the `i`th output, with the date filled in.
    pub(super) fn output_name(
        &self,
        v: Option<toml::Value>,
        i: usize,
        line: usize,
    ) -> Result<String> {
        match v {
            Some(toml::Value::String(s)) => {
                let named = self.run_date.expand(&s).map_err(|e| {
                    self.bad(format!("line {line}: output {}: the name {e}", i + 1))
                })?;
                self.draws_on_date(named != s);
                Ok(named)
            }
            _ => Err(self.bad(format!(
                "line {line}: output {} has no name = \"FILE\"",
                i + 1
            ))),
        }
    }

    /// A book's template, read relative to the job file; its template may not name a
    /// catalogue the job file does not.
    pub(super) fn place_template<R: Registry>(
        &self,
        b: &mut make::BookSpec,
        catalogue: Option<&str>,
    ) -> std::result::Result<(), String> {
        b.read_from = Some(self.near_job(&b.template));
        let named = crate::book::Template::load::<R>(b.template_path())
            .ok()
            .and_then(|t| t.catalogue);
        if named.is_some() && catalogue.is_none() {
            return Err(format!(
                "its template names a catalogue ({}); a job draws from the catalogue its job file names: add catalogue = \"PATH\" to the job",
                named.unwrap_or_default().display()
            ));
        }
        Ok(())
    }

    /// The output folder (`out_dir` with the date filled in, else
    /// `output/<job file stem>`) and the date folder pattern (see [`Job::date_folder`]);
    /// `keep` needs the date in the last folder of `out_dir`.
    pub(super) fn out_dir(
        &self,
        out_dir: Option<&str>,
        keep: Option<u32>,
    ) -> Result<(PathBuf, Option<String>)> {
        let stem = self
            .path
            .file_stem()
            .map_or("job".into(), |s| s.to_string_lossy().into_owned());
        let mut dir_dated = false;
        let date_folder = out_dir.and_then(|d| {
            let d = d.trim_end_matches('/');
            let (head, last) = d.rsplit_once('/').unwrap_or(("", d));
            let plain = |s: &str| self.run_date.expand(s).is_ok_and(|e| e == s);
            (plain(head) && !plain(last)).then(|| last.to_string())
        });
        if let Some(d) = out_dir.filter(|d| d.chars().any(char::is_control)) {
            return Err(self.bad(format!(
                "out_dir {} has control characters in its name (shown escaped): choose a name without them",
                crate::output::escaped(d)
            )));
        }
        let dir = match out_dir {
            Some(dir) => {
                let expanded = self
                    .run_date
                    .expand(dir)
                    .map_err(|e| self.bad(format!("out_dir {e}")))?;
                dir_dated = expanded != dir;
                self.draws_on_date(dir_dated);
                self.near_job(Path::new(&expanded))
            }
            None => self.near_job(&Path::new("output").join(stem)),
        };
        if keep.is_some() && !dir_dated {
            return Err(self.bad(
                "keep = N removes older date folders, but out_dir has no {date} (or {year}, {month}, {day}, {week}): put one in out_dir".into(),
            ));
        }
        if keep.is_some() && date_folder.is_none() {
            return Err(self.bad(
                "keep = N needs the date in the last folder of out_dir only (e.g. out_dir = \"../feed/{date}\")".into(),
            ));
        }
        Ok((dir, date_folder))
    }

    /// The catalogue's path (`catalogue`, with the date filled in, relative to the job
    /// file's folder), checked.
    pub(super) fn catalogue(&self, c: Option<&str>) -> Result<Option<PathBuf>> {
        let Some(c) = c else {
            return Ok(None);
        };
        let expanded = self
            .run_date
            .expand(c)
            .map_err(|e| self.bad(format!("catalogue {e}")))?;
        if expanded.is_empty() {
            return Err(self.bad("catalogue is empty: name a file".into()));
        }
        if expanded.ends_with('/') {
            return Err(self.bad(format!("catalogue {expanded}: name a file, not a folder")));
        }
        let path = crate::catalogue::normalize(&self.near_job(Path::new(&expanded)));
        crate::catalogue::check_path(&path).map_err(|e| self.bad(e.to_string()))?;
        Ok(Some(path))
    }
}
