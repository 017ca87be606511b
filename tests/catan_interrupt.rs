//! A stop request (Ctrl-C) ends every long Catan call within a fraction of a second,
//! with an error and never with a board or counts. The stop flag is global and stays
//! set, so this file holds one test.

use puzzlebook::batch::Shard;
use puzzlebook::games::catan::board::BoardKind;
use puzzlebook::games::catan::sampler::{Ctx, Sampler};
use puzzlebook::games::catan::{bias, context};
use puzzlebook::seed::item_rng;
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
        }),
    );
    // ... and swap, for this item, in about 11,000 rounds of 10,000 swaps.
    spawn(
        "swap board",
        Box::new(move || {
            let ctx = Ctx::new(shape, "max-pips-per-corner=9".parse().unwrap(), None);
            ctx.sample(Sampler::Swap, &mut item_rng(1, "catan", 2))
                .map(|_| ())
        }),
    );
    // Counting a slow sampler (about 2,300 attempts a board): a chunk of 65,536
    // boards takes over a minute.
    spawn(
        "bias counts",
        Box::new(move || {
            let ctx = Ctx::new(shape, "same-terrain-apart".parse().unwrap(), None);
            bias::count(
                &ctx,
                Sampler::TokenRejection,
                None,
                1,
                1_000_000_000,
                Shard::default(),
            )
            .map(|_| ())
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
    // Nothing has finished yet.
    assert!(rx.try_recv().is_err(), "a call finished before the stop");
    puzzlebook::interrupt::request();
    let asked = Instant::now();
    for _ in 0..4 {
        let (name, r) = rx
            .recv_timeout(Duration::from_secs(2))
            .expect("every call returns soon after the stop");
        let waited = asked.elapsed();
        assert!(waited < Duration::from_millis(500), "{name}: {waited:?}");
        let e = r.expect_err(name);
        assert!(e.starts_with("interrupted"), "{name}: {e}");
    }
}
