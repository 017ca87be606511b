//! The pipeline: fan items out over a rayon pool, each from its own seeded stream,
//! and hand them back in index order, with a progress bar and a tally of rejections.
//!
//! Work is cut into chunks of indices: a chunk is generated in parallel, then its
//! items are passed to the sink in order before the next chunk starts, so memory stays
//! bounded however many items a run makes.

use crate::game::{Game, Outcome};
use crate::seed::item_rng;
use crate::stats::{Study, Tally};
use crate::{Error, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use serde::Serialize;
use std::time::{Duration, Instant};

/// Items generated in parallel before they are handed on in order.
const CHUNK: usize = 4096;

use crate::shard::Shard;

/// How to run parallel work: the threads and whether to show progress (the part every
/// kind of run shares; [`RunOptions`] adds what item generation needs).
#[derive(Debug, Clone, Default)]
pub struct Env {
    /// Worker threads; 0 means one per core.
    pub jobs: usize,
    /// Show a progress bar on standard error.
    pub progress: bool,
}

/// How to run a batch.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// Master seed of the run; each item draws from its own stream derived from it.
    pub seed: u64,
    /// Threads and progress.
    pub env: Env,
    /// Attempts per item before the run gives up with an error.
    pub max_attempts: u64,
    /// Which part of the index range this run makes (the whole range by default).
    pub shard: Shard,
    /// The first item index (to regenerate one item of a larger run).
    pub first: u64,
    /// A label for the progress bar.
    pub label: String,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            seed: crate::seed::DEFAULT_SEED,
            env: Env::default(),
            max_attempts: 100_000,
            shard: Shard::default(),
            first: 0,
            label: String::new(),
        }
    }
}

/// One generated item.
#[derive(Debug, Clone)]
pub struct Item<P> {
    /// Index of the item in the run (its stream is derived from the seed and this).
    pub index: u64,
    /// Attempts it took (1 = the first was accepted).
    pub attempts: u64,
    /// The accepted, verified puzzle.
    pub puzzle: P,
}

/// The JSON Lines record of an item: game, index and seed, then the game's fields.
#[derive(Serialize)]
pub struct Record<'a, P: Serialize> {
    /// Name of the game, as on the command line.
    pub game: &'static str,
    /// Index of the item in the run.
    pub index: u64,
    /// Master seed of the run (with `game` and `index` it regenerates the item).
    pub seed: u64,
    /// The puzzle, whose fields are written inline after the three above.
    #[serde(flatten)]
    pub puzzle: &'a P,
}

/// What a run did.
#[derive(Debug, Clone, Default)]
pub struct RunSummary {
    /// Items made (accepted and verified).
    pub items: u64,
    /// Generation attempts over all items, accepted ones included.
    pub attempts: u64,
    /// Rejected attempts, counted by reason.
    pub rejections: Tally,
    /// Wall-clock time of the run.
    pub elapsed: Duration,
}

/// Generate item `index`: attempts from its own stream until one is accepted, then
/// check it with the game's independent verifier.
pub(crate) fn generate_item<G: Game>(
    game: &G,
    seed: u64,
    index: u64,
    max_attempts: u64,
) -> Result<(Item<G::Puzzle>, Tally)> {
    let mut rng = item_rng(seed, G::NAME, index);
    let mut rejections = Tally::default();
    let max_attempts = max_attempts.min(game.attempt_budget());
    for attempt in 1..=max_attempts {
        // Checked before and after every attempt: a stop is seen within one attempt
        // (games' long searches also look at the flag and give up early), and an
        // attempt cut short by a stop is never taken for a finished item.
        crate::interrupt::check()?;
        let outcome = game.generate(&mut rng);
        crate::interrupt::check()?;
        match outcome {
            Outcome::Accepted(puzzle) => {
                let verdict = game.verify(&puzzle);
                // A verifier cut short by a stop proves nothing either way.
                crate::interrupt::check()?;
                verdict.map_err(|why| {
                    Error::Check(format!(
                        "{} item {index} (seed {seed}) failed its independent check: {why}; this is a bug, please report it",
                        G::NAME
                    ))
                })?;
                let item = Item {
                    index,
                    attempts: attempt,
                    puzzle,
                };
                return Ok((item, rejections));
            }
            Outcome::Rejected(why) => rejections.add(why, 1),
        }
    }
    Err(Error::Generation(format!(
        "{} item {index}: every one of {max_attempts} attempts was rejected ({rejections}); relax the parameters",
        G::NAME
    )))
}

