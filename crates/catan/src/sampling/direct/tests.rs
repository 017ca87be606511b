//! The mask sampler against its definitions: subset tables, deposits, stages, the
//! multiply chain, full rejection's pieces and the fast counting.

use super::super::counts::{Cells, Counts};
use super::super::exact::binom;
#[cfg(target_arch = "x86_64")]
use super::deposit::Bmi2;
use super::deposit::Soft;
use super::stages::*;
use super::*;
use crate::rules::Setup;
use bounded::threshold;
use ground::seed::Streams;

/// The set bits of a mask, lowest first.
pub(super) fn bits(mut m: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            i
        })
    })
}

/// The board as arrays, read straight off the masks (independent of the planes).
fn simple_layout(m: &Masks) -> Setup {
    let mut b = Setup::default();
    for (t, &mask) in m.terrain.iter().enumerate() {
        bits(mask).for_each(|h| b.terrain[h] = t as u8);
    }
    for (k, &mask) in m.token.iter().enumerate() {
        bits(mask).for_each(|h| b.token[h] = TOKEN_VALUES[k]);
    }
    for (k, &mask) in m.harbor.iter().enumerate() {
        bits(mask).for_each(|p| b.harbor[p] = k as u8);
    }
    b
}

#[test]
fn subset_tables_list_every_k_subset_once() {
    for m in 0..=12usize {
        for k in 0..=m {
            let mut v = Vec::new();
            push_subsets(m, k, &mut v);
            assert_eq!(v.len() as u128, binom(m, k), "C({m},{k})");
            assert!(v
                .iter()
                .all(|&s| s.count_ones() as usize == k && s >> m == 0));
            assert!(v.windows(2).all(|w| w[0] < w[1]), "distinct, increasing");
        }
    }
}

#[test]
fn software_deposit_matches_its_definition() {
    let mut rng = ground::seed::item_rng(3, "test", 0);
    for _ in 0..20_000 {
        let (src, mask) = (rng.next_u32(), rng.next_u32() >> (rng.next_u32() % 32));
        // Definition: the i-th lowest set bit of mask gets bit i of src.
        let mut want = 0;
        for (i, b) in bits(mask).enumerate() {
            want |= ((src >> i) & 1) << b;
        }
        assert_eq!(Soft.deposit(src, mask), want);
        #[cfg(target_arch = "x86_64")]
        if let Some(b) = Bmi2::detect() {
            assert_eq!(b.deposit(src, mask), want);
        }
    }
}

/// Stage indices given in order (to enumerate every tuple of them).
struct Given<'a>(&'a [u32], usize);

impl Indices for Given<'_> {
    fn next(&mut self, st: &Stage) -> u32 {
        let r = self.0[self.1];
        assert!(r < st.bound);
        self.1 += 1;
        r
    }
}

/// Every tuple of stage indices, for 3 + 2 + 2 items of three kinds on 7 places
/// scattered in a 19-bit mask, under table limits that force single picks, mixed
/// stages and whole tables: each of the 210 arrangements comes out equally often.
#[test]
fn stages_give_every_arrangement_equally_often() {
    let free = 0b100_1010_0010_0101_0001u32;
    assert_eq!(free.count_ones(), 7);
    for limit in [1, 6, 20, 4096] {
        let mut t = Tables::new(limit);
        let sp = t.space(&[(0, 3), (1, 2), (2, 2)]);
        let bounds: Vec<u32> = sp.stages.iter().map(|s| s.bound).collect();
        let total: u64 = bounds.iter().map(|&b| u64::from(b)).product();
        let mut seen = std::collections::HashMap::new();
        let mut tuple = vec![0u32; bounds.len()];
        for _ in 0..total {
            let mut masks = [0u32; 3];
            fill(
                Soft,
                &t.subsets,
                &sp,
                free,
                &mut Given(&tuple, 0),
                &mut masks,
            );
            #[cfg(target_arch = "x86_64")]
            if let Some(b) = Bmi2::detect() {
                let mut hw = [0u32; 3];
                fill(b, &t.subsets, &sp, free, &mut Given(&tuple, 0), &mut hw);
                assert_eq!(hw, masks);
            }
            let sizes = masks.map(u32::count_ones);
            assert_eq!(sizes, [3, 2, 2]);
            assert_eq!(masks[0] | masks[1] | masks[2], free);
            *seen.entry(masks).or_insert(0u64) += 1;
            // Next tuple (odometer, last index fastest).
            for (r, &b) in tuple.iter_mut().zip(&bounds).rev() {
                *r += 1;
                if *r < b {
                    break;
                }
                *r = 0;
            }
        }
        assert_eq!(seen.len(), 210, "limit {limit}");
        assert!(
            seen.values().all(|&c| c == total / 210),
            "limit {limit}: {bounds:?}"
        );
    }
}

