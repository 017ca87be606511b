//! `generate --format svg|png`: every game's puzzles and solutions as pictures, read
//! back with an SVG parser and a PNG decoder; file names, sizes, determinism, and the
//! refusals (existing files, bad flags).

use crate::common::*;
use resvg::{tiny_skia::Pixmap, usvg};
use std::fs;
use std::path::Path;

/// Every game's generate command with small, fast parameters, and whether it draws
/// solutions.
const GAMES: &[(&str, &[&str], bool)] = &[
    ("flip", &["flip", "generate", "--size", "5"], true),
    ("numbrix", &["numbrix", "generate", "--size", "6"], true),
    ("number-match", &["number-match", "generate"], true),
    ("catan", &["catan", "generate"], false),
    ("carcassonne", &["carcassonne", "generate"], true),
];

fn run_ok(args: &[&str]) {
    let out = bin().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stdout.is_empty(), "{args:?}: nothing on stdout");
}

fn generate(base: &[&str], extra: &[&str]) {
    let mut args: Vec<&str> = base.to_vec();
    args.extend_from_slice(&["--seed", "7"]);
    args.extend_from_slice(extra);
    run_ok(&args);
}

/// The names a run of `count` items from 0 writes, sorted.
fn expected_names(game: &str, count: u64, solutions: bool, ext: &str) -> Vec<String> {
    let mut v = Vec::new();
    for i in 0..count {
        v.push(format!("{game}-{i}.{ext}"));
        if solutions {
            v.push(format!("{game}-{i}-solution.{ext}"));
        }
    }
    v.sort();
    v
}

/// The number in an attribute such as `width="104mm"`.
fn mm_attr(svg: &str, name: &str) -> f64 {
    let start = svg.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
    let rest = &svg[start..];
    let end = rest.find("mm\"").unwrap();
    rest[..end].parse().unwrap()
}

/// Counts the shapes in a parsed SVG (paths through groups and uses).
fn shapes(g: &usvg::Group) -> usize {
    g.children()
        .iter()
        .map(|n| match n {
            usvg::Node::Group(g) => shapes(g),
            usvg::Node::Path(_) => 1,
            _ => 0,
        })
        .sum()
}

#[test]
fn every_game_draws_svg_puzzles_and_solutions() {
    let tmp = tempfile::tempdir().unwrap();
    for &(game, base, solutions) in GAMES {
        let dir = tmp.path().join(game);
        generate(
            base,
            &[
                "--count",
                "2",
                "--format",
                "svg",
                "--out-dir",
                dir.to_str().unwrap(),
            ],
        );
        assert_eq!(
            files_in(&dir),
            expected_names(game, 2, solutions, "svg"),
            "{game}"
        );
        for name in files_in(&dir) {
            let text = fs::read_to_string(dir.join(&name)).unwrap();
            assert!(!text.contains("<text"), "{name}: text is drawn as outlines");
            let (w, h) = (mm_attr(&text, "width"), mm_attr(&text, "height"));
            assert!(
                (20.0..=500.0).contains(&w) && (20.0..=500.0).contains(&h),
                "{name}: {w} x {h} mm"
            );
            let tree = usvg::Tree::from_str(&text, &usvg::Options::default()).unwrap();
            // usvg measures in CSS pixels, 96 to the inch.
            let px = |mm: f64| mm * 96.0 / 25.4;
            assert!(
                (f64::from(tree.size().width()) - px(w)).abs() < 0.01,
                "{name}"
            );
            assert!(
                (f64::from(tree.size().height()) - px(h)).abs() < 0.01,
                "{name}"
            );
            assert!(shapes(tree.root()) > 10, "{name}: drawing content");
        }
        if solutions {
            for i in 0..2 {
                let a = fs::read(dir.join(format!("{game}-{i}.svg"))).unwrap();
                let b = fs::read(dir.join(format!("{game}-{i}-solution.svg"))).unwrap();
                assert_ne!(a, b, "{game} {i}: the solution shows more than the puzzle");
            }
        }
    }
}

