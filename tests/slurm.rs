//! The Slurm path for real: `deploy/slurm/test-local.sh` installs Debian's slurm-wlm,
//! starts slurmctld and slurmd on this machine, submits an array job and its dependent
//! merge, and compares the merged outputs with a single-machine run byte for byte.
//! It needs root, apt and about a minute, so it is ignored unless asked for (the test
//! count shows it as ignored): `cargo test --release --test slurm -- --ignored`.
//! `.ci/run` runs it after the main suite when time allows.

mod common;

#[test]
#[ignore = "needs root and apt (installs slurm-wlm): cargo test --release --test slurm -- --ignored"]
fn slurm_array_matches_a_single_run() {
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
