//! The Slurm path for real: `deploy/slurm/test-local.sh` installs Debian's slurm-wlm,
//! starts slurmctld and slurmd on this machine, submits an array job and its dependent
//! merge, and compares the merged outputs with a single-machine run byte for byte.
//! It needs root and apt, so it runs only when asked: `PUZZLEBOOK_SLURM_TEST=1 cargo
//! test --release --test slurm`.

mod common;

#[test]
fn slurm_array_matches_a_single_run() {
    if std::env::var("PUZZLEBOOK_SLURM_TEST").as_deref() != Ok("1") {
        eprintln!("skipped: set PUZZLEBOOK_SLURM_TEST=1 to run the Slurm test (root, apt)");
        return;
    }
    let script = common::root().join("deploy/slurm/test-local.sh");
    let out = std::process::Command::new("bash")
        .arg(&script)
        .current_dir(common::root())
        .env("PUZZLEBOOK", assert_cmd::cargo::cargo_bin("puzzlebook"))
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("PASS"), "{text}");
}
