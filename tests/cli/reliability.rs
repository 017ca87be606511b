//! The reliability promises, tried on the real binary as a careless or hostile user
//! would: what sits at an output path is written into, never replaced; outputs never
//! overwrite each other or an input; signals stop a run within about a second and
//! leave nothing half-written; parts and manifests cannot be used to slip changed
//! data or other files past the tool; inputs of any size take bounded memory.

use crate::common::*;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn exe() -> PathBuf {
    assert_cmd::cargo::cargo_bin("puzzlebook")
}

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Run to completion with a time limit (a hang fails the test instead of blocking it).
fn run_limited(args: &[&str], stdin: Option<&[u8]>, limit: Duration) -> (i32, String, String) {
    let mut child = Command::new(exe())
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if let Some(bytes) = stdin {
        use std::io::Write;
        let mut w = child.stdin.take().unwrap();
        let bytes = bytes.to_vec();
        std::thread::spawn(move || {
            let _ = w.write_all(&bytes);
        });
    }
    let (code, out, err) = wait_limited(child, limit);
    (code.expect("finished in time"), out, err)
}

/// Wait for a child with a time limit; None (and the child killed) if it ran over.
fn wait_limited(mut child: Child, limit: Duration) -> (Option<i32>, String, String) {
    use std::io::Read;
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let t_out = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = out.read_to_end(&mut s);
        s
    });
    let t_err = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = err.read_to_end(&mut s);
        s
    });
    let start = Instant::now();
    let code = loop {
        if let Some(status) = child.try_wait().unwrap() {
            use std::os::unix::process::ExitStatusExt;
            break Some(status.code().unwrap_or(128 + status.signal().unwrap_or(0)));
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let out = String::from_utf8_lossy(&t_out.join().unwrap()).into_owned();
    let err = String::from_utf8_lossy(&t_err.join().unwrap()).into_owned();
    (code, out, err)
}

fn signal(child: &Child, sig: i32) {
    assert_eq!(unsafe { libc::kill(child.id() as i32, sig) }, 0);
}

fn spawn(args: &[&str]) -> Child {
    Command::new(exe())
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(p(path)).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
}

// ------------------------------------------------------------ what is at --out

#[test]
fn out_writes_through_a_symlink_and_keeps_it() {
    let d = tempfile::tempdir().unwrap();
    let real = d.path().join("real.jsonl");
    std::fs::write(&real, "old\n").unwrap();
    let link = d.path().join("link.jsonl");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let (code, _, err) = run_limited(
        &["flip", "generate", "--size", "3", "--out", p(&link)],
        None,
        Duration::from_secs(20),
    );
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(std::fs::read_to_string(&real)
        .unwrap()
        .starts_with("{\"game\":\"flip\""));
    assert_eq!(files_in(d.path()), ["link.jsonl", "real.jsonl"]);
}

#[test]
fn out_writes_into_a_fifo_and_leaves_it_a_fifo() {
    use std::os::unix::fs::FileTypeExt;
    let d = tempfile::tempdir().unwrap();
    let fifo = d.path().join("pipe");
    mkfifo(&fifo);
    // Hold the read end (opened without blocking) so the writer can open the FIFO;
    // read what arrived once it is done (two records fit in a pipe's buffer). A
    // writer that replaced the FIFO leaves this end empty instead of hanging the test.
    let mut reader = {
        use std::os::unix::fs::OpenOptionsExt;
        std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(&fifo)
            .unwrap()
    };
    let (code, _, err) = run_limited(
        &[
            "flip",
            "generate",
            "--size",
            "3",
            "--count",
            "2",
            "--out",
            p(&fifo),
        ],
        None,
        Duration::from_secs(20),
    );
    assert_eq!(code, 0, "{err}");
    let mut got = String::new();
    use std::io::Read;
    let _ = reader.read_to_string(&mut got);
    assert_eq!(got.lines().count(), 2, "{got}");
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo());
    assert_eq!(files_in(d.path()), ["pipe"]);
}

#[test]
fn out_writes_into_a_character_device_and_leaves_it_a_device() {
    use std::os::unix::fs::FileTypeExt;
    // A private copy of /dev/null (major 1, minor 3), so no test ever writes near the
    // real one; making a device node needs root.
    if unsafe { libc::geteuid() } != 0 {
        eprintln!("skipped: making a device node needs root");
        return;
    }
    let d = tempfile::tempdir().unwrap();
    let null = d.path().join("null");
    let c = std::ffi::CString::new(p(&null)).unwrap();
    let made = unsafe { libc::mknod(c.as_ptr(), libc::S_IFCHR | 0o666, libc::makedev(1, 3)) };
    if made != 0 {
        eprintln!("skipped: this file system does not take device nodes");
        return;
    }
    let (code, _, err) = run_limited(
        &["flip", "generate", "--size", "3", "--out", p(&null)],
        None,
        Duration::from_secs(20),
    );
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::symlink_metadata(&null)
        .unwrap()
        .file_type()
        .is_char_device());
    assert_eq!(files_in(d.path()), ["null"]);
}

#[test]
fn out_may_not_be_a_folder() {
    let d = tempfile::tempdir().unwrap();
    let (code, _, err) = run_limited(
        &["flip", "generate", "--size", "3", "--out", p(d.path())],
        None,
        Duration::from_secs(20),
    );
    assert_eq!(code, 1);
    assert!(err.contains("is a folder"), "{err}");
}

// ------------------------------------------------------------ collisions