/// Full rejection's red-set index from a 16-bit piece: over all 2^16 pieces every
/// index is accepted equally often, and the valid sets are the table's.
#[test]
fn rejection_pieces_are_exactly_uniform() {
    use crate::board::BoardKind;
    use crate::rules::Rules;
    use crate::sampling::{context, Sampler};
    let rules: Rules = "red-apart".parse().unwrap();
    let ctx = context(BoardKind::Base, &rules, Sampler::Direct).unwrap();
    let r = Rejection::new(ctx.shape, ctx.table.as_ref().unwrap());
    assert_eq!((r.bound, r.wide), (3876, false));
    assert_eq!(r.valid.iter().filter(|&&v| v != u32::MAX).count(), 532);
    let mut seen = vec![0u32; 3876];
    for x in 0..1u64 << 16 {
        if let Some(i) = bounded::piece::<16>(x, u64::from(r.bound)) {
            seen[i as usize] += 1;
        }
    }
    assert!(seen.iter().all(|&c| c == 65536 / 3876), "{:?}", &seen[..8]);
    let wide = Rejection::new(
        BoardKind::Extended.shape(),
        context(BoardKind::Extended, &rules, Sampler::Direct)
            .unwrap()
            .table
            .as_ref()
            .unwrap(),
    );
    assert_eq!((wide.bound, wide.wide), (593_775, true));
}

/// The stages whose indices come from the chain, in the order a board uses them.
fn chained_stages(plan: &Plan) -> Vec<Stage> {
    let mut v = Vec::new();
    if plan.chained_placement && plan.rejection.is_none() {
        v.push(plan.red_stage);
    }
    if plan.chained_placement {
        v.extend(&plan.desert_space.stages);
    }
    v.extend(&plan.red_space.stages);
    if plan.two_twelve {
        v.extend(&plan.extreme_space.stages);
    }
    for sp in [&plan.token_space, &plan.terrain_space, &plan.harbor_space] {
        v.extend(&sp.stages);
    }
    v
}

