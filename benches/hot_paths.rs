//! Benchmarks of the hot paths (run with `cargo bench`; figures in README.md).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use puzzlebook::batch::{self, RunOptions};
use puzzlebook::book::{self, BookOptions, Template};
use puzzlebook::games::flip::{Flip, FlipParams, Shape, Size};
use puzzlebook::games::Games;
use puzzlebook::games::{Game, Outcome, Present};
use puzzlebook::seed::item_rng;
use std::hint::black_box;

fn flip_game(size: usize, shape: Shape) -> Flip {
    Flip::new(FlipParams {
        size: Size {
            rows: size,
            cols: size,
        },
        shape,
        ..FlipParams::default()
    })
    .unwrap()
}

/// One item: draw a random scramble, build the board, prove its minimum.
fn flip_generate_solve(c: &mut Criterion) {
    let mut g = c.benchmark_group("flip_generate_solve");
    g.throughput(Throughput::Elements(1));
    for (size, shape) in [
        (9, Shape::Block),
        (32, Shape::Block),
        (9, Shape::Plus),
        (32, Shape::Plus),
    ] {
        let game = flip_game(size, shape);
        let mut i = 0u64;
        g.bench_function(BenchmarkId::new(shape.name(), size), |b| {
            b.iter(|| {
                i += 1;
                let out = game.generate(&mut item_rng(1, "flip", i));
                black_box(matches!(out, Outcome::Accepted(_)))
            })
        });
    }
    g.finish();
}

/// The pipeline end to end: 10,000 9x9 items with verification, in index order, on all cores.
fn flip_pipeline(c: &mut Criterion) {
    let mut g = c.benchmark_group("flip_pipeline");
    g.sample_size(10);
    g.throughput(Throughput::Elements(10_000));
    let game = flip_game(9, Shape::Block);
    g.bench_function("9x9_10000_items", |b| {
        b.iter(|| {
            let mut n = 0u64;
            batch::run(&game, &RunOptions::default(), 10_000, |item| {
                n += item.puzzle.min_moves as u64;
                Ok(())
            })
            .unwrap();
            black_box(n)
        })
    });
    g.finish();
}

/// A 216-page book: front matter (title, copyright, contents, how to play), 169
/// one-per-page 9x9 boards, the answer key and a notes page to make the count even.
fn pdf_writer(c: &mut Criterion) {
    let template = Template::parse::<Games>(
        "title = \"Benchmark\"\n[[section]]\ngame = \"flip\"\ncount = 169\nper_page = 1\nparams = { size = 9 }\n",
    )
    .unwrap();
    let composed = book::compose::<Games>(&template, &BookOptions::default()).unwrap();
    assert_eq!(composed.pages.len(), 216);
    let mut g = c.benchmark_group("book_216_pages");
    g.sample_size(10);
    g.throughput(Throughput::Elements(216));
    g.bench_function("pdf_write", |b| {
        b.iter(|| {
            black_box(
                book::pdf::render(&composed.meta, &composed.geometry, &composed.pages)
                    .unwrap()
                    .len(),
            )
        })
    });
    // The check every book makes of its own bytes (the same as `puzzlebook preflight`).
    let pdf = composed.render().unwrap().pdf;
    g.bench_function("preflight", |b| {
        b.iter(|| {
            black_box(
                puzzlebook::preflight::check(&pdf, puzzlebook::preflight::Service::Kdp)
                    .unwrap()
                    .problems
                    .len(),
            )
        })
    });
    // The full-wrap cover of those 216 pages, from the laid-out interior.
    g.bench_function("cover", |b| {
        b.iter(|| {
            let (geometry, canvas, _, _) =
                book::cover::compose(&template, &composed, book::template::Paper::White).unwrap();
            black_box(
                book::pdf::render(&composed.meta, &geometry, &[canvas])
                    .unwrap()
                    .len(),
            )
        })
    });
    g.bench_function("generate_layout_write", |b| {
        b.iter(|| {
            black_box(
                book::build::<Games>(&template, &BookOptions::default())
                    .unwrap()
                    .pdf
                    .len(),
            )
        })
    });
    g.finish();
}