fn progress_bar(opts: &RunOptions, total: u64) -> ProgressBar {
    bar(opts.env.progress, &opts.label, total)
}

/// The one progress bar of every run (hidden unless `show`).
fn bar(show: bool, label: &str, total: u64) -> ProgressBar {
    if !show {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(
            "{prefix} [{bar:32}] {human_pos}/{human_len} elapsed {elapsed} eta {eta}",
        )
        .expect("valid template")
        .progress_chars("=> "),
    );
    bar.set_prefix(label.to_string());
    bar
}

/// Build the thread pool for `jobs` threads (0: one per core).
pub fn thread_pool(jobs: usize) -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| Error::invalid(format!("cannot start {jobs} worker threads: {e}")))
}

/// The workers of one run: a pool of its own, or the pool the caller already runs on
/// when that has exactly the threads asked for (each section of a book is a run inside
/// the book's pool). A pool a run made for itself would start threads, and the C
/// library's memory arena for each, while the last run's were still winding down: under
/// a tight address-space limit that could fail an allocation.
struct Workers(Option<rayon::ThreadPool>);

impl Workers {
    fn new(jobs: usize) -> Result<Workers> {
        // `-j 0` asks for one thread per core.
        let wanted = match jobs {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        };
        let on_such_a_pool =
            rayon::current_thread_index().is_some() && rayon::current_num_threads() == wanted;
        Ok(Workers(if on_such_a_pool {
            None
        } else {
            Some(thread_pool(jobs)?)
        }))
    }

    fn install<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
        match &self.0 {
            Some(pool) => pool.install(f),
            None => f(),
        }
    }

    fn current_num_threads(&self) -> usize {
        match &self.0 {
            Some(pool) => pool.current_num_threads(),
            None => rayon::current_num_threads(),
        }
    }
}

/// Generate items `first .. first + count` of this shard, passing each to `sink` in
/// index order.
pub fn run<G, F>(game: &G, opts: &RunOptions, count: u64, sink: F) -> Result<RunSummary>
where
    G: Game,
    F: FnMut(Item<G::Puzzle>) -> Result<()>,
{
    run_map(game, opts, count, Ok, sink)
}

/// Like [`run`], but each item first goes through `map` on the worker threads (for
/// example to serialise it), and `sink` receives the mapped values in index order.
pub fn run_map<G, T, M, F>(
    game: &G,
    opts: &RunOptions,
    count: u64,
    map: M,
    mut sink: F,
) -> Result<RunSummary>
where
    G: Game,
    T: Send,
    M: Fn(Item<G::Puzzle>) -> Result<T> + Sync,
    F: FnMut(T) -> Result<()>,
{
    let started = Instant::now();
    let pool = Workers::new(opts.env.jobs)?;
    // Indices are taken a chunk at a time, so memory does not grow with the count.
    let mut indices = opts.shard.indices(opts.first, count);
    let bar = progress_bar(opts, opts.shard.len(opts.first, count));
    let mut summary = RunSummary::default();
    loop {
        let chunk: Vec<u64> = indices.by_ref().take(CHUNK).collect();
        if chunk.is_empty() {
            break;
        }
        crate::interrupt::check()?;
        let results: Vec<Result<(T, u64, Tally)>> = pool.install(|| {
            chunk
                .par_iter()
                .map(|&i| {
                    let (item, rejections) = generate_item(game, opts.seed, i, opts.max_attempts)?;
                    let attempts = item.attempts;
                    let mapped = map(item)?;
                    bar.inc(1);
                    crate::progress::add(1);
                    Ok((mapped, attempts, rejections))
                })
                .collect()
        });
        for r in results {
            let (mapped, attempts, rejections) = r?;
            summary.items += 1;
            summary.attempts += attempts;
            summary.rejections.merge(&rejections);
            sink(mapped)?;
        }
    }
    bar.finish_and_clear();
    summary.elapsed = started.elapsed();
    Ok(summary)
}

