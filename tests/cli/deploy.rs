//! The scheduler set-ups under deploy/, each put through its checker: the crontab line
//! runs as cron would run it (with flock refusing an overlapping run), the systemd
//! units pass `systemd-analyze verify`, the Kubernetes CronJob passes the Kubernetes
//! schema (`kubernetes-validate --strict`, which .ci/run installs from PyPI) and its
//! job file runs. The Slurm scrontab is accepted by a real slurmctld in
//! deploy/slurm/test-local.sh (the ignored Slurm test, which .ci/run runs); here its
//! schedule and options are read.

use crate::common::*;
use std::path::{Path, PathBuf};
use std::process::Command;

fn deploy(path: &str) -> PathBuf {
    root().join("deploy").join(path)
}

fn exe() -> PathBuf {
    assert_cmd::cargo::cargo_bin("puzzlebook")
}

/// A daily job like examples/daily.toml, small: its folder, the job file.
fn daily_job(dir: &Path) -> PathBuf {
    let jobs = dir.join("jobs");
    std::fs::create_dir_all(&jobs).unwrap();
    let job = jobs.join("daily.toml");
    std::fs::write(
        &job,
        r#"seed = "date"
out_dir = "../feed/{date}"
catalogue = "../catalogue.txt"
keep = 3
[[output]]
name = "flip-{date}"
kind = "images"
game = "flip"
count = 2
params = { size = 4 }
"#,
    )
    .unwrap();
    job
}

/// One cron time field: `*`, a number in range, a list, a range or a step.
fn cron_field_ok(f: &str, lo: u32, hi: u32) -> bool {
    f.split(',').all(|part| {
        let (base, step) = match part.split_once('/') {
            Some((b, s)) => (b, s.parse::<u32>().ok().filter(|&s| s >= 1)),
            None => (part, Some(1)),
        };
        let in_range = |s: &str| s.parse::<u32>().is_ok_and(|v| (lo..=hi).contains(&v));
        step.is_some()
            && (base == "*"
                || in_range(base)
                || base.split_once('-').is_some_and(|(a, b)| {
                    in_range(a)
                        && in_range(b)
                        && a.parse::<u32>().unwrap() <= b.parse::<u32>().unwrap()
                }))
    })
}

fn cron_schedule_ok(fields: &[&str]) -> bool {
    let ranges = [(0, 59), (0, 23), (1, 31), (1, 12), (0, 7)];
    fields.len() == 5
        && fields
            .iter()
            .zip(ranges)
            .all(|(f, (lo, hi))| cron_field_ok(f, lo, hi))
}

#[test]
fn the_cron_checker_knows_good_and_bad_schedules() {
    assert!(cron_schedule_ok(&["15", "2", "*", "*", "*"]));
    assert!(cron_schedule_ok(&["*/10", "1-5", "1,15", "*", "0"]));
    assert!(!cron_schedule_ok(&["60", "2", "*", "*", "*"]));
    assert!(!cron_schedule_ok(&["15", "24", "*", "*", "*"]));
    assert!(!cron_schedule_ok(&["15", "2", "*", "*"]));
    assert!(!cron_schedule_ok(&["5-1", "2", "*", "*", "*"]));
}

#[test]
fn the_crontab_line_runs_as_cron_runs_it_and_flock_refuses_an_overlap() {
    let Some(flock) = tools::require(&[&tools::FLOCK]) else {
        return;
    };
    let text = std::fs::read_to_string(deploy("cron/puzzlebook.crontab")).unwrap();
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#') && !l.contains('='))
        .collect();
    assert_eq!(lines.len(), 1, "one schedule line: {lines:?}");
    let fields: Vec<&str> = lines[0].split_whitespace().collect();
    assert!(cron_schedule_ok(&fields[..5]), "{}", lines[0]);
    let command = fields[5..].join(" ");
    assert!(command.starts_with("flock -n -E 75 "), "{command}");
    assert!(command.contains("--date tomorrow"), "{command}");
    // Run the line as cron would (sh -c, its PATH), with this machine's paths.
    let dir = tempfile::tempdir().unwrap();
    let job = daily_job(dir.path());
    let lock = dir.path().join("daily.lock");
    let log = dir.path().join("daily.log");
    let command = command
        .replace("/tmp/puzzlebook-daily.lock", lock.to_str().unwrap())
        .replace("/srv/puzzlebook/jobs/daily.toml", job.to_str().unwrap())
        .replace("/srv/puzzlebook/daily.log", log.to_str().unwrap());
    let path = format!(
        "{}:{}:/usr/local/bin:/usr/bin:/bin",
        exe().parent().unwrap().display(),
        flock[0].parent().unwrap().display()
    );
    let cron = || {
        Command::new("/bin/sh")
            .arg("-c")
            .arg(&command)
            .current_dir("/")
            .env_clear()
            .env("PATH", &path)
            .env("HOME", dir.path())
            .status()
            .unwrap()
    };
    assert!(cron().success());
    let logged = std::fs::read_to_string(&log).unwrap();
    assert!(logged.contains("done: 1 made"), "{logged}");
    assert_eq!(
        std::fs::read_dir(dir.path().join("feed")).unwrap().count(),
        1
    );
    // The second night's run while the first still holds the lock: status 75, nothing run.
    let held = std::fs::File::open(&lock).unwrap();
    held.lock().unwrap();
    assert_eq!(cron().code(), Some(75));
    assert_eq!(std::fs::read_to_string(&log).unwrap(), logged);
    drop(held);
    // Run again once the lock is free: up to date, nothing made twice.
    assert!(cron().success());
    assert!(std::fs::read_to_string(&log)
        .unwrap()
        .contains("done: 0 made, 1 up to date"));
}