/// The plan's bookkeeping against the plain decoder: its stages, in the order a
/// board uses them, fall into groups with the plan's products and thresholds; a
/// number is kept exactly when `decode` says Lemire's test passes (also for numbers
/// made to land near the threshold); and a board built from indices decoded that
/// way equals the one `draw_with` draws.
#[test]
fn draws_agree_with_the_plain_decoder() {
    use crate::board::BoardKind;
    use crate::rules::Rules;
    use crate::sampling::{context, Sampler};
    let (mut kept, mut dropped) = (0, 0);
    for (kind, rules) in [
        (BoardKind::Base, "red-apart"),
        (BoardKind::Base, "none"),
        (BoardKind::Base, "red-apart,2-12-apart"),
        (BoardKind::Extended, "red-apart"),
    ] {
        let rules: Rules = rules.parse().unwrap();
        let ctx = context(kind, &rules, Sampler::Direct).unwrap();
        for sampler in [Sampler::Direct, Sampler::FullRejection] {
            let Some(plan) = ctx.mask_plan(sampler) else {
                continue;
            };
            let mut groups: Vec<Vec<u32>> = Vec::new();
            for st in chained_stages(plan) {
                if st.first {
                    groups.push(Vec::new());
                }
                groups.last_mut().expect("a first stage").push(st.bound);
                assert_eq!(usize::from(st.word), groups.len() - 1);
            }
            assert_eq!(groups.len(), plan.groups.len(), "{rules} {sampler:?}");
            let products: Vec<u64> = groups
                .iter()
                .map(|b| b.iter().map(|&x| u64::from(x)).product())
                .collect();
            for ((bounds, &product), g) in groups.iter().zip(&products).zip(&plan.groups) {
                assert_eq!(g.product, product);
                let mut out = vec![0u32; bounds.len()];
                for j in 0..2000u64 {
                    // x * product lands just above a multiple of 2^64.
                    let k = u128::from(j.wrapping_mul(0x9e37_79b9_7f4a_7c15) % product);
                    let x = ((k << 64) / u128::from(product)) as u64 + 1;
                    let keep = decode::<64>(x, bounds, &mut out) >= threshold::<64>(product);
                    assert_eq!(g.accepts(x), keep);
                    if keep {
                        kept += 1;
                    } else {
                        dropped += 1;
                    }
                }
            }
            let streams = Streams::new(11, "catan");
            for i in 0..2000 {
                let mut rng = streams.item(i);
                let given = match &plan.rejection {
                    Some(r) if plan.chained_placement => Some(r.draw(&mut rng)),
                    _ => None,
                };
                let mut indices = Vec::new();
                for (bounds, &product) in groups.iter().zip(&products) {
                    let mut out = vec![0u32; bounds.len()];
                    while decode::<64>(rng.next_u64(), bounds, &mut out) < threshold::<64>(product)
                    {
                    }
                    indices.extend(out);
                }
                let reference = plan.fill_board(Soft, &mut rng, &mut Given(&indices, 0), given);
                assert_eq!(plan.draw_with(Soft, &mut streams.item(i)), reference);
            }
        }
    }
    assert!(
        kept > 1000 && dropped > 1000,
        "both outcomes: {kept} / {dropped}"
    );
}

/// The fast counters give exactly the counts of drawing each board as a layout
/// and counting it plainly (cell found from the layout), with either deposit.
#[test]
fn counting_masks_equals_counting_the_boards() {
    use crate::board::BoardKind;
    use crate::rules::Rules;
    use crate::sampling::{context, Sampler};
    for (kind, rules, words) in [
        (BoardKind::Base, "red-apart", 2),
        (BoardKind::Base, "none", 2),
        (BoardKind::Base, "red-apart,2-12-apart", 2),
        (BoardKind::Base, "2-12-apart", 2),
        (BoardKind::Extended, "red-apart", 4),
        (BoardKind::Extended, "none", 4),
    ] {
        let rules: Rules = rules.parse().unwrap();
        let ctx = context(kind, &rules, Sampler::Direct).unwrap();
        assert_eq!(
            ctx.plan().unwrap().words(),
            words,
            "{rules}: numbers per board"
        );
        for sampler in [Sampler::Direct, Sampler::FullRejection] {
            let plan = ctx.mask_plan(sampler).unwrap();
            let cells = Cells::new(ctx.shape, ctx.table.as_ref().unwrap());
            let streams = Streams::new(9, "catan");
            let empty = Counts::new(ctx.shape, cells.len());
            let mut fast = empty.clone();
            plan.count_into(&streams, 0..4000, &mut fast, Some(&cells));
            let mut soft = empty.clone();
            plan.count_with(Soft, &streams, 0..4000, &mut soft, Some(&cells));
            let mut plain = empty.clone();
            for i in 0..4000 {
                let d = ctx.sample(sampler, &mut streams.item(i)).unwrap();
                let (a, b) = (&mut streams.item(i), &mut streams.item(i));
                let m = plan.draw(b);
                assert_eq!(plan.draw_with(Soft, a), m);
                assert_eq!(d.layout, simple_layout(&m));
                let cell = cells.of(ctx.shape, &d.layout);
                assert!(cell.is_some(), "{rules}: board {i} has a valid placement");
                plain.add(&d.layout, d.attempts, cell);
            }
            assert_eq!(fast, plain, "{rules} {sampler:?}");
            assert_eq!(soft, plain, "{rules} {sampler:?}");
            assert!(fast.fits(&empty, 4000));
            if sampler == Sampler::FullRejection && rules.red_apart() {
                assert!(fast.attempts > 4000 * 5, "{rules}: about 51/7 sets a board");
            }
        }
    }
}