/// Count a [`Study`] over this shard's items among `0..samples`, on the current rayon
/// pool (install one from [`thread_pool`] to choose the threads), with a progress bar
/// labelled `label` when `show_progress`.
///
/// This is the one parallel reduce behind every statistic: the indices are cut into
/// chunks of [`Study::chunk`] items, walked lazily (memory does not grow with
/// `samples`), each chunk counted into fresh counts and the counts merged. The counts
/// are sums, so they are the same in any order and at any thread count. A stop
/// request (see [`crate::interrupt`]) is seen before every chunk, and by the study
/// within one (before each item, by default): the run ends with
/// [`Error::Interrupted`] and no counts.
///
/// ```
/// use puzzlebook_ground::{batch, shard::Shard, stats::Study, Result};
///
/// /// Counts the multiples of 7 among the items' indices.
/// struct Sevens;
/// impl Study for Sevens {
///     type Counts = u64;
///     fn chunk(&self) -> u64 {
///         100 // small chunks, so that two threads share the work
///     }
///     fn empty(&self) -> u64 {
///         0
///     }
///     fn merge(&self, into: &mut u64, other: u64) {
///         *into += other;
///     }
///     fn count(&self, index: u64, counts: &mut u64) -> Result<()> {
///         *counts += u64::from(index % 7 == 0);
///         Ok(())
///     }
/// }
///
/// # fn main() -> Result<()> {
/// // On a pool of two threads, with no progress bar.
/// let pool = batch::thread_pool(2)?;
/// let n = pool.install(|| batch::study(&Sevens, 10_000, Shard::default(), false, "sevens"))?;
/// assert_eq!(n, 1429); // 0, 7, ..., 9996
/// # Ok(())
/// # }
/// ```
pub fn study<S: Study>(
    study: &S,
    samples: u64,
    shard: Shard,
    show_progress: bool,
    label: &str,
) -> Result<S::Counts> {
    let chunk = study.chunk().max(1);
    let bar = bar(show_progress, label, shard.len(0, samples));
    let counts = (0..samples.div_ceil(chunk))
        .into_par_iter()
        .map(|c| {
            crate::interrupt::check()?;
            let start = c * chunk;
            let len = chunk.min(samples - start);
            let mut counts = study.empty();
            study.count_chunk(shard.indices(start, len), &mut counts)?;
            let done = shard.len(start, len);
            bar.inc(done);
            crate::progress::add(done);
            Ok(counts)
        })
        .try_reduce(
            || study.empty(),
            |mut a, b| {
                study.merge(&mut a, b);
                Ok(a)
            },
        );
    bar.finish_and_clear();
    // A study cut short by a stop request may have given up quietly: its counts are
    // never taken for a finished run's.
    crate::interrupt::check()?;
    counts
}

/// Generate and keep every item (for books and tests).
pub fn collect<G: Game>(
    game: &G,
    opts: &RunOptions,
    count: u64,
) -> Result<(Vec<Item<G::Puzzle>>, RunSummary)> {
    let mut items = Vec::with_capacity(count.min(1 << 20) as usize);
    let summary = run(game, opts, count, |item| {
        items.push(item);
        Ok(())
    })?;
    Ok((items, summary))
}