#[test]
fn the_systemd_units_pass_systemd_analyze_verify() {
    let Some(tools) = tools::require(&[&tools::SYSTEMD_ANALYZE]) else {
        return;
    };
    let service = std::fs::read_to_string(deploy("systemd/puzzlebook-daily.service")).unwrap();
    let timer = std::fs::read_to_string(deploy("systemd/puzzlebook-daily.timer")).unwrap();
    assert!(timer.contains("\nPersistent=true\n"), "{timer}");
    assert!(timer.contains("\nOnCalendar="), "{timer}");
    assert!(service.contains("\nType=oneshot\n"), "{service}");
    assert!(
        service.contains("RestartPreventExitStatus=1 2"),
        "{service}"
    );
    // verify checks that ExecStart's program exists: point it at this build.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("puzzlebook-daily.service"),
        service.replace("/usr/local/bin/puzzlebook", exe().to_str().unwrap()),
    )
    .unwrap();
    std::fs::write(dir.path().join("puzzlebook-daily.timer"), &timer).unwrap();
    let verify = |files: &[&str]| {
        Command::new(&tools[0])
            .args(["verify", "--man=no"])
            .args(files)
            .current_dir(dir.path())
            .output()
            .unwrap()
    };
    let out = verify(&["puzzlebook-daily.timer", "puzzlebook-daily.service"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(!err.contains("puzzlebook-daily"), "warnings: {err}");
    // The checker has teeth: an unknown key is reported.
    std::fs::write(
        dir.path().join("bad.service"),
        "[Service]\nType=oneshot\nExecStart=/bin/true\nPersistant=true\n",
    )
    .unwrap();
    let out = verify(&["bad.service"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("Unknown key"));
}

/// `kubernetes-validate --strict` on `file` (`k8s` its path): whether it passed, and
/// what it printed.
fn k8s_check(k8s: &Path, file: &Path) -> (bool, String) {
    let out = Command::new(k8s)
        .args(["--strict", "--no-warn"])
        .arg(file)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr),
    )
}

