//! Statistical tests of the Catan samplers with fixed seeds, against the exact
//! expectations. Thresholds: with about 380 per-feature z-scores, |z| > 5 anywhere has
//! probability about 2e-4 for an unbiased sampler; the chi-square p-value threshold of
//! 1e-4 likewise. The biased samplers miss by orders of magnitude.

use puzzlebook::batch::Pipeline;
use puzzlebook::games::catan::board::BoardKind;
use puzzlebook::games::catan::rules::Rules;
use puzzlebook::sampling::bias::{Cells, Study, StudyConfig};
use puzzlebook::sampling::bias_stat::{count, study};
use puzzlebook::sampling::{context, Sampler};
use puzzlebook::shard::Shard;

fn cfg(samplers: &[Sampler], seed: u64, samples: u64, reference_samples: u64) -> StudyConfig {
    StudyConfig {
        samplers: samplers.to_vec(),
        seed,
        samples,
        shard: Shard::default(),
        reference_samples,
    }
}

fn run(kind: BoardKind, rules: &str, samplers: &[Sampler], samples: u64, seed: u64) -> Study {
    let rules: Rules = rules.parse().unwrap();
    let ctx = context(kind, &rules, Sampler::Direct).unwrap();
    study(
        &Pipeline,
        &ctx,
        &cfg(samplers, seed, samples, 0),
        false,
        |_, _, _| {},
    )
    .unwrap()
}

fn summary<'a>(s: &'a Study, sampler: &str) -> &'a puzzlebook::sampling::bias::SummaryRow {
    s.summaries.iter().find(|r| r.sampler == sampler).unwrap()
}

#[test]
fn uniform_samplers_agree_with_the_exact_expectations() {
    let s = run(
        BoardKind::Base,
        "red-apart",
        &[Sampler::FullRejection, Sampler::Direct],
        300_000,
        7,
    );
    for name in ["full-rejection", "direct"] {
        let r = summary(&s, name);
        assert!(r.p_value.unwrap() > 1e-4, "{name}: p = {:?}", r.p_value);
        assert!(
            r.max_abs_z < 5.0,
            "{name}: max |z| {} at {}",
            r.max_abs_z,
            r.max_abs_z_at
        );
    }
    // Full rejection's acceptance is 7/51 (binomial sd about 0.0002 at 300k boards).
    let fr = summary(&s, "full-rejection");
    assert_eq!(fr.exact_acceptance, "7/51");
    assert!(
        (fr.acceptance_rate - 7.0 / 51.0).abs() < 0.002,
        "{}",
        fr.acceptance_rate
    );
}

#[test]
fn uniform_samplers_with_two_rules_and_on_the_big_board() {
    for (kind, rules, seed) in [
        (BoardKind::Base, "red-apart,2-12-apart", 8),
        (BoardKind::Extended, "red-apart", 9),
    ] {
        let s = run(
            kind,
            rules,
            &[Sampler::FullRejection, Sampler::Direct],
            200_000,
            seed,
        );
        for name in ["full-rejection", "direct"] {
            let r = summary(&s, name);
            assert!(
                r.p_value.unwrap() > 1e-4 && r.max_abs_z < 5.0,
                "{rules} {name}: {r:?}"
            );
        }
        // Full rejection accepts at the exact rate (within 5 binomial sd of the attempts).
        let r = summary(&s, "full-rejection");
        let (num, den) = r.exact_acceptance.split_once('/').unwrap();
        let p = num.parse::<f64>().unwrap() / den.parse::<f64>().unwrap();
        let sd = (p * (1.0 - p) / r.attempts as f64).sqrt();
        assert!(
            (r.acceptance_rate - p).abs() < 5.0 * sd,
            "{rules}: acceptance {} against {}",
            r.acceptance_rate,
            r.exact_acceptance
        );
    }
}

/// Share of boards with the feature on the inner ring (hexes 13 to 18), observed and exact.
fn inner_ring(s: &Study, sampler: &str, feature: &str) -> (f64, f64) {
    let rows: Vec<_> = s
        .rows
        .iter()
        .filter(|r| {
            r.sampler == sampler
                && r.place == "hex"
                && (13..=18).contains(&r.n)
                && r.feature == feature
        })
        .collect();
    let n = rows[0].samples as f64;
    (
        rows.iter().map(|r| r.observed as f64).sum::<f64>() / n,
        rows.iter().map(|r| r.expected).sum::<f64>() / n,
    )
}

#[test]
fn biased_samplers_show_their_bias_where_the_spec_says() {
    let all = [Sampler::TokenRejection, Sampler::Swap, Sampler::Sequential];
    let s = run(BoardKind::Base, "red-apart", &all, 300_000, 10);
    for name in ["token-rejection", "swap", "sequential"] {
        let r = summary(&s, name);
        assert!(
            r.p_value.unwrap() < 1e-10,
            "{name} should fail the chi-square: {r:?}"
        );
    }
    // Token rejection: the desert on the inner ring 6/19 = 0.316 of the time, not 0.347.
    let (obs, exact) = inner_ring(&s, "token-rejection", "desert");
    assert!((exact - 0.347).abs() < 0.001, "{exact}");
    assert!((obs - 6.0 / 19.0).abs() < 0.004, "{obs}");
    // Swap and sequential put more reds on the inner ring than uniform does.
    for (name, lo, hi) in [("swap", 1.07, 1.16), ("sequential", 1.18, 1.28)] {
        let (obs, exact) = inner_ring(&s, name, "red");
        let ratio = obs / exact;
        assert!(
            ratio > lo && ratio < hi,
            "{name}: inner-ring reds x{ratio:.3}"
        );
    }
}