/// Draws a run past a catalogue may make for each item it asks for (besides
/// [`FRESH_EXTRA_DRAWS`]): a pool with fewer new puzzles than that is called dry
/// rather than searched for ever.
pub(crate) const FRESH_DRAWS_PER_ITEM: u64 = 50;
/// Draws a run past a catalogue may make besides [`FRESH_DRAWS_PER_ITEM`] per item.
pub(crate) const FRESH_EXTRA_DRAWS: u64 = 1000;

/// The puzzles a run drawing past a catalogue kept: fingerprint and item index, in
/// order.
pub(crate) type Taken = Vec<(crate::catalogue::Fingerprint, u64)>;

/// One drawn item with its fingerprint and rejections.
type Drawn<P> = Result<(crate::catalogue::Fingerprint, Item<P>, Tally)>;

/// Like [`run_map`], but only puzzles not in `seen` are kept: indices `first`,
/// `first + 1`, ... are drawn in order and a puzzle whose fingerprint
/// ([`Game::canonical`]) is in `seen`, or was drawn earlier in this run, is passed
/// over, until `count` new puzzles are kept. What is kept depends only on the seed and
/// `seen`, never on the thread count. Each kept puzzle's fingerprint goes into `seen`
/// and, with its index, into the returned list. Once `count * FRESH_DRAWS_PER_ITEM +
/// FRESH_EXTRA_DRAWS` draws have been made the pool is dry: an error with the counts.
/// Whole runs only (a shard cannot know what the shards before it kept).
pub fn run_map_fresh<G, T, M, F>(
    game: &G,
    opts: &RunOptions,
    count: u64,
    seen: &mut crate::catalogue::Seen,
    map: M,
    mut sink: F,
) -> Result<(RunSummary, Taken)>
where
    G: Game,
    T: Send,
    M: Fn(Item<G::Puzzle>) -> Result<T> + Sync,
    F: FnMut(T) -> Result<()>,
{
    if opts.shard != Shard::default() {
        return Err(Error::invalid(
            "puzzles drawn past a catalogue are chosen in order: make them in one run, not in shards",
        ));
    }
    let started = Instant::now();
    let pool = Workers::new(opts.env.jobs)?;
    let max_draws = count
        .saturating_mul(FRESH_DRAWS_PER_ITEM)
        .saturating_add(FRESH_EXTRA_DRAWS);
    let before = seen.len();
    let bar = progress_bar(opts, count);
    let mut summary = RunSummary::default();
    let mut taken = Vec::with_capacity(count.min(1 << 20) as usize);
    let (mut next, mut draws, mut passed) = (opts.first, 0u64, 0u64);
    while (taken.len() as u64) < count {
        crate::interrupt::check()?;
        if draws >= max_draws {
            return Err(Error::Generation(format!(
                "{}: the pool ran dry: {} of {count} new puzzles after {draws} draws ({passed} were published before (in the catalogue, an earlier output or an earlier volume) or drawn twice; {before} puzzles of all games to draw past): ask for fewer, or change the parameters",
                G::NAME,
                taken.len()
            )));
        }
        // As many as are still wanted (at least one per thread), never past the limit.
        let want = count - taken.len() as u64;
        let size = want
            .max(pool.current_num_threads() as u64)
            .min(CHUNK as u64)
            .min(max_draws - draws);
        let chunk: Vec<u64> = (0..size).map(|k| next + k).collect();
        crate::shard::check_range(next, size)?;
        let results: Vec<Drawn<G::Puzzle>> = pool.install(|| {
            chunk
                .par_iter()
                .map(|&i| {
                    let (item, rejections) = generate_item(game, opts.seed, i, opts.max_attempts)?;
                    let f = crate::catalogue::fingerprint(G::NAME, &game.canonical(&item.puzzle));
                    Ok((f, item, rejections))
                })
                .collect()
        });
        for r in results {
            let (f, item, rejections) = r?;
            draws += 1;
            next = item.index + 1;
            summary.attempts += item.attempts;
            summary.rejections.merge(&rejections);
            if !seen.take(f) {
                passed += 1;
                continue;
            }
            taken.push((f, item.index));
            summary.items += 1;
            bar.inc(1);
            crate::progress::add(1);
            sink(map(item)?)?;
            if taken.len() as u64 == count {
                break;
            }
        }
    }
    bar.finish_and_clear();
    summary.elapsed = started.elapsed();
    Ok((summary, taken))
}

