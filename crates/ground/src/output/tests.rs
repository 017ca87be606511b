use super::*;

fn dir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

fn names(d: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn a_symlink_target_is_written_through_and_kept() {
    let d = dir();
    let real = d.path().join("real.txt");
    fs::write(&real, "old").unwrap();
    let link = d.path().join("link.txt");
    std::os::unix::fs::symlink("real.txt", &link).unwrap();
    write_atomic(&link, b"new").unwrap();
    assert!(fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(fs::read_to_string(&real).unwrap(), "new");
    assert_eq!(names(d.path()), ["link.txt", "real.txt"]);
}

#[test]
fn a_fifo_is_written_into_not_replaced() {
    let d = dir();
    let fifo = d.path().join("pipe");
    // mkfifo(1), so that the crate's only unsafe code stays in Catan's bit deposit.
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || fs::read_to_string(fifo).unwrap())
    };
    write_atomic(&fifo, b"through the pipe").unwrap();
    assert_eq!(reader.join().unwrap(), "through the pipe");
    use std::os::unix::fs::FileTypeExt;
    assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
}

#[test]
fn dev_null_stays_a_device() {
    write_atomic(Path::new("/dev/null"), b"x").unwrap();
    use std::os::unix::fs::FileTypeExt;
    assert!(fs::metadata("/dev/null")
        .unwrap()
        .file_type()
        .is_char_device());
}

#[test]
fn folders_are_refused() {
    let d = dir();
    let e = write_atomic(d.path(), b"x").unwrap_err().to_string();
    assert!(e.contains("is a folder"), "{e}");
}

#[test]
fn temp_names_are_unpredictable_and_planted_links_are_not_followed() {
    let d = dir();
    let outside = dir();
    // Plant links under every name the old scheme would use.
    let victim = outside.path().join("victim");
    fs::write(&victim, "keep").unwrap();
    let planted = d
        .path()
        .join(format!(".out.txt.tmp-{}", std::process::id()));
    std::os::unix::fs::symlink(&victim, &planted).unwrap();
    let mut f = AtomicFile::create(&d.path().join("out.txt")).unwrap();
    f.write_all(b"data").unwrap();
    f.commit().unwrap();
    assert_eq!(fs::read_to_string(&victim).unwrap(), "keep");
    assert_eq!(
        fs::read_to_string(d.path().join("out.txt")).unwrap(),
        "data"
    );
    // The planted link is not ours to remove.
    assert!(fs::symlink_metadata(&planted).is_ok());
}

#[test]
fn dropped_and_stale_temporaries_are_removed_live_ones_kept() {
    let d = dir();
    let target = d.path().join("a.csv");
    drop(AtomicFile::create(&target).unwrap());
    assert!(names(d.path()).is_empty());
    // A dead writer's leftover (nobody holds its lock) goes on the next write;
    // a live writer's stays.
    fs::write(d.path().join(".a.csv.tmp-999999-0123456789abcdef"), "half").unwrap();
    let live_one = AtomicFile::create(&target).unwrap();
    assert_eq!(names(d.path()).len(), 1, "{:?}", names(d.path()));
    let other = AtomicFile::create(&target).unwrap();
    assert_eq!(names(d.path()).len(), 2);
    drop(live_one);
    drop(other);
    assert!(names(d.path()).is_empty());
}

#[test]
fn permissions_of_a_replaced_file_are_kept() {
    use std::os::unix::fs::PermissionsExt;
    let d = dir();
    let p = d.path().join("x");
    fs::write(&p, "old").unwrap();
    fs::set_permissions(&p, fs::Permissions::from_mode(0o640)).unwrap();
    write_atomic(&p, b"new").unwrap();
    assert_eq!(
        fs::metadata(&p).unwrap().permissions().mode() & 0o777,
        0o640
    );
}

#[test]
fn a_file_set_appears_whole_or_not_at_all() {
    let d = dir();
    let (a, b) = (d.path().join("a.csv"), d.path().join("b.csv"));
    fs::write(&a, "old a").unwrap();
    fs::write(&b, "old b").unwrap();
    {
        let mut set = FileSet::new();
        set.create(&a).unwrap().write_all(b"new a").unwrap();
        set.create(&b).unwrap().write_all(b"new b").unwrap();
        // Dropped before commit (as when a later write fails): nothing changes.
    }
    assert_eq!(fs::read_to_string(&a).unwrap(), "old a");
    assert_eq!(fs::read_to_string(&b).unwrap(), "old b");
    let mut set = FileSet::new();
    set.create(&a).unwrap().write_all(b"new a").unwrap();
    set.create(&b).unwrap().write_all(b"new b").unwrap();
    set.commit().unwrap();
    assert_eq!(fs::read_to_string(&b).unwrap(), "new b");
    assert_eq!(names(d.path()), ["a.csv", "b.csv"]);
}

#[test]
fn same_file_sees_through_spellings_and_links() {
    let d = dir();
    let a = d.path().join("a.csv");
    assert!(same_file(&a, &d.path().join(".").join("a.csv")));
    fs::write(&a, "").unwrap();
    let l = d.path().join("l.csv");
    std::os::unix::fs::symlink(&a, &l).unwrap();
    assert!(same_file(&a, &l));
    assert!(!same_file(&a, &d.path().join("b.csv")));
    assert!(!same_file(Path::new("/dev/null"), Path::new("/dev/null")));
    let e = check_distinct(&[("--out", &a), ("--summary", &l)], &[])
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("--summary") && e.contains("same file as --out"),
        "{e}"
    );
}