#[test]
fn counts_merge_across_shards() {
    let rules: Rules = "red-apart".parse().unwrap();
    let ctx = context(BoardKind::Base, &rules, Sampler::Direct).unwrap();
    let cells = Cells::new(ctx.shape, ctx.table.as_ref().unwrap());
    let whole = count(
        &Pipeline,
        &ctx,
        Sampler::FullRejection,
        Some(&cells),
        3,
        50_000,
        Shard::default(),
    )
    .unwrap();
    for n in [2u64, 7] {
        let mut merged = count(
            &Pipeline,
            &ctx,
            Sampler::FullRejection,
            Some(&cells),
            3,
            50_000,
            Shard { index: 0, count: n },
        )
        .unwrap();
        for k in 1..n {
            merged.merge(
                &count(
                    &Pipeline,
                    &ctx,
                    Sampler::FullRejection,
                    Some(&cells),
                    3,
                    50_000,
                    Shard { index: k, count: n },
                )
                .unwrap(),
            );
        }
        assert_eq!(merged, whole, "n = {n}");
    }
}

#[test]
fn unenumerable_rules_fall_back_to_a_reference_run() {
    let rules: Rules = "red-apart,same-number-apart".parse().unwrap();
    let ctx = context(BoardKind::Base, &rules, Sampler::FullRejection).unwrap();
    assert!(ctx.table.is_none());
    let s = study(
        &Pipeline,
        &ctx,
        &cfg(
            &[Sampler::FullRejection, Sampler::Sequential],
            11,
            100_000,
            400_000,
        ),
        false,
        |_, _, _| {},
    )
    .unwrap();
    assert!(s.expectations.source.starts_with("reference run"));
    let fr = summary(&s, "full-rejection");
    assert!(fr.p_value.is_none() && fr.max_abs_z < 5.0, "{fr:?}");
    assert!(summary(&s, "sequential").max_abs_z > 8.0);
}

/// Under fairness rules `direct` draws the placement from its table and rejects on the
/// rest; a study takes its reference run from it, and plain whole-board rejection
/// (`full-rejection`, which shares none of direct's machinery) must agree with it on
/// every hex and harbor feature.
#[test]
fn direct_under_fairness_rules_agrees_with_whole_board_rejection() {
    use puzzlebook::sampling::bias::reference_sampler;
    let rules: Rules = "red-apart,min-pips-per-corner=5,max-cluster=3,harbor-resource-apart"
        .parse()
        .unwrap();
    let ctx = context(BoardKind::Base, &rules, Sampler::Direct).unwrap();
    assert!(ctx.table.is_none() && ctx.has_direct());
    assert_eq!(reference_sampler(&ctx), Sampler::Direct);
    let s = study(
        &Pipeline,
        &ctx,
        &cfg(
            &[Sampler::FullRejection, Sampler::Direct],
            12,
            100_000,
            300_000,
        ),
        false,
        |_, _, _| {},
    )
    .unwrap();
    assert!(s.expectations.source.starts_with("reference run: direct"));
    // 377 features, z including the reference's noise: beyond 4.5 by chance has
    // probability about 377 * 7e-6 = 0.3%.
    for name in ["full-rejection", "direct"] {
        let row = summary(&s, name);
        assert!(row.max_abs_z < 4.5, "{row:?}");
    }
    assert!(summary(&s, "direct").acceptance_rate > summary(&s, "full-rejection").acceptance_rate);
}

/// The resources' pip totals have exact expectations (a resource's hexes take the
/// tokens of a uniform subset of the land hexes): the exact samplers agree with them,
/// and `best-of-10`, which places deserts and reds uniformly, shows its bias there.
#[test]
fn best_of_n_shows_its_bias_in_the_resources_pips() {
    let s = run(
        BoardKind::Base,
        "red-apart",
        &[Sampler::FullRejection, Sampler::Direct, Sampler::BestOf(10)],
        100_000,
        21,
    );
    let worst_resource = |name: &str| {
        s.rows
            .iter()
            .filter(|r| r.sampler == name && r.place == "resource")
            .map(|r| r.z.abs())
            .fold(0.0, f64::max)
    };
    assert!(worst_resource("full-rejection") < 4.5);
    assert!(worst_resource("direct") < 4.5);
    assert!(worst_resource("best-of-10") > 20.0);
    // Its placement is uniform: the chi-square over the cells does not see it.
    assert!(summary(&s, "best-of-10").p_value.unwrap() > 1e-4);
    assert!(summary(&s, "best-of-10")
        .max_abs_z_at
        .starts_with("resource"));
}