/// [`run_map_fresh`] collecting the items.
pub fn collect_fresh<G: Game>(
    game: &G,
    opts: &RunOptions,
    count: u64,
    seen: &mut crate::catalogue::Seen,
) -> Result<(Vec<Item<G::Puzzle>>, Taken)> {
    let mut items = Vec::with_capacity(count.min(1 << 20) as usize);
    let (_, taken) = run_map_fresh(game, opts, count, seen, Ok, |item| {
        items.push(item);
        Ok(())
    })?;
    Ok((items, taken))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shard::ShardIndices;

    /// Counts how many indices it saw and their sum, in chunks of 7.
    struct Sum;

    impl Study for Sum {
        type Counts = (u64, u64);
        fn chunk(&self) -> u64 {
            7
        }
        fn empty(&self) -> (u64, u64) {
            (0, 0)
        }
        fn merge(&self, into: &mut (u64, u64), other: (u64, u64)) {
            into.0 += other.0;
            into.1 += other.1;
        }
        fn count(&self, i: u64, c: &mut (u64, u64)) -> Result<()> {
            c.0 += 1;
            c.1 += i;
            Ok(())
        }
    }

    /// Like [`Sum`], but counting whole chunks at once through the chunk hook.
    struct ChunkSum;

    impl Study for ChunkSum {
        type Counts = (u64, u64);
        fn chunk(&self) -> u64 {
            5
        }
        fn empty(&self) -> (u64, u64) {
            (0, 0)
        }
        fn merge(&self, into: &mut (u64, u64), other: (u64, u64)) {
            Sum.merge(into, other)
        }
        fn count(&self, i: u64, c: &mut (u64, u64)) -> Result<()> {
            Sum.count(i, c)
        }
        fn count_chunk(&self, indices: ShardIndices, c: &mut (u64, u64)) -> Result<()> {
            let v: Vec<u64> = indices.collect();
            c.0 += v.len() as u64;
            c.1 += v.iter().sum::<u64>();
            Ok(())
        }
    }

    #[test]
    fn a_study_counts_every_index_of_its_shard_once_at_any_thread_count() {
        for samples in [0u64, 1, 6, 7, 8, 100] {
            let whole = (samples, (0..samples).sum::<u64>());
            for jobs in [1, 3] {
                let pool = thread_pool(jobs).unwrap();
                let run = |shard| {
                    pool.install(|| {
                        (
                            study(&Sum, samples, shard, false, "").unwrap(),
                            study(&ChunkSum, samples, shard, false, "").unwrap(),
                        )
                    })
                };
                assert_eq!(run(Shard::default()), (whole, whole));
                for n in [2u64, 3] {
                    let mut merged = Sum.empty();
                    for k in 0..n {
                        let (a, b) = run(Shard { index: k, count: n });
                        assert_eq!(a, b);
                        Sum.merge(&mut merged, a);
                    }
                    assert_eq!(merged, whole, "samples {samples}, {n} shards");
                }
            }
        }
    }
}

/// The pipeline as a [`crate::statistic::Runner`]: a game's statistics count
/// through [`study`] on the current rayon pool.
#[derive(Debug, Clone, Copy, Default)]
pub struct Pipeline;

impl crate::statistic::Runner for Pipeline {
    fn study<S: Study>(
        &self,
        s: &S,
        samples: u64,
        shard: Shard,
        progress: bool,
        label: &str,
    ) -> Result<S::Counts> {
        study(s, samples, shard, progress, label)
    }
}