#[test]
fn outputs_that_collide_are_refused_before_anything_is_written() {
    let d = tempfile::tempdir().unwrap();
    let c = d.path().join("c.csv");
    std::fs::write(&c, "mine\n").unwrap();
    let bias = |extra: &[&str]| {
        let mut args = vec![
            "catan",
            "bias",
            "--samples",
            "1000",
            "--samplers",
            "direct",
            "--out",
            p(&c),
        ];
        args.extend_from_slice(extra);
        run_limited(&args, None, Duration::from_secs(30))
    };
    for extra in [["--summary", p(&c)], ["--report", p(&c)]] {
        let (code, _, err) = bias(&extra);
        assert_eq!(code, 1, "{extra:?}: {err}");
        assert!(err.contains("same file as --out"), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    // Through a link the collision is the same.
    let link = d.path().join("l.csv");
    std::os::unix::fs::symlink(&c, &link).unwrap();
    let (code, _, err) = bias(&["--summary", p(&link)]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(std::fs::read_to_string(&c).unwrap(), "mine\n");
    assert_eq!(files_in(d.path()), ["c.csv", "l.csv"]);

    // merge: --summary on --out.
    let part = d.path().join("b.part");
    let (code, _, err) = run_limited(
        &[
            "catan",
            "bias",
            "--samples",
            "1000",
            "--samplers",
            "direct",
            "--shard",
            "0/1",
            "--out",
            p(&part),
        ],
        None,
        Duration::from_secs(30),
    );
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run_limited(
        &["merge", "--out", p(&c), "--summary", p(&c), p(&part)],
        None,
        Duration::from_secs(30),
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("same file as --out"), "{err}");
    assert_eq!(std::fs::read_to_string(&c).unwrap(), "mine\n");
}

#[test]
fn book_out_may_not_be_its_template() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path().join("t.toml");
    let text = "title = \"T\"\n[[section]]\ngame = \"flip\"\ncount = 2\n";
    std::fs::write(&t, text).unwrap();
    let (code, _, err) = run_limited(
        &["book", "--template", p(&t), "--out", p(&t)],
        None,
        Duration::from_secs(30),
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("is the template"), "{err}");
    assert_eq!(std::fs::read_to_string(&t).unwrap(), text);
}

#[test]
fn a_job_output_may_not_be_its_own_job_file() {
    let d = tempfile::tempdir().unwrap();
    let job = d.path().join("j.toml");
    std::fs::write(
        &job,
        format!(
            "out_dir = \"{}\"\n[[output]]\nname = \"j.toml\"\nkind = \"items\"\ngame = \"flip\"\ncount = 1\nparams = {{ size = 3 }}\n",
            d.path().display()
        ),
    )
    .unwrap();
    let before = std::fs::read(&job).unwrap();
    let (code, _, err) = run_limited(&["run", p(&job)], None, Duration::from_secs(30));
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("is the job file"), "{err}");
    assert_eq!(std::fs::read(&job).unwrap(), before);
}

// ------------------------------------------------------------ signals

/// Start a long run writing to `out`, signal it after `after`, and return the exit
/// code and how long the stop took.
fn stop_run(args: &[&str], sig: i32, after: Duration) -> (i32, Duration, String, String) {
    let child = spawn(args);
    std::thread::sleep(after);
    signal(&child, sig);
    let t = Instant::now();
    let (code, out, err) = wait_limited(child, Duration::from_secs(10));
    (code.expect("stopped"), t.elapsed(), out, err)
}

#[test]
fn sigint_and_sigterm_stop_a_long_run_within_about_a_second() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("x.jsonl");
    for (sig, status) in [(libc::SIGINT, 130), (libc::SIGTERM, 143)] {
        let (code, took, _, err) = stop_run(
            &[
                "numbrix",
                "generate",
                "--count",
                "100000",
                "--seed",
                "3",
                "--out",
                p(&out),
            ],
            sig,
            Duration::from_millis(1500),
        );
        assert_eq!(code, status, "{err}");
        assert!(took < Duration::from_millis(1500), "took {took:?}");
        assert!(err.contains("interrupted"), "{err}");
        // Nothing final, nothing temporary.
        assert!(files_in(d.path()).is_empty(), "{:?}", files_in(d.path()));
    }
}

#[test]
fn a_stop_with_records_on_stdout_says_what_was_written() {
    let (code, _, out, err) = stop_run(
        &["numbrix", "generate", "--count", "100000", "--seed", "3"],
        libc::SIGINT,
        Duration::from_millis(1500),
    );
    assert_eq!(code, 130, "{err}");
    assert!(
        err.contains("already written to standard output are whole"),
        "{err}"
    );
    assert!(!err.contains("discarded"), "{err}");
    // Every line that came out is a whole record.
    for l in out.lines() {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        assert_eq!(v["game"], "numbrix");
    }
}

#[test]
fn a_killed_writers_temporary_file_is_removed_by_the_next_write() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("x.jsonl");
    let mut child = spawn(&[
        "numbrix",
        "generate",
        "--count",
        "100000",
        "--seed",
        "3",
        "--out",
        p(&out),
    ]);
    std::thread::sleep(Duration::from_millis(1000));
    child.kill().unwrap();
    child.wait().unwrap();
    let left = files_in(d.path());
    assert_eq!(left.len(), 1, "{left:?}");
    assert!(left[0].starts_with(".x.jsonl.tmp-"), "{left:?}");
    let (code, _, err) = run_limited(
        &["numbrix", "generate", "--count", "2", "--out", p(&out)],
        None,
        Duration::from_secs(30),
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(files_in(d.path()), ["x.jsonl"]);
}

// ------------------------------------------------------------ parts

#[test]
fn merge_refuses_an_edited_record_and_a_shard_rerun_remakes_a_cut_part() {
    let d = tempfile::tempdir().unwrap();
    let parts: Vec<PathBuf> = (0..2)
        .map(|k| {
            let part = d.path().join(format!("f.part{k}"));
            let (code, _, err) = run_limited(
                &[
                    "flip",
                    "generate",
                    "--size",
                    "4",
                    "--count",
                    "6",
                    "--shard",
                    &format!("{k}/2"),
                    "--out",
                    p(&part),
                ],
                None,
                Duration::from_secs(20),
            );
            assert_eq!(code, 0, "{err}");
            part
        })
        .collect();
    let text = std::fs::read_to_string(&parts[1]).unwrap();
    // One digit of one record (not the header) changed.
    let (head, body) = text.split_once('\n').unwrap();
    let edited = format!(
        "{head}\n{}",
        body.replacen("\"min_moves\":", "\"min_moves\":1", 1)
    );
    assert_ne!(edited, text);
    std::fs::write(&parts[1], &edited).unwrap();
    let merged = d.path().join("m.jsonl");
    let (code, _, err) = run_limited(
        &["merge", "--out", p(&merged), p(&parts[0]), p(&parts[1])],
        None,
        Duration::from_secs(20),
    );
    assert_eq!(code, 1, "{err}");
    // Whichever check meets it first: the record's own check, or the part's seal.
    assert!(
        err.contains("does not match the SHA-256") || err.contains("fails the game's check"),
        "{err}"
    );
    assert!(!merged.exists());

    // A part cut at a line boundary (a disk that filled, a copy that stopped) is not
    // "up to date" for a shard run of a job: it is made again.
    let job = d.path().join("j.toml");
    let out_dir = d.path().join("o");
    std::fs::write(
        &job,
        format!(
            "out_dir = \"{}\"\n[[output]]\nname = \"f.jsonl\"\nkind = \"items\"\ngame = \"flip\"\ncount = 40\nparams = {{ size = 4 }}\n",
            out_dir.display()
        ),
    )
    .unwrap();
    let shard = |want: &str| {
        let (code, _, err) = run_limited(
            &["run", p(&job), "--shard", "0/2"],
            None,
            Duration::from_secs(30),
        );
        assert_eq!(code, 0, "{err}");
        assert!(err.contains(want), "{want}: {err}");
    };
    shard("made f.jsonl");
    shard("up to date");
    let part = out_dir.join("parts").join("f.jsonl.part-0-of-2");
    let text = std::fs::read_to_string(&part).unwrap();
    let cut: String = text.lines().take(5).map(|l| format!("{l}\n")).collect();
    std::fs::write(&part, cut).unwrap();
    shard("made f.jsonl");
}

// ------------------------------------------------------------ verify