#[test]
fn every_game_draws_png_at_the_asked_resolution() {
    let tmp = tempfile::tempdir().unwrap();
    let dpi = 150.0;
    for &(game, base, solutions) in GAMES {
        let svg_dir = tmp.path().join(format!("{game}-svg"));
        let png_dir = tmp.path().join(format!("{game}-png"));
        generate(
            base,
            &[
                "--count",
                "1",
                "--format",
                "svg",
                "--out-dir",
                svg_dir.to_str().unwrap(),
            ],
        );
        generate(
            base,
            &[
                "--count",
                "1",
                "--format",
                "png",
                "--dpi",
                "150",
                "--out-dir",
                png_dir.to_str().unwrap(),
            ],
        );
        assert_eq!(
            files_in(&png_dir),
            expected_names(game, 1, solutions, "png"),
            "{game}"
        );
        for name in files_in(&png_dir) {
            let svg = fs::read_to_string(svg_dir.join(name.replace(".png", ".svg"))).unwrap();
            let bytes = fs::read(png_dir.join(&name)).unwrap();
            let pix = Pixmap::decode_png(&bytes).unwrap();
            let want = |mm: f64| (mm * dpi / 25.4).round() as u32;
            assert_eq!(
                (pix.width(), pix.height()),
                (want(mm_attr(&svg, "width")), want(mm_attr(&svg, "height"))),
                "{name}"
            );
            // Not blank: dark ink on the white background, and no transparency.
            let px = pix.pixels();
            let dark = px
                .iter()
                .filter(|c| c.red() < 100 && c.green() < 100)
                .count();
            assert!(
                dark > px.len() / 500,
                "{name}: {dark} dark pixels of {}",
                px.len()
            );
            assert!(px.iter().all(|c| c.alpha() == 255), "{name}: opaque");
            assert_eq!(px[0].red(), 255, "{name}: white background");
            // The resolution is in the file (pHYs, pixels per metre: 150 dpi = 5905.5,
            // written 5906), so a layout program places it at its size in mm.
            let at = bytes
                .windows(4)
                .position(|w| w == b"pHYs")
                .expect("a pHYs chunk");
            let field =
                |k: usize| u32::from_be_bytes(bytes[at + 4 + k..at + 8 + k].try_into().unwrap());
            assert_eq!(
                (field(0), field(4), bytes[at + 12]),
                (5906, 5906, 1),
                "{name}"
            );
        }
    }
}

#[test]
fn same_seed_same_files_at_any_thread_count() {
    let tmp = tempfile::tempdir().unwrap();
    for format in ["svg", "png"] {
        let mut runs = Vec::new();
        for jobs in ["1", "2"] {
            let dir = tmp.path().join(format!("{format}-{jobs}"));
            let mut args = vec![
                "-j",
                jobs,
                "numbrix",
                "generate",
                "--size",
                "5",
                "--count",
                "5",
                "--seed",
                "3",
                "--format",
                format,
                "--out-dir",
            ];
            args.push(dir.to_str().unwrap());
            if format == "png" {
                args.extend(["--dpi", "96"]);
            }
            run_ok(&args);
            let files: Vec<(String, Vec<u8>)> = files_in(&dir)
                .into_iter()
                .map(|n| (n.clone(), fs::read(dir.join(n)).unwrap()))
                .collect();
            runs.push(files);
        }
        assert_eq!(runs[0].len(), 10);
        assert_eq!(runs[0], runs[1], "{format}");
    }
}

#[test]
fn indices_are_padded_to_the_last_one() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("out");
    run_ok(&[
        "flip",
        "generate",
        "--size",
        "4",
        "--first",
        "8",
        "--count",
        "3",
        "--format",
        "svg",
        "--out-dir",
        dir.to_str().unwrap(),
    ]);
    let names = files_in(&dir);
    assert_eq!(
        names,
        [
            "flip-08-solution.svg",
            "flip-08.svg",
            "flip-09-solution.svg",
            "flip-09.svg",
            "flip-10-solution.svg",
            "flip-10.svg"
        ]
    );
}

fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    files_in(dir)
        .into_iter()
        .map(|n| (n.clone(), fs::read(dir.join(n)).unwrap()))
        .collect()
}