/// Catan: one board per sampler (one core), and the bias counting loop on all cores
/// (boards drawn and counted, chi-square cells included).
fn catan(c: &mut Criterion) {
    use puzzlebook::batch::Pipeline;
    use puzzlebook::games::catan::board::BoardKind;
    use puzzlebook::games::catan::rules::Rules;
    use puzzlebook::sampling::bias::Cells;
    use puzzlebook::sampling::bias_stat::count;
    use puzzlebook::sampling::{context, Sampler};
    use puzzlebook::shard::Shard;
    let rules: Rules = "red-apart".parse().unwrap();
    let ctx = context(BoardKind::Base, &rules, Sampler::Direct).unwrap();
    let mut g = c.benchmark_group("catan_board");
    g.throughput(Throughput::Elements(1));
    for s in [
        Sampler::FullRejection,
        Sampler::Direct,
        Sampler::TokenRejection,
        Sampler::Swap,
        Sampler::Sequential,
        Sampler::RetryRestart,
        Sampler::BestOf(10),
    ] {
        let mut i = 0u64;
        g.bench_function(s.name(), |b| {
            b.iter(|| {
                i += 1;
                black_box(
                    ctx.sample(s, &mut item_rng(1, "catan", i))
                        .unwrap()
                        .attempts,
                )
            })
        });
    }
    g.finish();
    // The direct sampler's own loop: a board drawn as sets of places, with the CPU's
    // bit deposit and with the plain-code one (used where pdep is missing or slow, or
    // when asked for: `BitDeposit::Plain`).
    let plan = ctx.plan().unwrap();
    let streams = puzzlebook::seed::Streams::new(1, "catan");
    let mut g = c.benchmark_group("catan_direct_masks");
    g.throughput(Throughput::Elements(1));
    let mut i = 0u64;
    g.bench_function("draw", |b| {
        b.iter(|| {
            i += 1;
            black_box(plan.draw(&mut streams.item(i)).red_set)
        })
    });
    let plain = plan
        .clone()
        .with_deposit(puzzlebook::sampling::BitDeposit::Plain);
    g.bench_function("draw_plain_deposit", |b| {
        b.iter(|| {
            i += 1;
            black_box(plain.draw(&mut streams.item(i)).red_set)
        })
    });
    g.finish();
    let cells = Cells::new(ctx.shape, ctx.table.as_ref().unwrap());
    let mut g = c.benchmark_group("catan_bias_counting");
    g.sample_size(10);
    g.throughput(Throughput::Elements(2_000_000));
    for s in [Sampler::FullRejection, Sampler::Direct] {
        g.bench_function(s.name(), |b| {
            b.iter(|| {
                black_box(
                    count(
                        &Pipeline,
                        &ctx,
                        s,
                        Some(&cells),
                        1,
                        2_000_000,
                        Shard::default(),
                    )
                    .unwrap()
                    .boards,
                )
            })
        });
    }
    g.finish();
}

/// Catan under the fairness rules: one board per exact sampler and rule set (one
/// core), and with fixed hexes. The rates, with each rule set's acceptance, are in
/// docs/games/catan.md.
fn catan_rules(c: &mut Criterion) {
    use puzzlebook::games::catan::board::BoardKind;
    use puzzlebook::games::catan::{fix::Fixes, rules::Rules};
    use puzzlebook::sampling::{context_with, Sampler};
    let mut g = c.benchmark_group("catan_rules");
    g.throughput(Throughput::Elements(1));
    for (rules, fix, samplers) in [
        (
            "red-apart,min-pips-per-corner=5",
            "",
            &[Sampler::FullRejection, Sampler::Direct][..],
        ),
        (
            "red-apart,max-cluster=2",
            "",
            &[Sampler::FullRejection, Sampler::Direct],
        ),
        (
            "red-apart,number-resource-apart",
            "",
            &[Sampler::FullRejection, Sampler::Direct],
        ),
        (
            "red-apart,resource-pips=9-16",
            "",
            &[Sampler::FullRejection, Sampler::Direct],
        ),
        (
            "red-apart,harbor-resource-apart",
            "",
            &[Sampler::FullRejection, Sampler::Direct],
        ),
        ("red-apart", "19=desert", &[Sampler::FullRejection]),
    ] {
        let r: Rules = rules.parse().unwrap();
        let f: Fixes = fix.parse().unwrap();
        for &s in samplers {
            let ctx = context_with(BoardKind::Base, &r, &f, s).unwrap();
            let mut i = 0u64;
            let name = format!(
                "{rules}{}{fix}/{}",
                if fix.is_empty() { "" } else { ",fix " },
                s.name()
            );
            g.bench_function(name, |b| {
                b.iter(|| {
                    i += 1;
                    black_box(
                        ctx.sample(s, &mut item_rng(1, "catan", i))
                            .unwrap()
                            .attempts,
                    )
                })
            });
        }
    }
    g.finish();
}