#[test]
fn verify_reads_only_regular_files_in_the_manifests_folder() {
    let d = tempfile::tempdir().unwrap();
    let secret = d.path().join("secret");
    std::fs::write(&secret, "do not tell").unwrap();
    let inner = d.path().join("m");
    std::fs::create_dir(&inner).unwrap();
    mkfifo(&inner.join("fifo"));
    std::os::unix::fs::symlink(&secret, inner.join("link")).unwrap();
    let entry = |file: &str| {
        serde_json::json!({"output": "o", "kind": "items", "file": file,
            "sha256": "0", "bytes": 11, "items": 1, "seconds": 0.0,
            "config_sha256": "0", "seed": 1})
    };
    let manifest = serde_json::json!({"tool": "puzzlebook", "version": "0", "job": "j",
        "job_sha256": "0", "seed": null,
        "outputs": [entry("../secret"), entry(p(&secret)), entry("fifo"), entry("link"),
                    entry("/dev/zero")]});
    let mpath = inner.join("manifest.json");
    std::fs::write(&mpath, manifest.to_string()).unwrap();
    let (code, out, err) = run_limited(&["verify", p(&mpath)], None, Duration::from_secs(10));
    assert_eq!(code, 1, "{err}");
    // No size or hash of anything outside, and no hang on the FIFO or /dev/zero.
    assert!(
        !out.contains("11 bytes") && !out.contains("SHA-256 "),
        "{out}"
    );
    assert_eq!(
        out.lines().filter(|l| l.starts_with("MISMATCH")).count(),
        5,
        "{out}"
    );
    assert!(
        out.contains("not a file name in the manifest's folder"),
        "{out}"
    );
    assert!(out.contains("not a regular file"), "{out}");
    let link = out
        .lines()
        .find(|l| l.ends_with("/m/link") || l.contains("/m/link:"));
    assert!(
        link.is_some_and(|l| l.contains("a symbolic link: refused, not followed")),
        "{out}"
    );
    // A manifest that is not a regular file is refused at once.
    let (code, _, err) = run_limited(&["verify", "/dev/zero"], None, Duration::from_secs(10));
    assert_eq!(code, 1, "{err}");
}

// ------------------------------------------------------------ bounded resources

#[test]
fn too_many_threads_are_capped_with_a_note() {
    let (code, out, err) = run_limited(
        &["-j", "100000", "flip", "generate", "--size", "3"],
        None,
        Duration::from_secs(10),
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("-j 100000 is more than 8 threads per core"),
        "{err}"
    );
    assert_eq!(out.lines().count(), 1);
}

/// Run under a memory limit (KiB of address space) with a time limit.
fn limited_memory(kib: u64, args: &str, stdin_cmd: &str) -> (Option<i32>, String) {
    let script = format!(
        "ulimit -v {kib}; {stdin_cmd} | exec '{}' {args}",
        exe().display()
    );
    let child = Command::new("bash")
        .args(["-c", &script])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (code, _, err) = wait_limited(child, Duration::from_secs(20));
    (code, err)
}

#[test]
fn endless_input_is_an_error_in_bounded_memory() {
    // Endless input: each solve reads a record at a time, and one record has a cap
    // (`yes` is one endless board; for JSON Lines, one endless line).
    for (cmd, input) in [
        ("flip solve", "yes"),
        ("numbrix solve", "yes"),
        ("carcassonne score", "yes '[' | tr -d '\\n'"),
    ] {
        let (code, err) = limited_memory(400_000, cmd, input);
        assert_eq!(code, Some(1), "{cmd}: {err}");
        assert!(err.contains("longer than 1048576 bytes"), "{cmd}: {err}");
        assert_eq!(err.lines().count(), 1, "{cmd}: {err}");
    }
    // A part that is /dev/zero: its first line never ends.
    let d = tempfile::tempdir().unwrap();
    let x = d.path().join("x");
    let (code, err) = limited_memory(400_000, &format!("merge --out {} /dev/zero", p(&x)), "true");
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("not a puzzlebook part file"), "{err}");
}

#[test]
fn an_address_space_too_small_to_run_in_is_one_line_not_an_abort() {
    // Under 78 MB the first failed allocation aborted (exit 134, "memory allocation
    // of 32 bytes failed") after a note that said one worker thread had room.
    for kib in [60_000, 80_000, 120_000] {
        let d = tempfile::tempdir().unwrap();
        let out = d.path().join("nb.jsonl");
        let (code, err) = limited_memory(
            kib,
            &format!("numbrix generate --size 12 --count 5 --out {}", p(&out)),
            "true",
        );
        assert_eq!(code, Some(1), "{kib} KiB: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains("is below the 144 MB puzzlebook needs to run"),
            "{err}"
        );
        assert!(!out.exists());
    }
    // At the floor the default book and the heaviest template's book are made, every
    // time. Before the C library's arenas were capped to the threads that fit, a thread
    // whose arena could not be mapped got a page per allocation, and about one run in
    // five aborted ("memory allocation of 2 bytes failed", exit 134).
    for template in ["default", "number-match"] {
        for _ in 0..3 {
            let d = tempfile::tempdir().unwrap();
            let book = d.path().join("b.pdf");
            let args = format!(
                "-q book --template {}/templates/{template}.toml --out {}",
                env!("CARGO_MANIFEST_DIR"),
                p(&book)
            );
            let (code, err) = limited_memory(147_456, &args, "true");
            assert_eq!(code, Some(0), "{template}: {err}");
            assert!(book.exists(), "{template}");
        }
    }
}

#[test]
fn a_book_count_past_any_book_is_refused_before_generating() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path().join("t.toml");
    std::fs::write(
        &t,
        "title = \"T\"\n[[section]]\ngame = \"flip\"\ncount = 18446744073709551615\n",
    )
    .unwrap();
    let (code, err) = limited_memory(
        400_000,
        &format!(
            "book --template {} --out {}",
            p(&t),
            p(&d.path().join("b.pdf"))
        ),
        "true",
    );
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("at most 828"), "{err}");
}

// ------------------------------------------------------------ clear errors

#[test]
fn the_last_index_can_be_generated() {
    let (code, out, err) = run_limited(
        &[
            "flip",
            "generate",
            "--size",
            "3",
            "--first",
            "18446744073709551615",
            "--count",
            "1",
        ],
        None,
        Duration::from_secs(10),
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["index"].as_u64(), Some(u64::MAX));
    let (code, _, err) = run_limited(
        &[
            "flip",
            "generate",
            "--size",
            "3",
            "--first",
            "18446744073709551615",
            "--count",
            "2",
        ],
        None,
        Duration::from_secs(10),
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("past the last index"), "{err}");
}

#[test]
fn job_file_errors_name_the_line_and_are_json_under_json_log() {
    let d = tempfile::tempdir().unwrap();
    let job = d.path().join("j.toml");
    std::fs::write(&job, "seed = 1\n[[output]]\nname = \"a\"\nname = \"b\"\n").unwrap();
    let (code, _, err) = run_limited(&["run", p(&job)], None, Duration::from_secs(10));
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("line 4") && err.contains("duplicate key"),
        "{err}"
    );
    let (code, _, err) = run_limited(
        &["run", p(&job), "--json-log"],
        None,
        Duration::from_secs(10),
    );
    assert_eq!(code, 1, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let v: serde_json::Value = serde_json::from_str(err.trim()).unwrap();
    assert_eq!(v["event"], "error");
    assert!(v["message"].as_str().unwrap().contains("line 4"), "{v}");
}

