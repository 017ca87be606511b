//! A stop request (Ctrl-C) ends every long Catan call within a fraction of a second,
//! with an error and never with a board or counts. The stop flag is global and stays
//! set, so this file holds one test.

use puzzlebook::games::catan::board::BoardKind;
use puzzlebook::sampling::{bias, context};
use puzzlebook::sampling::{Ctx, Sampler};
use puzzlebook::seed::item_rng;
use puzzlebook::shard::Shard;
use std::sync::mpsc;
use std::time::{Duration, Instant};

#[test]
fn a_stop_request_ends_every_long_catan_call_promptly() {
    let (tx, rx) = mpsc::channel::<(&str, Result<(), String>)>();
    let shape = BoardKind::Base.shape();
    let spawn = |name: &'static str, f: Box<dyn FnOnce() -> Result<(), String> + Send>| {
        let tx = tx.clone();
        std::thread::spawn(move || {
            let _ = tx.send((name, f()));
        });
    };
    // One board that takes far more than a second: the tightest corner limit, whose
    // boards full-rejection finds in no fewer than tens of millions of attempts...
    spawn(
        "full-rejection board",
        Box::new(move || {
            let ctx = Ctx::new(shape, "max-pips-per-corner=9".parse().unwrap(), None);
            ctx.sample(Sampler::FullRejection, &mut item_rng(1, "catan", 0))
                .map(|_| ())
                .map_err(|e| e.to_string())
        }),
    );
    // ... and swap, for this item, in about 11,000 rounds of 10,000 swaps.
    spawn(
        "swap board",
        Box::new(move || {
            let ctx = Ctx::new(shape, "max-pips-per-corner=9".parse().unwrap(), None);
            ctx.sample(Sampler::Swap, &mut item_rng(1, "catan", 2))
                .map(|_| ())
                .map_err(|e| e.to_string())
        }),
    );
    // Counting a slow sampler (about 2,300 attempts a board): a chunk of 65,536
    // boards takes over a minute.
    spawn(
        "bias counts",
        Box::new(move || {
            let ctx = Ctx::new(shape, "same-terrain-apart".parse().unwrap(), None);
            let study = bias::SamplerStudy::new(&ctx, Sampler::TokenRejection, None, 1);
            puzzlebook::batch::study(&study, 1_000_000_000, Shard::default(), false, "")
                .map(|_| ())
                .map_err(|e| e.to_string())
        }),
    );
    // The set-up pilot of a hopeless sampler.
    spawn(
        "set-up",
        Box::new(move || {
            context(
                BoardKind::Base,
                &"max-pips-per-corner=9".parse().unwrap(),
                Sampler::Sequential,
            )
            .map(|_| ())
            .map_err(|e| e.to_string())
        }),
    );
    drop(tx);
    std::thread::sleep(Duration::from_millis(700));
    // Whatever returned before the stop is a problem too (nothing here is that quick).
    let mut early = Vec::new();
    while let Ok((name, r)) = rx.try_recv() {
        early.push(format!("{name} returned before the stop: {r:?}"));
    }
    puzzlebook::interrupt::request();
    let asked = Instant::now();
    let mut problems = early.clone();
    let mut returned = early.len();
    while returned < 4 {
        let Ok((name, r)) = rx.recv_timeout(Duration::from_secs(2)) else {
            problems.push(format!(
                "{} call(s) still running 2 s after the stop",
                4 - returned
            ));
            break;
        };
        returned += 1;
        let waited = asked.elapsed();
        if waited > Duration::from_millis(500) {
            problems.push(format!("{name}: returned {waited:?} after the stop"));
        }
        match r {
            Err(e) if e.starts_with("interrupted") => {}
            other => problems.push(format!("{name}: {other:?} instead of interrupted")),
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}