/// The counted sampler (exact counts of the terrain and token layers): one board per
/// rule set on one core, and counting a rule set's layers. The rates, with each rule
/// set's exact acceptance, are in docs/games/catan.md.
fn catan_counted(c: &mut Criterion) {
    use puzzlebook::games::catan::board::BoardKind;
    use puzzlebook::games::catan::{fix::Fixes, rules::Rules};
    use puzzlebook::sampling::{context_with, layers::Layers, Sampler};
    let t1 = "red-apart,min-pips-per-corner=5,max-cluster=2,number-resource-apart";
    let t2 = format!("{t1},resource-pips=9-16");
    let mut g = c.benchmark_group("catan_counted");
    g.throughput(Throughput::Elements(1));
    for (rules, fix) in [
        ("red-apart", ""),
        ("red-apart,2-12-apart", ""),
        ("red-apart,min-pips-per-corner=5", ""),
        ("max-pips-per-corner=11", ""),
        ("same-terrain-apart", ""),
        ("max-cluster=2", ""),
        ("red-apart,number-resource-apart", ""),
        ("red-apart,resource-pips=9-16", ""),
        ("max-cluster=2,number-resource-apart", ""),
        (t1, ""),
        (t2.as_str(), ""),
        ("red-apart,min-pips-per-corner=5", "19=desert,1=wood:6"),
    ] {
        let r: Rules = rules.parse().unwrap();
        let f: Fixes = fix.parse().unwrap();
        let ctx = context_with(BoardKind::Base, &r, &f, Sampler::Counted).unwrap();
        let mut i = 0u64;
        let name = format!("{rules}{}{fix}", if fix.is_empty() { "" } else { ",fix " });
        g.bench_function(name, |b| {
            b.iter(|| {
                i += 1;
                black_box(
                    ctx.sample(Sampler::Counted, &mut item_rng(1, "catan", i))
                        .unwrap()
                        .attempts,
                )
            })
        });
    }
    g.finish();
    let mut g = c.benchmark_group("catan_count");
    g.sample_size(10);
    for rules in [
        "red-apart,2-12-apart",
        "red-apart,min-pips-per-corner=5",
        "same-terrain-apart",
    ] {
        let r: Rules = rules.parse().unwrap();
        g.bench_function(rules, |b| {
            b.iter(|| {
                black_box(
                    Layers::build(BoardKind::Base, &r, &Fixes::default())
                        .unwrap()
                        .count(),
                )
            })
        });
    }
    g.finish();
}

/// `catan stats`: one board drawn, measured and counted into the histograms (one
/// core), and the whole counting loop of 200,000 boards on all cores, for each exact
/// sampler.
fn catan_stats(c: &mut Criterion) {
    use puzzlebook::games::catan::board::BoardKind;
    use puzzlebook::games::catan::rules::Rules;
    use puzzlebook::games::catan::stats::{BalanceStudy, Hists};
    use puzzlebook::sampling::{context, Sampler};
    use puzzlebook::shard::Shard;
    use puzzlebook::stats::Study;
    let rules: Rules = "red-apart".parse().unwrap();
    let ctx = context(BoardKind::Base, &rules, Sampler::Direct).unwrap();
    let mut g = c.benchmark_group("catan_stats");
    g.throughput(Throughput::Elements(1));
    for s in [Sampler::Direct, Sampler::FullRejection] {
        let study = BalanceStudy::new(&ctx, s, 1);
        let mut h = Hists::default();
        let mut i = 0u64;
        g.bench_function(format!("one_board_{}", s.name()), |b| {
            b.iter(|| {
                i += 1;
                study.count(i, &mut h).unwrap();
                black_box(h.boards)
            })
        });
    }
    g.sample_size(10);
    g.throughput(Throughput::Elements(200_000));
    for s in [Sampler::Direct, Sampler::FullRejection] {
        let study = BalanceStudy::new(&ctx, s, 1);
        g.bench_function(format!("count_200k_{}", s.name()), |b| {
            b.iter(|| {
                let h =
                    puzzlebook::batch::study(&study, 200_000, Shard::default(), false, "").unwrap();
                black_box(h.boards)
            })
        });
    }
    g.finish();
}