#[test]
fn out_dir_that_is_a_file_says_so() {
    let d = tempfile::tempdir().unwrap();
    let job = d.path().join("j.toml");
    std::fs::write(
        &job,
        "[[output]]\nname = \"f.jsonl\"\nkind = \"items\"\ngame = \"flip\"\ncount = 1\nparams = { size = 3 }\n",
    )
    .unwrap();
    let (code, _, err) = run_limited(
        &["run", p(&job), "--out-dir", p(&job)],
        None,
        Duration::from_secs(10),
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("is a file: name a folder"), "{err}");
    assert!(!err.contains("File exists"), "{err}");
}

#[test]
fn an_intro_too_long_for_its_page_is_refused() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path().join("t.toml");
    let intro = "word ".repeat(3000);
    std::fs::write(
        &t,
        format!("title = \"T\"\n[[section]]\ngame = \"flip\"\ncount = 2\nintro = \"{intro}\"\n"),
    )
    .unwrap();
    let out = d.path().join("b.pdf");
    let (code, _, err) = run_limited(
        &["book", "--template", p(&t), "--out", p(&out)],
        None,
        Duration::from_secs(30),
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("section 1: the intro takes"), "{err}");
    assert!(!out.exists());
}

#[test]
fn a_huge_bad_token_is_not_echoed() {
    let token = "7".repeat(500_000) + "x";
    let (code, _, err) = run_limited(
        &["numbrix", "solve"],
        Some(format!("1 {token}\n. .\n").as_bytes()),
        Duration::from_secs(20),
    );
    assert_eq!(code, 1, "{}", &err[..err.len().min(300)]);
    assert!(err.len() < 400, "{} bytes of error", err.len());
    assert!(err.contains("500001 characters"), "{err}");
}

#[test]
fn carcassonne_score_refuses_repeated_and_unknown_keys() {
    for (input, says) in [
        (
            "{\"landscape\":[[[2,1,1,0,1]]],\"landscape\":[[[2,1,1,0,1]]]}\n",
            "appears twice",
        ),
        (
            "{\"landscape\":[[[2,1,1,0,1]]],\"colour\":1}\n",
            "unknown key \"colour\"",
        ),
    ] {
        let (code, _, err) = run_limited(
            &["carcassonne", "score"],
            Some(input.as_bytes()),
            Duration::from_secs(10),
        );
        assert_eq!(code, 1, "{err}");
        assert!(err.contains(says), "{err}");
    }
}

#[test]
fn sample_counts_past_the_bound_are_refused_for_every_statistic() {
    for cmd in ["carcassonne stats", "number-match stats", "catan bias"] {
        let mut args: Vec<&str> = cmd.split(' ').collect();
        args.extend(["--samples", "1000000000000001"]);
        let (code, _, err) = run_limited(&args, None, Duration::from_secs(10));
        assert_eq!(code, 1, "{cmd}: {err}");
        assert!(
            err.contains("--samples is 1000000000000001: at most"),
            "{cmd}: {err}"
        );
    }
}

// ------------------------------------------------------------ round 3: inputs and owned names

/// A job file in `dir` writing into `dir` itself, with the given `[[output]]` tables.
fn job_in(dir: &Path, outputs: &str) -> PathBuf {
    let job = dir.join("j.toml");
    std::fs::write(&job, format!("out_dir = \"{}\"\n{outputs}", dir.display())).unwrap();
    job
}

const FLIP_ITEMS: &str = "kind = \"items\"\ngame = \"flip\"\ncount = 1\nparams = { size = 3 }\n";

/// A small book template in `dir`, its text returned.
fn small_template(path: &Path, extra: &str) -> String {
    let text = format!("title = \"T\"\n{extra}[[section]]\ngame = \"flip\"\ncount = 2\n");
    std::fs::write(path, &text).unwrap();
    text
}

#[test]
fn a_job_output_may_not_be_another_outputs_template_in_either_order() {
    for book_first in [false, true] {
        let d = tempfile::tempdir().unwrap();
        let t = d.path().join("t.toml");
        let text = small_template(&t, "");
        let items = format!("[[output]]\nname = \"t.toml\"\n{FLIP_ITEMS}");
        let book = format!(
            "[[output]]\nname = \"b.pdf\"\nkind = \"book\"\ntemplate = \"{}\"\n",
            t.display()
        );
        let outputs = if book_first {
            format!("{book}{items}")
        } else {
            format!("{items}{book}")
        };
        let job = job_in(d.path(), &outputs);
        let (code, _, err) = run_limited(&["run", p(&job)], None, Duration::from_secs(30));
        assert_eq!(code, 1, "book first {book_first}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains("t.toml") && err.contains("the template of 'b.pdf'"),
            "{err}"
        );
        assert_eq!(std::fs::read_to_string(&t).unwrap(), text);
        assert!(!d.path().join("b.pdf").exists());
    }
}

#[test]
fn a_job_output_may_not_be_a_templates_font() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path().join("t.toml");
    small_template(&t, "font = \"f.ttf\"\nbold_font = \"g.ttf\"\n");
    for font in ["f.ttf", "g.ttf"] {
        std::fs::write(d.path().join(font), "not really a font").unwrap();
        let job = job_in(
            d.path(),
            &format!(
                "[[output]]\nname = \"b.pdf\"\nkind = \"book\"\ntemplate = \"{}\"\n[[output]]\nname = \"{font}\"\n{FLIP_ITEMS}",
                t.display()
            ),
        );
        let (code, _, err) = run_limited(&["run", p(&job)], None, Duration::from_secs(30));
        assert_eq!(code, 1, "{err}");
        assert!(err.contains(font) && err.contains("font"), "{err}");
        assert_eq!(
            std::fs::read_to_string(d.path().join(font)).unwrap(),
            "not really a font"
        );
    }
}

#[test]
fn a_mask_or_a_font_read_by_a_command_is_never_its_output() {
    let d = tempfile::tempdir().unwrap();
    let mask = d.path().join("m.txt");
    std::fs::write(&mask, ".....\n.....\n.....\n.....\n.....\n").unwrap();
    let (code, _, err) = run_limited(
        &["numbrix", "generate", "--mask", p(&mask), "--out", p(&mask)],
        None,
        Duration::from_secs(30),
    );
    assert_eq!(code, 1, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("mask file"), "{err}");
    assert_eq!(
        std::fs::read_to_string(&mask).unwrap(),
        ".....\n.....\n.....\n.....\n.....\n"
    );
    // A link to the mask is the mask.
    let link = d.path().join("link.jsonl");
    std::os::unix::fs::symlink(&mask, &link).unwrap();
    let (code, _, err) = run_limited(
        &["numbrix", "generate", "--mask", p(&mask), "--out", p(&link)],
        None,
        Duration::from_secs(30),
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("mask file"), "{err}");
    // `book --out` may not be the template's font (nor its bold face).
    let t = d.path().join("t.toml");
    small_template(&t, "font = \"f.ttf\"\n");
    std::fs::write(d.path().join("f.ttf"), "font bytes").unwrap();
    let (code, _, err) = run_limited(
        &[
            "book",
            "--template",
            p(&t),
            "--out",
            p(&d.path().join("f.ttf")),
        ],
        None,
        Duration::from_secs(30),
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("font"), "{err}");
    assert_eq!(
        std::fs::read_to_string(d.path().join("f.ttf")).unwrap(),
        "font bytes"
    );
}