#[test]
fn existing_files_are_kept_unless_forced() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("out");
    let d = dir.to_str().unwrap();
    let args = |seed: &'static str| {
        vec![
            "flip",
            "generate",
            "--size",
            "5",
            "--count",
            "2",
            "--seed",
            seed,
            "--format",
            "svg",
            "--out-dir",
            d,
        ]
    };
    run_ok(&args("1"));
    let before = snapshot(&dir);
    // One file of the second run is there already: nothing at all is written.
    fs::remove_file(dir.join("flip-0-solution.svg")).unwrap();
    let kept = snapshot(&dir);
    fails_with(&args("2"), None, "already exists");
    assert_eq!(snapshot(&dir), kept, "no file written or left behind");
    // With --force the files are replaced, and nothing else is left.
    let mut forced = args("2");
    forced.push("--force");
    run_ok(&forced);
    let after = snapshot(&dir);
    assert_eq!(after.len(), 4);
    assert_ne!(after, before, "another seed, other puzzles");
    // An unrelated file in the folder is never touched.
    fs::write(dir.join("notes.txt"), "mine").unwrap();
    let mut other = args("3");
    other[5] = "1";
    other.extend(["--first", "5", "--force"]);
    run_ok(&other);
    assert_eq!(fs::read_to_string(dir.join("notes.txt")).unwrap(), "mine");
    assert_eq!(files_in(&dir).len(), 7);
}

#[test]
fn bad_image_flags_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("out");
    let d = dir.to_str().unwrap();
    let f = tmp.path().join("f.jsonl");
    let fpath = f.to_str().unwrap();
    let base = ["flip", "generate", "--size", "4"];
    let cases: &[(&[&str], &str)] = &[
        (&["--format", "svg"], "--out-dir"),
        (&["--format", "png"], "--out-dir"),
        (&["--format", "svg", "--out", fpath], "--out-dir"),
        (
            &["--format", "png", "--dpi", "71", "--out-dir", d],
            "72 to 1200",
        ),
        (
            &["--format", "png", "--dpi", "1201", "--out-dir", d],
            "72 to 1200",
        ),
        (
            &["--format", "svg", "--dpi", "300", "--out-dir", d],
            "--dpi is for --format png",
        ),
        (&["--out-dir", d], "for --format svg and png"),
        (&["--format", "text", "--force"], "for --format svg and png"),
        (
            &["--format", "svg", "--count", "100001", "--out-dir", d],
            "at most 100000",
        ),
    ];
    for (extra, needle) in cases {
        let args: Vec<&str> = base.iter().chain(extra.iter()).copied().collect();
        fails_with(&args, None, needle);
    }
    assert!(!dir.exists() || files_in(&dir).is_empty());
    assert!(!f.exists());
    // A file where the folder should be.
    fs::write(&f, "x").unwrap();
    fails_with(
        &[
            "flip",
            "generate",
            "--size",
            "4",
            "--format",
            "svg",
            "--out-dir",
            fpath,
        ],
        None,
        "is not a folder",
    );
    // clap's own usage error for a non-number.
    let out = bin()
        .args([
            "flip", "generate", "--size", "4", "--format", "png", "--dpi", "high",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn ctrl_c_leaves_no_file() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("out");
    // Far too many large pictures to finish before the signal.
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("puzzlebook"))
        .args([
            "-j", "1", "-q", "numbrix", "generate", "--count", "5000", "--format", "png",
        ])
        .args(["--dpi", "600", "--out-dir", dir.to_str().unwrap()])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until some pictures are written in the hidden folder.
    let started = std::time::Instant::now();
    loop {
        let written = fs::read_dir(&dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| fs::read_dir(e.path()).ok())
            .any(|mut d| d.next().is_some());
        if written {
            break;
        }
        assert!(child.try_wait().unwrap().is_none(), "the run ended early");
        assert!(started.elapsed().as_secs() < 60, "no picture after 60 s");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    // The shell's built-in kill: no procps needed.
    std::process::Command::new("sh")
        .args(["-c", &format!("kill -INT {}", child.id())])
        .status()
        .unwrap();
    let done = child.wait_with_output().unwrap();
    let err = String::from_utf8(done.stderr).unwrap();
    assert_eq!(done.status.code(), Some(130), "{err}");
    assert!(err.contains("interrupted"), "{err}");
    // Nothing appears; the folder the run made is taken back, being empty.
    assert!(
        !dir.exists() || files_in(&dir).is_empty(),
        "{:?}",
        files_in(&dir)
    );
}