/// Numbrix: one backbite path, the uniqueness proof of published-style 9x9 puzzles
/// (16-28 givens), and one minimal 9x9 puzzle end to end.
fn numbrix(c: &mut Criterion) {
    use puzzlebook::games::numbrix::{clues, path::PathSampler, AnySolver, Numbrix, NumbrixParams};
    let sampler = PathSampler::new(9, 9);
    let mut g = c.benchmark_group("numbrix");
    g.throughput(Throughput::Elements(1));
    let mut i = 0u64;
    g.bench_function("path_9x9", |b| {
        b.iter(|| {
            i += 1;
            black_box(sampler.sample(&mut item_rng(1, "numbrix-bench", i))[0])
        })
    });
    let game = Numbrix::new(NumbrixParams::default()).unwrap();
    for target in [16usize, 20, 24, 28] {
        let puzzles: Vec<Vec<u16>> = (0..64)
            .filter_map(|i| {
                let mut rng = item_rng(target as u64, "numbrix-timing", i);
                match game.generate(&mut rng) {
                    Outcome::Accepted(p) => {
                        let mut givens = p.givens_flat();
                        clues::add_clues(&mut givens, &p.solution_flat(), target, &mut rng);
                        Some(givens)
                    }
                    Outcome::Rejected(_) => None,
                }
            })
            .collect();
        let mut solver = AnySolver::new(9, 9);
        let mut k = 0;
        g.bench_function(BenchmarkId::new("prove_9x9_givens", target), |b| {
            b.iter(|| {
                k = (k + 1) % puzzles.len();
                black_box(solver.solve(&puzzles[k], u64::MAX).count)
            })
        });
    }
    g.sample_size(20);
    // One minimal puzzle end to end, items 1, 2, 3, ... of seed 1.
    let generate = |g: &mut criterion::BenchmarkGroup<_>, name: &str, game: &Numbrix| {
        let mut i = 0u64;
        g.bench_function(name, |b| {
            b.iter(|| {
                i += 1;
                black_box(matches!(
                    game.generate(&mut item_rng(1, "numbrix", i)),
                    Outcome::Accepted(_)
                ))
            })
        });
    };
    generate(&mut g, "generate_minimal_9x9", &game);
    // Hidato (king moves) and a shaped grid, 9x9.
    let other = |moves: &str, shape: Option<&str>| {
        Numbrix::new(NumbrixParams {
            moves: moves.parse().unwrap(),
            shape: shape.map(str::to_string),
            ..NumbrixParams::default()
        })
        .unwrap()
    };
    generate(&mut g, "generate_minimal_king_9x9", &other("king", None));
    generate(
        &mut g,
        "generate_minimal_frame_9x9",
        &other("orthogonal", Some("frame")),
    );
    generate(
        &mut g,
        "generate_minimal_king_heart_9x9",
        &other("king", Some("heart")),
    );
    // One minimal 12x12 and one 16x16 puzzle (about 0.2 s and 1 s on one core: ten
    // flat samples each; `cargo run --release --example numbrix_sizes` times the
    // three sizes side by side).
    g.sample_size(10);
    g.sampling_mode(criterion::SamplingMode::Flat);
    for size in [12, 16] {
        let mut params = NumbrixParams::default();
        params.size.rows = size;
        params.size.cols = size;
        generate(
            &mut g,
            &format!("generate_minimal_{size}x{size}"),
            &Numbrix::new(params).unwrap(),
        );
    }
    g.finish();
}

/// Number Match: deciding 256 random 27-digit boards (the first 256 of seed 1,
/// every one decided) with 1 and with 4 adds, and one Monte Carlo playout.
fn number_match(c: &mut Criterion) {
    use puzzlebook::games::number_match::{montecarlo, stats, Append, Rules, Solver, Verdict};
    let rules = Rules {
        cols: 9,
        diagonals: true,
        append: Append::AfterLastDigit,
    };
    let boards: Vec<Vec<u8>> = (0..256).map(|i| stats::board(1, 27, i)).collect();
    let mut g = c.benchmark_group("number_match");
    g.throughput(Throughput::Elements(boards.len() as u64));
    g.sample_size(20);
    for adds in [1u8, 4] {
        let mut solver = Solver::new(rules);
        g.bench_function(BenchmarkId::new("decide_256_boards_adds", adds), |b| {
            b.iter(|| {
                let mut solved = 0;
                for board in &boards {
                    solver.reset();
                    match solver.solve(board, adds, 50_000_000) {
                        Verdict::Solvable(_) => solved += 1,
                        Verdict::Unsolvable => {}
                        Verdict::Unknown => panic!("undecided board in the benchmark set"),
                    }
                }
                black_box(solved)
            })
        });
    }
    g.throughput(Throughput::Elements(1));
    let mut i = 0u64;
    g.bench_function("monte_carlo_playout_adds_1", |b| {
        b.iter(|| {
            i += 1;
            let board = &boards[(i % 256) as usize];
            black_box(montecarlo::playout(&rules, board, 1, &mut item_rng(1, "mc", i)).is_some())
        })
    });
    g.finish();
}