/// What a link planted in a job's output folder points to: a file outside that must
/// not change.
fn plant_link(dir: &Path, name: &str, outside: &Path) {
    std::fs::write(outside, "precious").unwrap();
    std::os::unix::fs::symlink(outside, dir.join(name)).unwrap();
}

#[test]
fn run_never_writes_through_a_link_in_its_output_folder() {
    for name in ["manifest.json", "a.jsonl", ".puzzlebook.lock", "parts"] {
        for shard in [false, true] {
            let d = tempfile::tempdir().unwrap();
            let elsewhere = tempfile::tempdir().unwrap();
            let outside = elsewhere.path().join("victim");
            let out = d.path().join("out");
            std::fs::create_dir(&out).unwrap();
            if name == "parts" {
                std::os::unix::fs::symlink(elsewhere.path(), out.join("parts")).unwrap();
                std::fs::write(&outside, "precious").unwrap();
            } else {
                plant_link(&out, name, &outside);
            }
            let job = d.path().join("j.toml");
            std::fs::write(
                &job,
                format!(
                    "out_dir = \"{}\"\n[[output]]\nname = \"a.jsonl\"\n{FLIP_ITEMS}",
                    out.display()
                ),
            )
            .unwrap();
            let mut args = vec!["run", p(&job)];
            if shard {
                args.extend(["--shard", "0/2"]);
            }
            let (code, _, err) = run_limited(&args, None, Duration::from_secs(30));
            if name == "manifest.json" && shard {
                // A shard run does not write the manifest: it may succeed, but
                // nothing outside changes either way.
                assert!(code == 0 || code == 1, "{err}");
            } else {
                assert_eq!(code, 1, "{name} shard {shard}: {err}");
                assert_eq!(err.lines().count(), 1, "{err}");
                assert!(err.contains(name), "{err}");
            }
            assert_eq!(
                std::fs::read_to_string(&outside).unwrap(),
                "precious",
                "{name}"
            );
            let names = files_in(elsewhere.path());
            assert_eq!(
                names,
                ["victim"],
                "{name} shard {shard}: wrote {names:?} outside"
            );
            assert!(std::fs::symlink_metadata(out.join(name))
                .unwrap()
                .file_type()
                .is_symlink());
        }
    }
}

#[test]
fn run_refuses_a_fifo_at_its_manifest_at_once() {
    let d = tempfile::tempdir().unwrap();
    mkfifo(&d.path().join("manifest.json"));
    let job = job_in(
        d.path(),
        &format!("[[output]]\nname = \"a.jsonl\"\n{FLIP_ITEMS}"),
    );
    let (code, _, err) = run_limited(&["run", p(&job)], None, Duration::from_secs(20));
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("manifest.json") && err.contains("not a regular file"),
        "{err}"
    );
}

