//! What a whole run publishes past a catalogue: the pool of puzzles taken, committed to
//! the catalogue once every output is made, and `published.txt`.

use super::*;

/// A whole run's draw from its job's catalogue: the catalogue (locked), the
/// fingerprints to draw past, and what each output published (`published.txt` in the
/// output folder, sealed, kept until the whole run is done).
pub(super) struct Pool {
    pub(super) catalogue: crate::catalogue::Catalogue,
    pub(super) seen: crate::catalogue::Seen,
    /// `published.txt`.
    pub(super) path: PathBuf,
    /// Its entries, in job order.
    pub(super) entries: Vec<crate::catalogue::Entry>,
    /// `JOB-STEM/`: where this job's entries say they come from (for people).
    pub(super) prefix: String,
    /// Who made each publishing output's entries (see [`Output::maker`]).
    pub(super) makers: Vec<(String, crate::catalogue::Maker)>,
    pub(super) date: String,
}

impl Output {
    /// Who makes this output's puzzles, as its catalogue entries say: the job file
    /// (its absolute path), the output's name and its configuration (kind, parameters,
    /// seed, version). Two jobs of one file name, or one job whose output changed, never
    /// take each other's entries for their own.
    pub(super) fn maker(&self, job: &Job) -> crate::catalogue::Maker {
        crate::catalogue::maker(&[
            "job",
            &job.canonical.to_string_lossy(),
            &self.name,
            &self.config_sha256,
        ])
    }
}

impl Pool {
    pub(super) fn open<R: Registry>(job: &Job, path: &Path, dir: &Path) -> Result<Pool> {
        let stem = job
            .path
            .file_stem()
            .map_or("job".into(), |s| s.to_string_lossy().into_owned());
        let prefix = format!("{stem}/");
        let date = job.date.clone().unwrap_or_else(|| "-".into());
        let makers: Vec<(String, crate::catalogue::Maker)> = job
            .outputs
            .iter()
            .filter(|o| o.spec.publishes())
            .map(|o| (o.name.clone(), o.maker(job)))
            .collect();
        let ours = |date_of: &str, maker: Option<crate::catalogue::Maker>| {
            date_of == date && maker.is_some_and(|m| makers.iter().any(|(_, k)| *k == m))
        };
        let catalogue =
            crate::catalogue::Catalogue::open(path, R::GAMES, |e| ours(e.date, e.maker))?;
        let adding: u64 = job
            .outputs
            .iter()
            .map(|o| o.spec.publishes_at_most::<R>())
            .sum();
        catalogue.check_room(adding)?;
        let seen = catalogue.seen();
        let published = dir.join(PUBLISHED);
        // What an earlier, unfinished run of this date recorded (outputs of the job
        // only, at most what they publish), when puzzlebook wrote it.
        let mut entries = Vec::new();
        if published.exists() && published_is_ours(&published)? {
            let mut kept = 0u64;
            crate::catalogue::read_lines(&published, R::GAMES, |e| {
                if ours(e.date, e.maker) && kept < adding {
                    kept += 1;
                    entries.push(e.to_entry());
                }
                Ok(())
            })
            .ok();
        }
        Ok(Pool {
            catalogue,
            seen,
            path: published,
            entries,
            prefix,
            makers,
            date,
        })
    }

    pub(super) fn maker_of(&self, o: &Output) -> Option<crate::catalogue::Maker> {
        self.makers.iter().find(|(n, _)| *n == o.name).map(|m| m.1)
    }

    pub(super) fn mine<'a>(
        &'a self,
        o: &Output,
    ) -> impl Iterator<Item = &'a crate::catalogue::Entry> {
        let maker = self.maker_of(o);
        self.entries
            .iter()
            .filter(move |e| maker.is_some() && e.maker == maker)
    }

    /// Whether published.txt holds the `items` puzzles of a made output.
    pub(super) fn holds(&self, o: &Output, items: Option<u64>) -> bool {
        items.is_some_and(|n| self.mine(o).count() as u64 == n)
    }

    /// How many of an output's recorded puzzles are now taken: published by another
    /// run, or by an earlier output of this one.
    pub(super) fn collisions(&self, o: &Output) -> usize {
        self.mine(o)
            .filter(|e| self.seen.contains(&e.fingerprint))
            .count()
    }

    /// An output already made: later outputs draw past its puzzles.
    pub(super) fn draw_past(&mut self, o: &Output) {
        let fs: Vec<_> = self.mine(o).map(|e| e.fingerprint).collect();
        for f in fs {
            self.seen.take(f);
        }
    }

    /// Record what an output published (published.txt is rewritten whole, sealed).
    pub(super) fn record(
        &mut self,
        o: &Output,
        published: &[crate::catalogue::Published],
    ) -> Result<()> {
        let maker = self.maker_of(o);
        self.entries.retain(|e| e.maker != maker || maker.is_none());
        let own = format!("{}{}#", self.prefix, o.name);
        self.entries
            .extend(published.iter().map(|p| crate::catalogue::Entry {
                fingerprint: p.fingerprint,
                game: p.game,
                date: self.date.clone(),
                source: format!("{own}{}", p.place),
                maker,
            }));
        let mut text = String::from(PUBLISHED_HEADER);
        for e in &self.entries {
            text += &e.line();
        }
        let sealed = crate::output::seal::text(&text, crate::output::seal::HASH_COMMENT);
        crate::output::write_atomic(&self.path, sealed.as_bytes())
    }

    /// Add everything the run published to the catalogue: (added, already there).
    pub(super) fn commit(&mut self) -> Result<(usize, usize)> {
        let added = self.catalogue.add(&self.entries)?;
        Ok((added, self.entries.len() - added))
    }
}

/// Whether `published.txt` at `path` is one this version wrote, unchanged (its seal).
pub(crate) fn published_is_ours(path: &Path) -> Result<bool> {
    crate::output::seal::text_file_ok(
        path,
        crate::output::seal::HASH_COMMENT,
        index::MAX_PUBLISHED_BYTES,
    )
}

/// The first line of `published.txt`.
pub(crate) const PUBLISHED_HEADER: &str = "# The puzzles this run published, as the catalogue lists them (added to it once every output is made).\n";

/// The file in an output folder that lists what a run drawing past a catalogue
/// published.
pub(crate) const PUBLISHED: &str = "published.txt";