/// The multiply chain with rejection is exact: over every x below 2^BITS, each
/// tuple of indices is accepted the same number of times (checked exhaustively on
/// 12-bit numbers, where the same arithmetic runs as on 64-bit ones).
#[test]
fn multiply_chain_is_exactly_uniform() {
    const BITS: u32 = 12;
    for bounds in [
        vec![3u32, 5, 7],
        vec![6, 13],
        vec![2; 12],
        vec![4095],
        vec![31, 33, 4],
        vec![1, 17, 1, 9],
        vec![15, 6, 14, 3],
    ] {
        let product: u64 = bounds.iter().map(|&b| u64::from(b)).product();
        let t = threshold::<BITS>(product);
        let mut seen = std::collections::HashMap::new();
        let mut out = vec![0u32; bounds.len()];
        for x in 0..1u64 << BITS {
            if decode::<BITS>(x, &bounds, &mut out) >= t {
                assert!(out.iter().zip(&bounds).all(|(o, b)| o < b));
                *seen.entry(out.clone()).or_insert(0u64) += 1;
            }
        }
        assert_eq!(seen.len() as u64, product, "{bounds:?}: every tuple");
        let first = *seen.values().next().unwrap();
        assert!(
            seen.values().all(|&c| c == first),
            "{bounds:?}: equal counts"
        );
        assert_eq!(first, (1u64 << BITS) / product);
    }
    // On 64-bit numbers the final low word is x * product mod 2^64, which is what
    // the sampler tests (one multiplication) before decoding.
    let mut rng = ground::seed::item_rng(4, "test", 0);
    let bounds = [532u32, 15, 6, 14, 78, 55, 36, 21, 10, 3];
    let product: u64 = bounds.iter().map(|&b| u64::from(b)).product();
    let mut out = [0u32; 10];
    for _ in 0..10_000 {
        let x = rng.next_u64();
        assert_eq!(decode::<64>(x, &bounds, &mut out), x.wrapping_mul(product));
    }
}

/// A context told to use the plain-code deposit draws and counts the same boards as
/// one left to the CPU; and the setting's values mean what the guide says.
#[test]
fn the_deposit_choice_changes_no_board() {
    use crate::board::BoardKind;
    use crate::rules::Rules;
    use crate::sampling::{context, Sampler};
    use std::ffi::OsStr;
    let rules: Rules = "red-apart".parse().unwrap();
    let auto = context(BoardKind::Base, &rules, Sampler::Direct).unwrap();
    let plain = context(BoardKind::Base, &rules, Sampler::Direct)
        .unwrap()
        .with_deposit(BitDeposit::Plain);
    assert_eq!(auto.deposit(), BitDeposit::Auto);
    for sampler in [Sampler::Direct, Sampler::FullRejection] {
        let (a, p) = (
            auto.mask_plan(sampler).unwrap(),
            plain.mask_plan(sampler).unwrap(),
        );
        assert_eq!(p.deposit(), BitDeposit::Plain);
        let streams = Streams::new(5, "catan");
        for i in 0..500 {
            assert_eq!(a.draw(&mut streams.item(i)), p.draw(&mut streams.item(i)));
        }
        let cells = Cells::new(auto.shape, auto.table.as_ref().unwrap());
        let empty = Counts::new(auto.shape, cells.len());
        let (mut ca, mut cp) = (empty.clone(), empty);
        a.count_into(&streams, 0..2000, &mut ca, Some(&cells));
        p.count_into(&streams, 0..2000, &mut cp, Some(&cells));
        assert_eq!(ca, cp, "{sampler:?}");
    }
    for (value, want) in [
        (None, BitDeposit::Auto),
        (Some(""), BitDeposit::Auto),
        (Some("0"), BitDeposit::Auto),
        (Some("1"), BitDeposit::Plain),
        (Some("yes"), BitDeposit::Plain),
    ] {
        assert_eq!(BitDeposit::from_plain_setting(value.map(OsStr::new)), want);
    }
}