#[test]
fn the_kubernetes_cronjob_passes_the_schema_and_its_job_file_runs() {
    let Some(k8s) = tools::require(&[&tools::KUBERNETES_VALIDATE]) else {
        return;
    };
    let k8s_check = |f: &Path| k8s_check(&k8s[0], f);
    let file = deploy("k8s/cronjob.yaml");
    let (ok, out) = k8s_check(&file);
    assert!(ok, "{out}");
    assert!(out.contains("cronjob/puzzlebook-daily"), "{out}");
    // The other manifests too (the sharded Indexed Job and its merge).
    for other in [
        "k8s/shards.yaml",
        "k8s/merge.yaml",
        "k8s/pvc.yaml",
        "k8s/job-config.yaml",
    ] {
        let (ok, out) = k8s_check(&deploy(other));
        assert!(ok, "{other}: {out}");
    }
    let text = std::fs::read_to_string(&file).unwrap();
    for needed in [
        "concurrencyPolicy: Forbid",
        "startingDeadlineSeconds:",
        "values: [1, 2]",
        "values: [75, 143]",
    ] {
        assert!(text.contains(needed), "{needed}");
    }
    // The checker has teeth: a field the schema does not know fails.
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.yaml");
    std::fs::write(
        &bad,
        text.replace(
            "  concurrencyPolicy: Forbid\n",
            "  concurrencyPolicy: Forbid\n  concurencyLimit: 1\n",
        ),
    )
    .unwrap();
    assert!(!k8s_check(&bad).0);
    // The ConfigMap's job file runs as the pod runs it: /job/daily.toml, data at /data.
    let start = text.find("  daily.toml: |\n").unwrap() + "  daily.toml: |\n".len();
    let body: String = text[start..]
        .lines()
        .take_while(|l| l.starts_with("    ") || l.is_empty())
        .map(|l| format!("{}\n", l.strip_prefix("    ").unwrap_or(l)))
        .collect();
    std::fs::create_dir_all(dir.path().join("job")).unwrap();
    std::fs::write(dir.path().join("job/daily.toml"), body).unwrap();
    let out = bin()
        .current_dir(dir.path().join("job"))
        .args(["run", "daily.toml", "--date", "2026-12-01", "--json-log"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(dir.path().join("data/feed/2026-12-01/index.json").is_file());
    assert!(dir.path().join("data/catalogue.txt").is_file());
}

#[test]
fn the_scrontab_line_has_a_schedule_and_sbatch_options() {
    let text = std::fs::read_to_string(deploy("slurm/puzzlebook.scrontab")).unwrap();
    let options: Vec<&str> = text.lines().filter(|l| l.starts_with("#SCRON ")).collect();
    assert!(options.iter().any(|o| o.contains("--time=")));
    assert!(options.iter().any(|o| o.contains("--signal=TERM@")));
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .collect();
    assert_eq!(lines.len(), 1, "{lines:?}");
    let fields: Vec<&str> = lines[0].split_whitespace().collect();
    assert!(cron_schedule_ok(&fields[..5]), "{}", lines[0]);
    assert_eq!(
        fields[5..8],
        ["puzzlebook", "run", "/srv/puzzlebook/jobs/daily.toml"]
    );
}

#[test]
fn the_sharded_cronjobs_driver_starts_shards_then_merge_with_one_date() {
    let Some(k8s) = tools::require(&[&tools::KUBERNETES_VALIDATE]) else {
        return;
    };
    let k8s_check = |f: &Path| k8s_check(&k8s[0], f);
    let file = deploy("k8s/cronjob-sharded.yaml");
    let (ok, out) = k8s_check(&file);
    assert!(ok, "{out}");
    assert!(out.contains("cronjob/puzzlebook-nightly"), "{out}");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.contains("concurrencyPolicy: Forbid") && text.contains("startingDeadlineSeconds:")
    );
    // The driver's script, as the pod runs it, with kubectl replaced by a recorder.
    let start = text.find("                - |\n").unwrap() + "                - |\n".len();
    let script: String = text[start..]
        .lines()
        .take_while(|l| l.starts_with("                  "))
        .map(|l| format!("{}\n", &l[18..]))
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let manifests = dir.path().join("manifests");
    let bin_dir = dir.path().join("bin");
    std::fs::create_dir_all(&manifests).unwrap();
    std::fs::create_dir_all(&bin_dir).unwrap();
    for m in ["shards.yaml", "merge.yaml"] {
        std::fs::copy(deploy(&format!("k8s/{m}")), manifests.join(m)).unwrap();
    }
    let calls = dir.path().join("calls.log");
    let kubectl = bin_dir.join("kubectl");
    std::fs::write(
        &kubectl,
        format!(
            "#!/bin/sh\necho \"$*\" >> {calls}\nif [ \"$1\" = apply ]; then cp \"$3\" {dir}/applied-$(basename \"$3\"); fi\n",
            calls = calls.display(),
            dir = dir.path().display()
        ),
    )
    .unwrap();
    let mut mode = std::fs::metadata(&kubectl).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut mode, 0o755);
    std::fs::set_permissions(&kubectl, mode).unwrap();
    // The script's own /tmp first: the test's folder is under /tmp too.
    let script = script
        .replace("/tmp/", &format!("{}/", dir.path().display()))
        .replace("/manifests/", &format!("{}/", manifests.display()));
    let out = Command::new("bash")
        .arg("-c")
        .arg(&script)
        .env("PATH", format!("{}:/usr/bin:/bin", bin_dir.display()))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let log = std::fs::read_to_string(&calls).unwrap();
    let verbs: Vec<&str> = log.lines().map(|l| l.split(' ').next().unwrap()).collect();
    assert_eq!(
        verbs,
        ["delete", "apply", "wait", "apply", "wait", "logs"],
        "{log}"
    );
    // Both Jobs get the same date, and still pass the schema.
    let today = String::from_utf8(
        Command::new("date")
            .args(["-u", "+%F"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    let today = today.trim();
    for m in ["shards.yaml", "merge.yaml"] {
        let applied = dir.path().join(format!("applied-{m}"));
        let yaml = std::fs::read_to_string(&applied).unwrap();
        assert!(
            yaml.contains(&format!("--date\", \"{today}\""))
                || yaml.contains(&format!("--date {today} ")),
            "{m}: {yaml}"
        );
        let (ok, out) = k8s_check(&applied);
        assert!(ok, "{m}: {out}");
    }
}