/// Carcassonne: scoring a 72-tile landscape, and making one (placement and score).
fn carcassonne(c: &mut Criterion) {
    use puzzlebook::games::carcassonne::{generate, score};
    let landscapes: Vec<_> = (0..64)
        .map(|i| generate::landscape(72, &mut item_rng(1, "carcassonne", i)).landscape)
        .collect();
    let mut g = c.benchmark_group("carcassonne");
    g.throughput(Throughput::Elements(1));
    let mut k = 0;
    g.bench_function("score_72_tiles", |b| {
        b.iter(|| {
            k = (k + 1) % landscapes.len();
            black_box(score(&landscapes[k]).total())
        })
    });
    let mut i = 0u64;
    g.bench_function("generate_72_tiles", |b| {
        b.iter(|| {
            i += 1;
            black_box(generate::landscape(72, &mut item_rng(1, "carcassonne", i)).discarded)
        })
    });
    g.finish();
}

/// Merging shards: 4 part files of 5,000 Flip records each into one JSON Lines file
/// (the merge step of a sharded run; it reads, checks and writes every record).
fn batch_merge(c: &mut Criterion) {
    use puzzlebook::jobs::make::{self, Dest, Env, ItemFormat, StatsFiles};
    use puzzlebook::shard::Shard;
    let dir = tempfile::tempdir().unwrap();
    let game = flip_game(5, Shape::Block);
    let n = 20_000u64;
    let parts: Vec<std::path::PathBuf> = (0..4)
        .map(|k| {
            let path = dir.path().join(format!("p{k}"));
            let shard = Shard { index: k, count: 4 };
            let dest = Dest::File(path.clone());
            let env = Env::default();
            let run = make::ItemsRun {
                seed: 1,
                first: 0,
                count: n,
                format: ItemFormat::Jsonl,
                shard,
                part: Some(None),
                dest: &dest,
                env: &env,
                fresh: None,
            };
            make::items(&game, game.params(), run).unwrap();
            path
        })
        .collect();
    let out = StatsFiles::single(dir.path().join("merged.jsonl"));
    let mut g = c.benchmark_group("batch");
    g.throughput(Throughput::Elements(n));
    g.sample_size(10);
    g.bench_function("merge_4_parts_20000_records", |b| {
        b.iter(|| black_box(make::merge::<Games>(&parts, &out).unwrap().made.items))
    });
    g.finish();
}

/// One puzzle as a picture: a 9x9 Numbrix solution (81 numbers, so mostly glyphs)
/// drawn, sized and written as SVG, and as a 300 dpi PNG (SVG, rasterised, encoded).
fn images(c: &mut Criterion) {
    use puzzlebook::games::numbrix::{Numbrix, NumbrixParams};
    use puzzlebook::svg::Picture;
    let game = Numbrix::new(NumbrixParams::default()).unwrap();
    let mut item = None;
    batch::run(&game, &RunOptions::default(), 1, |i| {
        item = Some(i.puzzle);
        Ok(())
    })
    .unwrap();
    let puzzle = item.unwrap();
    let picture = || {
        Picture::sized(game.aspect(), |canvas, area| {
            game.draw(&puzzle, canvas, area, true)
        })
    };
    let mut g = c.benchmark_group("images");
    g.throughput(Throughput::Elements(1));
    g.bench_function("numbrix_solution_svg", |b| {
        b.iter(|| black_box(picture().svg().len()))
    });
    g.sample_size(20);
    g.bench_function("numbrix_solution_png_300dpi", |b| {
        b.iter(|| black_box(picture().png(300).unwrap().len()))
    });
    g.finish();
}

criterion_group!(
    benches,
    batch_merge,
    carcassonne,
    number_match,
    numbrix,
    flip_generate_solve,
    flip_pipeline,
    pdf_writer,
    catan,
    catan_rules,
    catan_counted,
    catan_stats,
    images
);
criterion_main!(benches);
