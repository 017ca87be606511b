//! `catan balance` through the real binary: every measure recomputed here a second way,
//! from the records' coordinates in pixel space (hex centres a width apart, corners a
//! corner radius from the centres), a hand-made board with known answers, bad input.

mod common;
use common::*;
use puzzlebook::games::catan::board::BoardKind;
use serde_json::{json, Value};
use std::collections::BTreeMap;

const RESOURCES: [&str; 5] = ["wheat", "wood", "sheep", "clay", "rock"];

fn balance(input: &str) -> Vec<Value> {
    let out = bin()
        .args(["catan", "balance"])
        .write_stdin(input.to_string())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn pips(token: &Value) -> i64 {
    match token.as_i64() {
        None => 0,
        Some(t) => 6 - (7 - t).abs(),
    }
}

/// Pixel centre of hex (x, y): rows are sqrt(3)/2 apart, each row shifted half a hex
/// left of the one above.
fn centre(h: &Value) -> (f64, f64) {
    let (x, y) = (h["x"].as_f64().unwrap(), h["y"].as_f64().unwrap());
    (y - x / 2.0, x * 3f64.sqrt() / 2.0)
}

fn dist(a: (f64, f64), b: (f64, f64)) -> f64 {
    (a.0 - b.0).hypot(a.1 - b.1)
}

/// Every measure of a record, recomputed from its coordinates.
fn expected(r: &Value) -> Value {
    let hexes = r["hexes"].as_array().unwrap();
    let radius = 1.0 / 3f64.sqrt();
    let centres: Vec<(f64, f64)> = hexes.iter().map(centre).collect();
    // Resource pips and hex counts.
    let mut total: BTreeMap<&str, i64> = RESOURCES.iter().map(|&r| (r, 0)).collect();
    let mut count: BTreeMap<&str, i64> = RESOURCES.iter().map(|&r| (r, 0)).collect();
    for h in hexes {
        let t = h["terrain"].as_str().unwrap();
        if let Some(v) = total.get_mut(t) {
            *v += pips(&h["token"]);
            *count.get_mut(t).unwrap() += 1;
        }
    }
    // Corners: points a corner radius from the centres, met by three hexes.
    let mut points: Vec<((f64, f64), Vec<usize>)> = Vec::new();
    for (i, &(cx, cy)) in centres.iter().enumerate() {
        for k in 0..6 {
            let a = (30.0 + 60.0 * f64::from(k)).to_radians();
            let p = (cx + radius * a.cos(), cy + radius * a.sin());
            match points.iter_mut().find(|(q, _)| dist(*q, p) < 1e-6) {
                Some((_, v)) => v.push(i),
                None => points.push((p, vec![i])),
            }
        }
    }
    let sums: Vec<i64> = points
        .iter()
        .filter(|(_, v)| v.len() == 3)
        .map(|(_, v)| v.iter().map(|&i| pips(&hexes[i]["token"])).sum())
        .collect();
    // Largest group: flood fill, neighbours a hex width apart.
    let mut best = 0;
    let mut seen = vec![false; hexes.len()];
    for s in 0..hexes.len() {
        let t = &hexes[s]["terrain"];
        if seen[s] || t == "desert" {
            continue;
        }
        let (mut stack, mut size) = (vec![s], 0);
        seen[s] = true;
        while let Some(i) = stack.pop() {
            size += 1;
            for j in 0..hexes.len() {
                if !seen[j]
                    && &hexes[j]["terrain"] == t
                    && (dist(centres[i], centres[j]) - 1.0).abs() < 1e-6
                {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
        best = best.max(size);
    }
    // Harbors: the land hexes a corner radius from the points its piers aim at (pier
    // corners from the library's frame positions; corner k at 90 - 60k degrees).
    let kind: BoardKind = r["board"].as_str().unwrap().parse().unwrap();
    let frame = &kind.shape().harbors;
    let mut own = 0;
    for (p, h) in r["harbors"].as_array().unwrap().iter().enumerate() {
        let (sx, sy) = centre(h);
        let mut near: Vec<u64> = Vec::new();
        for k in [frame[p].piers.0, frame[p].piers.1] {
            let a = (90.0 - 60.0 * f64::from(k)).to_radians();
            let q = (sx + radius * a.cos(), sy + radius * a.sin());
            for (i, &c) in centres.iter().enumerate() {
                let n = hexes[i]["n"].as_u64().unwrap();
                if (dist(c, q) - radius).abs() < 1e-6 && !near.contains(&n) {
                    near.push(n);
                }
            }
        }
        near.sort_unstable();
        assert_eq!(h["hexes"], json!(near), "harbor {p} of {r}");
        let kind = h["kind"].as_str().unwrap();
        if kind != "3:1"
            && near
                .iter()
                .any(|&n| hexes[n as usize - 1]["terrain"] == kind)
        {
            own += 1;
        }
    }
    // Score: the population standard deviation of pips per hex over the resources.
    let per_hex: Vec<f64> = RESOURCES
        .iter()
        .map(|r| match count[r] {
            0 => 0.0,
            c => total[r] as f64 / c as f64,
        })
        .collect();
    let mean = per_hex.iter().sum::<f64>() / 5.0;
    let score = (per_hex.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / 5.0).sqrt();
    json!({
        "resource_pips": total,
        "corner_pips_min": sums.iter().min(),
        "corner_pips_max": sums.iter().max(),
        "largest_cluster": best,
        "harbor_own_resource": own,
        "score": score,
    })
}

fn check(records: &str, got: &[Value]) {
    let lines: Vec<&str> = records.lines().collect();
    assert_eq!(got.len(), lines.len());
    for (i, (line, g)) in lines.iter().zip(got).enumerate() {
        let r: Value = serde_json::from_str(line).unwrap();
        let want = expected(&r);
        assert_eq!(g["index"], i);
        for key in [
            "resource_pips",
            "corner_pips_min",
            "corner_pips_max",
            "largest_cluster",
            "harbor_own_resource",
        ] {
            assert_eq!(g[key], want[key], "{key} of board {i}: {line}");
        }
        let (a, b) = (
            g["score"].as_f64().unwrap(),
            want["score"].as_f64().unwrap(),
        );
        assert!((a - b).abs() < 1e-9, "score of board {i}: {a} vs {b}");
        assert_eq!(g.as_object().unwrap().len(), 7, "{g}");
    }
}

#[test]
fn generated_boards_match_a_second_computation() {
    for board in ["base", "extended"] {
        let records = stdout_of(&[
            "catan", "generate", "--count", "20", "--seed", "3", "--board", board,
        ]);
        let got = balance(&records);
        check(&records, &got);
    }
    // Corner sums on the base board: 24 corners of three hexes; the sums vary.
    let records = stdout_of(&["catan", "generate", "--count", "20", "--sampler", "direct"]);
    check(&records, &balance(&records));
}

/// The base board with the centre a desert, the inner ring (hexes 13-18) all wheat, the
/// outer ring (1-12) wood and sheep in turn, every token a 6: the largest group is the
/// wheat ring (6); corners with the desert sum 0 + 5 + 5 = 10, the others 15.
fn hand_made() -> String {
    let first = stdout_of(&["catan", "generate", "--count", "1"]);
    let mut r: Value = serde_json::from_str(first.trim()).unwrap();
    // The base game's pieces in hex order: tokens 2, 3, 3, 4, ..., 11, 12 on hexes 1-18
    // (the desert on 19), wheat on 1-4, wood 5-8, sheep 9-12, clay 13-15, rock 16-18.
    let tokens = [2, 3, 3, 4, 4, 5, 5, 6, 6, 8, 8, 9, 9, 10, 10, 11, 11, 12];
    for h in r["hexes"].as_array_mut().unwrap() {
        let n = h["n"].as_u64().unwrap() as usize;
        let terrain = match n {
            1..=4 => "wheat",
            5..=8 => "wood",
            9..=12 => "sheep",
            13..=15 => "clay",
            16..=18 => "rock",
            _ => "desert",
        };
        h["terrain"] = json!(terrain);
        h["token"] = if n == 19 {
            Value::Null
        } else {
            json!(tokens[n - 1])
        };
    }
    // Harbors at hexes [1], [2, 3], [3, 4], [5], [6, 7], [7, 8], [9], [10, 11], [11, 12]:
    // wheat at hex 1, wood at hex 5 and sheep at hexes 10-11 are by their own resource,
    // rock (hexes 3, 4: wheat) and clay (7, 8: wood) are not.
    let kinds = [
        "wheat", "3:1", "rock", "wood", "3:1", "clay", "3:1", "sheep", "3:1",
    ];
    for (h, k) in r["harbors"].as_array_mut().unwrap().iter_mut().zip(kinds) {
        h["kind"] = json!(k);
    }
    serde_json::to_string(&r).unwrap() + "\n"
}

#[test]
fn a_hand_made_board() {
    let text = hand_made();
    let got = balance(&text);
    assert_eq!(got.len(), 1);
    let g = &got[0];
    // Pips by hex (2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 8: 5, ...): wheat 1+2+2+3, wood 3+4+4+5,
    // sheep 5+5+5+4, clay 4+3+3, rock 2+2+1.
    assert_eq!(
        g["resource_pips"],
        json!({"wheat": 8, "wood": 16, "sheep": 19, "clay": 10, "rock": 5})
    );
    // Runs of four hexes along the outer ring are the largest groups.
    assert_eq!(g["largest_cluster"], 4);
    assert_eq!(g["harbor_own_resource"], 3);
    // Pips per hex 2, 4, 4.75, 10/3, 5/3 (twelfths: 24, 48, 57, 40, 20; mean 37.8):
    // the squared deviations sum to 984.8 / 144, over 5.
    assert!(
        (g["score"].as_f64().unwrap() - (984.8f64 / 720.0).sqrt()).abs() < 1e-12,
        "{g}"
    );
    check(&text, &got);
    // The keys in the documented order.
    let line = stdout_of(&["catan", "generate", "--count", "1"]);
    let out = bin()
        .args(["catan", "balance", "-"])
        .write_stdin(line)
        .output()
        .unwrap();
    let out = String::from_utf8(out.stdout).unwrap();
    let keys = [
        "\"index\"",
        "\"resource_pips\":{\"wheat\"",
        "\"wood\"",
        "\"sheep\"",
        "\"clay\"",
        "\"rock\"",
        "\"corner_pips_min\"",
        "\"corner_pips_max\"",
        "\"largest_cluster\"",
        "\"harbor_own_resource\"",
        "\"score\"",
    ];
    let at: Vec<usize> = keys.iter().map(|k| out.find(k).unwrap()).collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "{out}");
}

#[test]
fn bad_input_is_one_error_naming_the_line() {
    let good = hand_made();
    fails_with(
        &["catan", "balance"],
        Some("hello\n"),
        "standard input: line 1: not a Catan record",
    );
    fails_with(
        &["catan", "balance"],
        Some("\n\n[1, 2]\n"),
        "line 3: not a Catan record",
    );
    fails_with(
        &["catan", "balance"],
        Some(&good.replace("\"board\":\"base\"", "\"board\":\"huge\"")),
        "line 1: board \"huge\" is neither base nor extended",
    );
    fails_with(
        &["catan", "balance"],
        Some(&good.replacen("\"token\":2", "\"token\":7", 1)),
        "line 1: hex 1: there is no token 7",
    );
    fails_with(
        &["catan", "balance"],
        Some(&good.replacen("\"token\":2", "\"token\":-1", 1)),
        "line 1: not a Catan record",
    );
    fails_with(
        &["catan", "balance"],
        Some("{\"game\":\"flip\",\"index\":0}\n"),
        "a record of game \"flip\", not catan",
    );
    fails_with(
        &["catan", "balance", "/no/such/file"],
        None,
        "cannot read /no/such/file",
    );
    fails_with(&["catan", "balance", "/"], None, "is a folder");
    // A line past the cap is refused by its number, without reading it whole.
    let dir = std::env::temp_dir().join(format!("catan-balance-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("long.jsonl");
    std::fs::write(&file, format!("\n{}\n{good}", "x".repeat(2 << 20))).unwrap();
    let name = file.to_str().unwrap();
    fails_with(
        &["catan", "balance", name],
        None,
        "line at line 2 is longer than",
    );
    std::fs::remove_dir_all(&dir).unwrap();
    // After good lines: their answers, then the error on the third line.
    let input = format!("{good}{good}{}", good.replace("\"n\":5", "\"n\":50"));
    let out = bin()
        .args(["catan", "balance"])
        .write_stdin(input)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("standard input: line 3: hex 5 should be number 5"),
        "{err}"
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 2);
    // An empty input measures nothing and succeeds.
    assert!(balance("").is_empty());
    assert!(balance("\n \n").is_empty());
}