#[test]
fn the_same_shard_run_twice_at_once_is_refused_naming_the_holder() {
    let d = tempfile::tempdir().unwrap();
    let job = job_in(
        d.path(),
        "[[output]]\nname = \"n.jsonl\"\nkind = \"items\"\ngame = \"numbrix\"\ncount = 30\nparams = { size = \"12\" }\n",
    );
    let first = spawn(&["-j", "1", "run", p(&job), "--shard", "0/2"]);
    // Wait until the first run holds its shard's lock.
    let lock = d.path().join(".puzzlebook.shard-0-of-2.lock");
    let t = Instant::now();
    while !std::fs::read_to_string(&lock).is_ok_and(|s| s.starts_with("process ")) {
        assert!(
            t.elapsed() < Duration::from_secs(20),
            "the first run never locked"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let (code, _, err) = run_limited(
        &["run", p(&job), "--shard", "0/2"],
        None,
        Duration::from_secs(20),
    );
    // 75: try again later (the other run holds the shard).
    assert_eq!(code, 75, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("shard 0/2") && err.contains(&format!("process {}", first.id())),
        "{err}"
    );
    // The other shard is not held up, and the first run is unharmed by the refusal.
    let (code, _, err) = run_limited(
        &["-j", "1", "run", p(&job), "--shard", "1/2"],
        None,
        Duration::from_secs(120),
    );
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = wait_limited(first, Duration::from_secs(120));
    assert_eq!(code, Some(0), "{err}");
    let (code, _, err) = run_limited(&["run", p(&job), "--merge"], None, Duration::from_secs(60));
    assert_eq!(code, 0, "{err}");
}

/// Run with standard output a pipe whose reading end is already closed: every write
/// fails as it would under `| head -1` once head has gone.
fn run_into_closed_pipe(args: &[&str]) -> (Option<i32>, String) {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let child = Command::new(exe())
        .args(args)
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn every_command_ends_quietly_on_a_closed_pipe() {
    let d = tempfile::tempdir().unwrap();
    let board = d.path().join("b.txt");
    std::fs::write(&board, "1 . 3\n. . .\n9 . .\n").unwrap();
    let catan = d.path().join("c.jsonl");
    std::fs::write(&catan, stdout_of(&["catan", "generate", "--count", "3"])).unwrap();
    let job = job_in(
        d.path(),
        &format!("[[output]]\nname = \"a.jsonl\"\n{FLIP_ITEMS}"),
    );
    let (code, _, err) = run_limited(&["run", p(&job)], None, Duration::from_secs(30));
    assert_eq!(code, 0, "{err}");
    let manifest = d.path().join("manifest.json");
    let csv = d.path().join("s.csv");
    let runs: Vec<Vec<&str>> = vec![
        vec!["flip", "generate", "--size", "3", "--count", "2000"],
        vec![
            "flip", "generate", "--size", "3", "--count", "20", "--format", "text",
        ],
        vec!["flip", "analyze", "--size", "3"],
        vec!["numbrix", "solve", p(&board)],
        vec!["catan", "balance", p(&catan)],
        vec!["carcassonne", "stats", "--samples", "20", "--out", p(&csv)],
        vec!["verify", p(&manifest)],
        vec!["--help"],
        vec!["--version"],
    ];
    for args in &runs {
        let (code, err) = run_into_closed_pipe(args);
        assert!(
            !err.contains("panicked") && !err.contains("Broken pipe"),
            "{args:?}: {err}"
        );
        assert_eq!(code, Some(0), "{args:?}: {err}");
    }
}

#[test]
fn refused_commands_leave_no_empty_folder_behind() {
    let d = tempfile::tempdir().unwrap();
    let in_dir = |args: &[&str]| -> (i32, String) {
        let out = Command::new(exe())
            .args(args)
            .current_dir(d.path())
            .stdin(Stdio::null())
            .output()
            .unwrap();
        (
            out.status.code().unwrap(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let refused: Vec<Vec<&str>> = vec![
        vec!["catan", "bias", "--samples", "0"],
        vec!["carcassonne", "stats", "--samples", "0"],
        vec!["book", "--template", "missing.toml"],
        vec![
            "flip",
            "generate",
            "--size",
            "3",
            "--count",
            "2",
            "--format",
            "png",
            "--dpi",
            "9999",
            "--out-dir",
            "new/deeper",
        ],
        vec![
            "numbrix",
            "generate",
            "--size",
            "99",
            "--count",
            "1",
            "--format",
            "svg",
            "--out-dir",
            "new/deeper",
        ],
    ];
    for args in &refused {
        let (code, err) = in_dir(args);
        assert_ne!(code, 0, "{args:?}: {err}");
        assert!(
            files_in(d.path()).is_empty(),
            "{args:?} left {:?}",
            files_in(d.path())
        );
    }
    // A folder that was there before is kept, empty or not.
    std::fs::create_dir(d.path().join("output")).unwrap();
    let (code, _) = in_dir(&["catan", "bias", "--samples", "0"]);
    assert_ne!(code, 0);
    assert_eq!(files_in(d.path()), ["output"]);
    // A job refused after its folder was made takes the folder back: here its items
    // output would be the font its book's template names.
    small_template(&d.path().join("t.toml"), "font = \"made/here/f.ttf\"\n");
    std::fs::write(
        d.path().join("j.toml"),
        format!(
            "out_dir = \"made/here\"\n[[output]]\nname = \"b.pdf\"\nkind = \"book\"\ntemplate = \"t.toml\"\n[[output]]\nname = \"f.ttf\"\n{FLIP_ITEMS}"
        ),
    )
    .unwrap();
    let (code, err) = in_dir(&["run", "j.toml"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("font"), "{err}");
    assert_eq!(files_in(d.path()), ["j.toml", "output", "t.toml"]);
}

#[test]
fn an_out_dir_that_is_not_a_folder_says_so() {
    let d = tempfile::tempdir().unwrap();
    let file = d.path().join("f");
    std::fs::write(&file, "x").unwrap();
    for dir in [
        "/dev/null".to_string(),
        p(&file).to_string(),
        format!("{}/below", p(&file)),
    ] {
        let (code, _, err) = run_limited(
            &[
                "flip",
                "generate",
                "--size",
                "3",
                "--count",
                "1",
                "--format",
                "svg",
                "--out-dir",
                &dir,
            ],
            None,
            Duration::from_secs(20),
        );
        assert_eq!(code, 1, "{err}");
        assert!(
            err.contains("is not a folder") && !err.contains("File exists"),
            "{err}"
        );
    }
}

#[test]
fn errors_name_the_line_and_key_and_never_echo_raw_or_huge_text() {
    let d = tempfile::tempdir().unwrap();
    // An error inside the second [[output]] table names the line the table starts on.
    let job = d.path().join("j.toml");
    std::fs::write(
        &job,
        "seed = 1\n\n[[output]]\nname = \"a.jsonl\"\nkind = \"items\"\ngame = \"flip\"\ncount = 1\nparams = { size = 3 }\n\n[[output]]\nname = \"b.jsonl\"\nkind = \"items\"\ngame = \"flip\"\ncount = 0\nparams = { size = 3 }\n",
    )
    .unwrap();
    fails_with(
        &["run", p(&job)],
        None,
        "line 10: output 'b.jsonl': count is 0",
    );
    // "duplicate key" says which key, in a job file and in a template.
    std::fs::write(
        &job,
        "[[output]]\nname = \"a.jsonl\"\nkind = \"items\"\ngame = \"flip\"\ncount = 1\ncount = 2\n",
    )
    .unwrap();
    fails_with(&["run", p(&job)], None, "line 6: duplicate key `count`");
    let t = d.path().join("t.toml");
    std::fs::write(
        &t,
        "title = \"A\"\ntitle = \"B\"\n[[section]]\ngame = \"flip\"\ncount = 2\n",
    )
    .unwrap();
    fails_with(
        &[
            "book",
            "--template",
            p(&t),
            "--out",
            p(&d.path().join("b.pdf")),
        ],
        None,
        "duplicate key `title`",
    );
    // verify cuts a manifest's huge file name.
    let long = "x".repeat(5040);
    let manifest = serde_json::json!({"tool": "puzzlebook", "version": "0", "job": "j",
        "job_sha256": "0", "seed": null,
        "outputs": [{"output": "o", "kind": "items", "file": long, "sha256": "0", "bytes": 1,
                     "items": 1, "seconds": 0.0, "config_sha256": "0", "seed": 1}]});
    let mpath = d.path().join("manifest.json");
    std::fs::write(&mpath, manifest.to_string()).unwrap();
    let (code, out, err) = run_limited(&["verify", p(&mpath)], None, Duration::from_secs(10));
    assert_eq!(code, 1, "{err}");
    assert!(
        out.len() < 300 && out.contains("(5040 characters)"),
        "{} bytes: {}",
        out.len(),
        &out[..200.min(out.len())]
    );
    // The same length in many short folder names is cut too.
    let deep = "ab/".repeat(1680);
    let manifest = manifest.to_string().replace(&long, &deep);
    std::fs::write(&mpath, manifest).unwrap();
    let (code, out, err) = run_limited(&["verify", p(&mpath)], None, Duration::from_secs(10));
    assert_eq!(code, 1, "{err}");
    assert!(
        out.len() < 300 && out.contains("(5040 characters)"),
        "{} bytes",
        out.len()
    );
}

#[test]
fn titles_and_headings_of_any_length_are_refused_with_the_size_that_fits_or_printed() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path().join("t.toml");
    let out = d.path().join("b.pdf");
    let mut refused = 0;
    for words in [1, 4, 12, 40, 500, 0] {
        // 0: one word of 150 letters, which no line can break.
        let w = if words == 0 {
            "W".repeat(150)
        } else {
            vec!["Word"; words].join(" ")
        };
        for size in ["5x8", "6x9", "8.5x11"] {
            for (field, line) in [
                ("title", format!("title = \"{w}\"\n")),
                (
                    "subtitle",
                    format!("title = \"T\"\nsubtitle = \"{w}\"\nauthor = \"A B\"\n"),
                ),
                (
                    "author",
                    format!("title = \"T\"\nauthor = \"{w}\"\npublisher = \"P\"\n"),
                ),
                ("publisher", format!("title = \"T\"\npublisher = \"{w}\"\n")),
                ("heading", "title = \"T\"\n".to_string()),
            ] {
                let heading = if field == "heading" {
                    format!("heading = \"{w}\"\n")
                } else {
                    String::new()
                };
                std::fs::write(
                    &t,
                    format!("{line}page_size = \"{size}\"\n[[section]]\ngame = \"flip\"\ncount = 2\n{heading}"),
                )
                .unwrap();
                let _ = std::fs::remove_file(&out);
                let (code, _, err) = run_limited(
                    &["-q", "book", "--template", p(&t), "--out", p(&out)],
                    None,
                    Duration::from_secs(30),
                );
                let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("error")).collect();
                assert!(
                    !err.contains("a bug"),
                    "{field} of {words} words at {size}: {err}"
                );
                if code == 0 {
                    assert!(out.exists());
                } else {
                    refused += 1;
                    assert_eq!(code, 1, "{err}");
                    assert_eq!(errors.len(), 1, "{err}");
                    assert!(!out.exists());
                    assert!(
                        errors[0].contains(if field == "heading" { "heading" } else { field })
                            || errors[0].contains("title"),
                        "{field}: {err}"
                    );
                }
                if words == 1 {
                    assert_eq!(code, 0, "{field} at {size}: {err}");
                }
                if words == 500 || words == 0 {
                    assert_eq!(code, 1, "{field} at {size}: {err}");
                }
            }
        }
    }
    assert!(refused > 10, "{refused}");
}

/// Run `args` under an address-space limit of `kib` KiB (`ulimit -v`).
fn under_ulimit(kib: u64, args: &[&str], dir: &Path) -> (Option<i32>, String) {
    let line = format!(
        "ulimit -v {kib} && exec {} {}",
        p(&exe()),
        args.iter()
            .map(|a| format!("'{a}'"))
            .collect::<Vec<_>>()
            .join(" ")
    );
    let child = Command::new("sh")
        .args(["-c", &line])
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (code, _, err) = wait_limited(child, Duration::from_secs(300));
    (code, err)
}

#[test]
fn large_pngs_and_many_threads_fit_a_400_mb_address_space() {
    let d = tempfile::tempdir().unwrap();
    // 1200 dpi: about 96 MB of pixels an image; one large image at a time.
    let (code, err) = under_ulimit(
        400_000,
        &[
            "-q",
            "flip",
            "generate",
            "--size",
            "6",
            "--count",
            "3",
            "--format",
            "png",
            "--dpi",
            "1200",
            "--out-dir",
            "png",
        ],
        d.path(),
    );
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(files_in(&d.path().join("png")).len(), 6);
    // -j 16 is lowered to the threads the limit leaves room for, with a note.
    let (code, err) = under_ulimit(
        400_000,
        &[
            "-q", "-j", "16", "numbrix", "generate", "--size", "16", "--count", "3", "--out",
            "n.jsonl",
        ],
        d.path(),
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("address-space limit") && err.contains("using 3"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(d.path().join("n.jsonl"))
            .unwrap()
            .lines()
            .count(),
        3
    );
    // Too little room for even one image: an error naming the size, no leftovers.
    // (A 149 MB picture cannot fit in the least address space puzzlebook runs in,
    // 144 MB, whatever the layout; the 93 MB one may or may not, by where glibc's
    // arenas land, so a limit there is no test.)
    let (code, err) = under_ulimit(
        147_456,
        &[
            "-q",
            "number-match",
            "generate",
            "--columns",
            "20",
            "--length",
            "200",
            "--count",
            "1",
            "--format",
            "png",
            "--dpi",
            "650",
            "--out-dir",
            "small",
        ],
        d.path(),
    );
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("not enough memory") && err.contains("lower --dpi"),
        "{err}"
    );
    assert!(!d.path().join("small").exists(), "{:?}", files_in(d.path()));
}

#[test]
fn a_dead_image_runs_temporary_folder_is_removed_by_the_next_run() {
    let d = tempfile::tempdir().unwrap();
    let dead = d
        .path()
        .join(".puzzlebook-images.tmp-999999-0123456789abcdef");
    std::fs::create_dir(&dead).unwrap();
    std::fs::write(dead.join(".lock"), "").unwrap();
    std::fs::write(dead.join("flip-0.png"), "half").unwrap();
    let (code, _, err) = run_limited(
        &[
            "-q",
            "flip",
            "generate",
            "--size",
            "3",
            "--count",
            "1",
            "--format",
            "svg",
            "--out-dir",
            p(d.path()),
        ],
        None,
        Duration::from_secs(20),
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(files_in(d.path()), ["flip-0-solution.svg", "flip-0.svg"]);
}

/// A part with line `k` (1 = the first record) passed through `edit` and its end line
/// sealed again, as someone who knows the format would forge it.
fn forge_part(part: &Path, k: usize, edit: impl Fn(&mut serde_json::Value)) {
    use sha2::{Digest, Sha256};
    let text = std::fs::read_to_string(part).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    lines.pop(); // the end line
    let mut v: serde_json::Value = serde_json::from_str(&lines[k]).unwrap();
    edit(&mut v);
    lines[k] = v.to_string();
    let body: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let sha: String = Sha256::digest(body.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let end = serde_json::json!({"puzzlebook_part_end": {"lines": lines.len(), "sha256": sha}});
    std::fs::write(part, format!("{body}{end}\n")).unwrap();
}

#[test]
fn merge_rechecks_every_record_even_in_a_resealed_part() {
    let d = tempfile::tempdir().unwrap();
    for (game, args, edit) in [
        (
            "flip",
            vec!["--size", "4"],
            Box::new(|v: &mut serde_json::Value| v["min_moves"] = 110.into())
                as Box<dyn Fn(&mut serde_json::Value)>,
        ),
        (
            "carcassonne",
            vec!["--tiles", "12"],
            Box::new(|v: &mut serde_json::Value| {
                v["score"] = (v["score"].as_u64().unwrap() + 1).into()
            }),
        ),
        (
            "numbrix",
            vec!["--size", "5"],
            // One solution number swapped with its neighbour's: no longer a path.
            Box::new(|v: &mut serde_json::Value| {
                let a = v["solution"][0][0].clone();
                v["solution"][0][0] = v["solution"][4][4].clone();
                v["solution"][4][4] = a;
            }),
        ),
    ] {
        let parts: Vec<PathBuf> = (0..2)
            .map(|k| {
                let part = d.path().join(format!("{game}.part{k}"));
                let mut a = vec![game, "generate", "--count", "4", "--shard"];
                let shard = format!("{k}/2");
                a.push(&shard);
                a.extend(&args);
                a.extend(["--out", p(&part)]);
                let (code, _, err) = run_limited(&a, None, Duration::from_secs(60));
                assert_eq!(code, 0, "{err}");
                part
            })
            .collect();
        let merged = d.path().join(format!("{game}.jsonl"));
        // Untouched parts merge.
        let (code, _, err) = run_limited(
            &["merge", "--out", p(&merged), p(&parts[0]), p(&parts[1])],
            None,
            Duration::from_secs(60),
        );
        assert_eq!(code, 0, "{err}");
        std::fs::remove_file(&merged).unwrap();
        forge_part(&parts[1], 2, edit);
        let (code, _, err) = run_limited(
            &["merge", "--out", p(&merged), p(&parts[0]), p(&parts[1])],
            None,
            Duration::from_secs(60),
        );
        assert_eq!(code, 1, "{game}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains("item 3 fails the game's check"),
            "{game}: {err}"
        );
        assert!(!merged.exists());
    }
}

#[test]
fn a_hard_link_at_a_lock_file_is_refused_and_the_file_outside_kept() {
    for (lock, shard) in [
        (".puzzlebook.lock", None),
        (".puzzlebook.shard-0-of-2.lock", Some("0/2")),
    ] {
        let d = tempfile::tempdir().unwrap();
        let out = d.path().join("out");
        std::fs::create_dir(&out).unwrap();
        let victim = d.path().join("victim");
        std::fs::write(&victim, "precious").unwrap();
        std::fs::hard_link(&victim, out.join(lock)).unwrap();
        let job = d.path().join("j.toml");
        std::fs::write(
            &job,
            format!(
                "out_dir = \"{}\"\n[[output]]\nname = \"a.jsonl\"\n{FLIP_ITEMS}",
                out.display()
            ),
        )
        .unwrap();
        let mut args = vec!["run", p(&job)];
        if let Some(s) = shard {
            args.extend(["--shard", s]);
        }
        let (code, _, err) = run_limited(&args, None, Duration::from_secs(30));
        assert_eq!(code, 1, "{lock}: {err}");
        assert!(err.contains(lock) && err.contains("hard links"), "{err}");
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    }
}

#[test]
fn a_failed_run_takes_back_the_folder_it_made_lock_and_all() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(
        d.path().join("j.toml"),
        format!("out_dir = \"made/here\"\n[[output]]\nname = \"a.jsonl\"\n{FLIP_ITEMS}"),
    )
    .unwrap();
    let out = Command::new(exe())
        .args(["run", "j.toml", "--merge"])
        .current_dir(d.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no parts"));
    assert_eq!(files_in(d.path()), ["j.toml"]);
}

#[test]
fn control_characters_in_any_message_are_escaped() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path().join("t.toml");
    // A NUL in a title (refused for want of a glyph), a NUL and an escape sequence in
    // an unknown game's name.
    for text in [
        "title = \"A\\u0000B\"\n[[section]]\ngame = \"flip\"\ncount = 2\n",
        "title = \"T\"\n[[section]]\ngame = \"fl\\u0000\\u001b[31mip\"\ncount = 2\n",
    ] {
        std::fs::write(&t, text).unwrap();
        let out = bin()
            .args([
                "book",
                "--template",
                p(&t),
                "--out",
                p(&d.path().join("b.pdf")),
            ])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.stderr.contains(&0u8) && !out.stderr.contains(&0x1bu8),
            "{err:?}"
        );
        assert!(err.contains("\\0") || err.contains("\\u{0}"), "{err:?}");
    }
    // On the command line: a newline and an escape sequence in a value clap quotes in
    // its usage error reached the terminal raw; now one line, escaped, exit 1.
    for args in [
        &["run", "j.toml", "--date", "2026\n\u{1b}[31m01"][..],
        &["flip", "generate", "--size", "3\n"][..],
    ] {
        let out = bin().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{err:?}");
        assert!(!out.stderr.contains(&0x1bu8), "{err:?}");
        assert!(
            err.contains("holds a control character") && err.contains("\\n"),
            "{err:?}"
        );
    }
}

// ------------------------------------------------------------ long loops (issue 46)

/// Start `args` in `dir`, send SIGTERM after `after`, and return the exit code, how
/// long the stop took and stderr.
fn term_in(dir: &Path, args: &[&str], after: Duration) -> (Option<i32>, Duration, String) {
    let child = Command::new(exe())
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(after);
    signal(&child, libc::SIGTERM);
    let t = Instant::now();
    let (code, _, err) = wait_limited(child, Duration::from_secs(30));
    (code, t.elapsed(), err)
}

/// A sparse file of `bytes` (no disk space taken): hashing it takes seconds.
fn sparse(path: &Path, bytes: u64) {
    std::fs::File::create(path).unwrap().set_len(bytes).unwrap();
}

#[test]
fn long_loops_stop_at_sigterm_well_before_the_watchdog() {
    let d = tempfile::tempdir().unwrap();
    // catan count of a tight rule set (half a minute of counting).
    let (code, took, err) = term_in(
        d.path(),
        &["catan", "count", "--rules", "max-cluster=3"],
        Duration::from_millis(1500),
    );
    assert_eq!(code, Some(143), "{err}");
    assert!(
        took < Duration::from_secs(2),
        "catan count took {took:?}: {err}"
    );
    // verify hashing a 40 GB file.
    sparse(&d.path().join("big.bin"), 40 << 30);
    std::fs::write(
        d.path().join("manifest.json"),
        format!(
            "{{\"tool\":\"puzzlebook\",\"version\":\"0\",\"job\":\"j\",\"job_sha256\":\"0\",\"seed\":null,\"outputs\":[{{\"output\":\"o\",\"kind\":\"items\",\"file\":\"big.bin\",\"sha256\":\"0\",\"bytes\":{},\"items\":1,\"seconds\":0.0,\"config_sha256\":\"0\",\"seed\":1}}]}}",
            40u64 << 30
        ),
    )
    .unwrap();
    let (code, took, err) = term_in(
        d.path(),
        &["verify", "manifest.json"],
        Duration::from_millis(500),
    );
    assert_eq!(code, Some(143), "{err}");
    assert!(took < Duration::from_secs(2), "verify took {took:?}: {err}");
    // A rerun whose up-to-date check hashes a 40 GB output.
    std::fs::write(
        d.path().join("j.toml"),
        "out_dir = \"out\"\n[[output]]\nname = \"f.jsonl\"\nkind = \"items\"\ngame = \"flip\"\ncount = 1\nparams = { size = 3 }\n",
    )
    .unwrap();
    let (code, _, err) = run_limited(
        &["run", p(&d.path().join("j.toml"))],
        None,
        Duration::from_secs(30),
    );
    assert_eq!(code, 0, "{err}");
    let out = d.path().join("out");
    let mpath = out.join("manifest.json");
    let m = std::fs::read_to_string(&mpath).unwrap();
    let bytes = std::fs::metadata(out.join("f.jsonl")).unwrap().len();
    sparse(&out.join("f.jsonl"), 40 << 30);
    std::fs::write(
        &mpath,
        m.replace(
            &format!("\"bytes\": {bytes},"),
            &format!("\"bytes\": {},", 40u64 << 30),
        ),
    )
    .unwrap();
    let (code, took, err) = term_in(d.path(), &["run", "j.toml"], Duration::from_millis(500));
    assert_eq!(code, Some(143), "{err}");
    assert!(
        took < Duration::from_secs(2),
        "the rerun took {took:?}: {err}"
    );
    assert_eq!(
        std::fs::metadata(out.join("f.jsonl")).unwrap().len(),
        40 << 30
    );
}

#[test]
fn catan_count_beyond_the_memory_it_may_have_is_one_line() {
    let d = tempfile::tempdir().unwrap();
    let (code, err) = under_ulimit(
        300_000,
        &["catan", "count", "--rules", "max-cluster=3"],
        d.path(),
    );
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("not enough memory"), "{err}");
}
