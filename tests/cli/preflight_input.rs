//! `puzzlebook preflight` on hostile input: files built byte by byte to make a PDF
//! reader allocate gigabytes or walk forever (object streams of huge arrays, a million
//! pages, a page named a million times, page-tree cycles, cross-reference streams that
//! claim billions of entries), and paths that are not files at all. Each must end fast
//! with one `error:` line and exit 1; the memory bound is checked under `ulimit -v`.

use crate::rawpdf;

use crate::common::*;
use rawpdf::*;
use std::time::{Duration, Instant};

/// Seconds a refusal may take on a shared 2-core machine (it takes well under one).
const FAST: Duration = Duration::from_secs(10);

fn write(dir: &tempfile::TempDir, name: &str, bytes: &[u8]) -> String {
    let p = dir.path().join(name);
    std::fs::write(&p, bytes).unwrap();
    p.to_str().unwrap().to_string()
}

/// Run preflight on `file`: it must exit 1 within [`FAST`] with exactly one `error:`
/// line containing `needle`, and print nothing on stdout.
fn refused(file: &str, needle: &str) {
    let t = Instant::now();
    let out = bin()
        .args(["preflight", file])
        .timeout(FAST * 3)
        .output()
        .unwrap();
    let took = t.elapsed();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "one line expected: {err}");
    assert!(err.starts_with("error: "), "{err}");
    assert!(err.contains(needle), "{err} should say {needle}");
    assert!(out.stdout.is_empty(), "{out:?}");
    assert!(took < FAST, "took {took:?}");
}

/// Six object streams whose one object each is an array of 7.9 million zeros: 16 MB
/// of text each, 16 KB compressed. lopdf would build 47 million values (5.7 GB).
fn array_bombs() -> Vec<u8> {
    let mut r = one_page("0 0 m");
    let mut text = String::with_capacity(16 << 20);
    text.push('[');
    for _ in 0..7_900_000 {
        text.push_str("0 ");
    }
    text.push(']');
    for k in 0..6u32 {
        r.objstm(10 + k, &[(20 + k, text.clone())]);
    }
    r.finish(1, "")
}

#[test]
fn object_streams_of_huge_arrays_are_refused_before_they_are_built() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = array_bombs();
    assert!(bytes.len() < 150_000, "{}", bytes.len());
    let f = write(&dir, "bombs.pdf", &bytes);
    refused(
        &f,
        "too large to check: an array of more than 262144 entries",
    );
    // Twenty arrays of 100,000 values each: every array within the bound, not all.
    let mut r = one_page("0 0 m");
    let text = format!("[{}]", "0 ".repeat(100_000));
    let objs: Vec<(u32, String)> = (0..20).map(|k| (20 + k, text.clone())).collect();
    r.objstm(10, &objs);
    let f = write(&dir, "many.pdf", &r.finish(1, ""));
    refused(&f, "too large to check: more than 1500000 PDF values");
    // One array of 10,000 values listed 1,000 times in its object stream's index:
    // lopdf builds it once per listing.
    let mut r = one_page("0 0 m");
    let body = format!("[{}]", "0 ".repeat(10_000));
    let head: String = (0..1000).map(|k| format!("{} 0 ", 20 + k)).collect();
    let data = flate(format!("{head}{body}").as_bytes());
    r.stream(
        10,
        &format!(
            "/Type /ObjStm /N 1000 /First {} /Filter /FlateDecode",
            head.len()
        ),
        &data,
    );
    let bytes = r.finish(1, "");
    assert!(bytes.len() < 10_000, "{}", bytes.len());
    let f = write(&dir, "listed.pdf", &bytes);
    refused(&f, "too large to check: more than 1500000 PDF values");
}

#[cfg(unix)]
#[test]
fn the_bound_holds_under_400_mb_of_address_space() {
    // Under `ulimit -v 400000` (about 400 MB of address space) the hostile file is
    // refused with one line, not aborted by a failed allocation (exit 134 before), and
    // a real book (36 pages, its pages checked) still passes.
    let dir = tempfile::tempdir().unwrap();
    let bomb = write(&dir, "bombs.pdf", &array_bombs());
    let book = dir.path().join("book.pdf");
    bin()
        .args(["book", "--out", book.to_str().unwrap()])
        .assert()
        .success();
    let exe = assert_cmd::cargo::cargo_bin("puzzlebook");
    let run = |file: &str| {
        std::process::Command::new("sh")
            .arg("-c")
            .arg(format!(
                "ulimit -v 400000 && exec '{}' preflight '{file}'",
                exe.display()
            ))
            .output()
            .unwrap()
    };
    let out = run(&bomb);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("too large to check"), "{err}");
    let out = run(book.to_str().unwrap());
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("KDP preflight passes"), "{text}");
}

#[test]
fn a_million_pages_is_refused_before_they_are_read() {
    // 1,000,000 page objects in 100 object streams, under 100 Pages nodes, listed by a
    // compressed cross-reference stream: about 3 MB of file.
    let pages = 1_000_000u32;
    let per = 10_000u32;
    let first_page = 1_000u32;
    let nodes = pages / per;
    let mut r = Raw::new();
    r.obj(1, "<< /Type /Catalog /Pages 2 0 R >>");
    let kids: Vec<String> = (0..nodes).map(|k| format!("{} 0 R", 3 + k)).collect();
    r.obj(
        2,
        &format!(
            "<< /Type /Pages /Kids [{}] /Count {pages} >>",
            kids.join(" ")
        ),
    );
    let mut entries: Vec<(u8, u32, u16)> = vec![(0, 0, 65535); (first_page + pages) as usize];
    let stm_base = first_page + pages;
    let mut node_objs = Vec::new();
    for k in 0..nodes {
        let lo = first_page + k * per;
        let kids: Vec<String> = (lo..lo + per).map(|p| format!("{p} 0 R")).collect();
        node_objs.push((
            3 + k,
            format!(
                "<< /Type /Pages /Parent 2 0 R /Kids [{}] /Count {per} >>",
                kids.join(" ")
            ),
        ));
        let objs: Vec<(u32, String)> = (lo..lo + per)
            .map(|p| {
                (
                    p,
                    format!(
                        "<< /Type /Page /Parent {} 0 R /MediaBox [0 0 432 648] >>",
                        3 + k
                    ),
                )
            })
            .collect();
        r.objstm(stm_base + k, &objs);
        for (i, p) in (lo..lo + per).enumerate() {
            entries[p as usize] = (2, stm_base + k, i as u16);
        }
    }
    r.objstm(stm_base + nodes, &node_objs);
    for (i, (n, _)) in node_objs.iter().enumerate() {
        entries[*n as usize] = (2, stm_base + nodes, i as u16);
    }
    entries.resize((stm_base + nodes + 2) as usize, (0, 0, 0));
    for &(id, off) in &r.offsets {
        entries[id as usize] = (1, off as u32, 0);
    }
    let xref_id = stm_base + nodes + 1;
    let at = r.out.len() as u32;
    entries[xref_id as usize] = (1, at, 0);
    let bytes = r.finish_stream(xref_id, &entries, "/Root 1 0 R");
    assert!(bytes.len() < 12_000_000, "{}", bytes.len());
    let dir = tempfile::tempdir().unwrap();
    let f = write(&dir, "million.pdf", &bytes);
    refused(
        &f,
        "too large to check: a cross-reference stream of 1001102 entries",
    );
}

/// A document whose page tree is `kids` (object 2's Kids), with pages 3 and 4 and
/// another Pages node 5 (whose Kids are `node5`).
fn tree(kids: &str, count: u32, node5: &str) -> Vec<u8> {
    let mut r = Raw::new();
    r.obj(1, "<< /Type /Catalog /Pages 2 0 R >>");
    r.obj(
        2,
        &format!("<< /Type /Pages /Kids [{kids}] /Count {count} >>"),
    );
    for p in [3, 4] {
        r.obj(
            p,
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 432 648] /TrimBox [0 0 432 648] >>",
        );
    }
    r.obj(
        5,
        &format!("<< /Type /Pages /Parent 2 0 R /Kids [{node5}] /Count 1 >>"),
    );
    r.finish(1, "")
}

#[test]
fn page_trees_name_each_page_once_and_have_no_cycles() {
    let dir = tempfile::tempdir().unwrap();
    // One page named four times (a viewer would show four pages; it is one object).
    let f = write(
        &dir,
        "four.pdf",
        &tree("3 0 R 3 0 R 3 0 R 3 0 R", 4, "4 0 R"),
    );
    refused(&f, "its page tree names page 3 0 R more than once");
    // A node that is its own grandparent.
    let f = write(&dir, "cycle.pdf", &tree("3 0 R 5 0 R", 2, "2 0 R"));
    refused(
        &f,
        "its page tree has a cycle (node 2 0 R is reached twice)",
    );
    // One page named 1,000,000 times, in an object stream (6 MB of text, 10 KB here).
    let mut r = one_page("0 0 m");
    let many = "3 0 R ".repeat(1_000_000);
    r.objstm(
        9,
        &[(
            5,
            format!("<< /Type /Pages /Kids [{many}] /Count 1000000 >>"),
        )],
    );
    let bytes = r.finish(1, "");
    assert!(bytes.len() < 50_000, "{}", bytes.len());
    let f = write(&dir, "million-kids.pdf", &bytes);
    refused(
        &f,
        "too large to check: an array of more than 262144 entries",
    );
    // A well-formed tree of two nodes reads as its three pages, in order: the report
    // counts them (and fails the page count, not the tree).
    let bytes = tree("3 0 R 5 0 R 4 0 R", 2, "6 0 R");
    let out = bin()
        .args(["preflight", &write(&dir, "fine.pdf", &bytes)])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(text.contains("FAIL: 2 pages, KDP allows 24-828"), "{text}");
}

#[test]
fn cross_reference_streams_that_claim_too_much_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    // Two billion entries of zero bytes each (/W [0 0 0]): lopdf would insert them all.
    let r = one_page("0 0 m");
    let start = r.out.len();
    let mut out = r.out;
    out.extend_from_slice(
        format!(
            "99 0 obj\n<< /Type /XRef /Size 2000000000 /W [0 0 0] /Index [0 2000000000] /Root 1 0 R /Length 0 >>\nstream\n\nendstream\nendobj\nstartxref\n{start}\n%%EOF\n"
        )
        .as_bytes(),
    );
    let f = write(&dir, "zero-width.pdf", &out);
    refused(&f, "a cross-reference stream of 2000000000 entries");
    // Predictor rows of four billion columns: lopdf would allocate them first.
    let r = one_page("0 0 m");
    let start = r.out.len();
    let mut out = r.out;
    let data = flate(&[0u8; 64]);
    out.extend_from_slice(
        format!(
            "99 0 obj\n<< /Type /XRef /Size 5 /W [1 4 2] /Root 1 0 R /Filter /FlateDecode /DecodeParms << /Predictor 12 /Columns 4000000000 >> /Length {} >>\nstream\n",
            data.len()
        )
        .as_bytes(),
    );
    out.extend_from_slice(&data);
    out.extend_from_slice(format!("\nendstream\nendobj\nstartxref\n{start}\n%%EOF\n").as_bytes());
    let f = write(&dir, "columns.pdf", &out);
    refused(&f, "predictor rows of 4000000000 bytes");
    // Objects that overlap: a thousand entries all naming one 100 KB string object.
    let mut r = one_page("0 0 m");
    r.obj(5, &format!("({})", "x".repeat(100_000)));
    let off = r.offset(5);
    let size = 1_006;
    let mut x = format!("xref\n0 {size}\n0000000000 65535 f \n");
    for id in 1..size {
        let o = if id < 5 { r.offset(id) } else { off };
        x.push_str(&format!("{o:010} 00000 n \n"));
    }
    let start = r.out.len();
    let mut out = r.out;
    out.extend_from_slice(
        format!("{x}trailer\n<< /Size {size} /Root 1 0 R >>\nstartxref\n{start}\n%%EOF\n")
            .as_bytes(),
    );
    let f = write(&dir, "overlap.pdf", &out);
    refused(&f, "its objects take more than 16 MB to parse");
}

#[cfg(unix)]
#[test]
fn only_regular_files_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe.pdf");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path; mkfifo only creates a node.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    // Before, this blocked until a signal; now it is refused at once.
    refused(
        fifo.to_str().unwrap(),
        "pipe.pdf is a FIFO: preflight reads only regular files",
    );
    refused(
        dir.path().to_str().unwrap(),
        "is a folder: preflight reads only regular files",
    );
    refused("/dev/null", "/dev/null is a device");
    // A symbolic link the user names is followed to its file.
    let real = dir.path().join("real.pdf");
    std::fs::write(&real, one_page("0 0 m").finish(1, "")).unwrap();
    let link = dir.path().join("link.pdf");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let out = bin()
        .args(["preflight", link.to_str().unwrap()])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("FAIL: 1 page, KDP allows 24-828"), "{out:?}");
    // ... but not to a FIFO.
    let link = dir.path().join("to-pipe.pdf");
    std::os::unix::fs::symlink(&fifo, &link).unwrap();
    refused(link.to_str().unwrap(), "to-pipe.pdf is a FIFO");
}

#[cfg(unix)]
#[test]
fn a_closed_pipe_ends_the_report_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(&dir, "one.pdf", &one_page("0 0 m").finish(1, ""));
    // `| head -c 1`: the first byte arrives, the rest meets a closed pipe.
    let exe = assert_cmd::cargo::cargo_bin("puzzlebook");
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "'{}' preflight --json '{f}' | head -c 1",
            exe.display()
        ))
        .output()
        .unwrap();
    assert_eq!(out.stdout, b"{");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.is_empty(), "{err}");
    // The reader gone before anything is written (a pipe whose read end is closed
    // before the process starts): no panic, no error line, a quiet exit (status 0, as
    // every command has on a closed pipe).
    use std::os::fd::{FromRawFd, OwnedFd};
    let mut fds = [0; 2];
    // SAFETY: pipe fills two new descriptors; the read end is closed at once and the
    // write end is owned by `w` from here on.
    let w = unsafe {
        assert_eq!(libc::pipe(fds.as_mut_ptr()), 0);
        libc::close(fds[0]);
        OwnedFd::from_raw_fd(fds[1])
    };
    let out = std::process::Command::new(&exe)
        .args(["preflight", "--json", &f])
        .stdout(std::process::Stdio::from(w))
        .stderr(std::process::Stdio::piped())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.is_empty(), "{err}");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
}

/// Run preflight on `file` with a time limit; (exit status, stdout, seconds).
fn verdict(file: &str) -> (Option<i32>, String, f64) {
    let t = Instant::now();
    let out = bin()
        .args(["preflight", file])
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        t.elapsed().as_secs_f64(),
    )
}

#[test]
fn a_token_the_reader_cannot_take_never_hides_the_ink_after_it() {
    // A black page (the whole trim filled) behind a 23-digit number or a stray ')':
    // before, everything after the token was dropped and 24 black pages passed.
    let dir = tempfile::tempdir().unwrap();
    for (name, content, says) in [
        (
            "number",
            "q 12345678901234567890123 0 0 432 648 re f Q",
            "ink outside the safe area",
        ),
        (
            "paren",
            "q ) 0 0 432 648 re f Q",
            "its content cannot be read past byte 2 (a ')' that closes no string): nothing after it was checked",
        ),
        (
            "huge",
            "q 1000000000000000000000000000000000000000 0 0 432 648 re f Q",
            "beyond what a PDF reader holds",
        ),
    ] {
        let f = write(
            &dir,
            &format!("{name}.pdf"),
            &pages_drawing(24, &[content.as_bytes().to_vec()], true),
        );
        let (code, out, _) = verdict(&f);
        assert_eq!(code, Some(1), "{name}: {out}");
        assert!(out.contains("FAIL pages 1-24") && out.contains(says), "{name}: {out}");
        assert!(!out.contains("preflight passes"), "{name}: {out}");
    }
}

#[test]
fn millions_of_operators_take_bounded_memory_and_shared_content_runs_once() {
    // 3.99 million `n` (an 8 KB file): 2.26 GB and 5 s a page before; 24 pages sharing
    // it took 68 s.
    let dir = tempfile::tempdir().unwrap();
    let ops = b"n\n".repeat(3_990_000);
    let one = write(
        &dir,
        "one.pdf",
        &pages_drawing(1, std::slice::from_ref(&ops), true),
    );
    let shared = write(
        &dir,
        "shared.pdf",
        &pages_drawing(24, std::slice::from_ref(&ops), true),
    );
    let exe = assert_cmd::cargo::cargo_bin("puzzlebook");
    for f in [&one, &shared] {
        // 150 MB of address space is plenty now.
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!(
                "ulimit -v 150000 && exec '{}' preflight '{f}'",
                exe.display()
            ))
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{f}: {:?} {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(text.contains("preflight"), "{text}");
    }
    let (_, _, secs) = verdict(&shared);
    assert!(secs < 10.0, "24 pages of shared content took {secs} s");
    // 24 pages, each its own 3.99 million operations: past the document's bound the
    // pages left are failed as not checked, with their own line.
    let own: Vec<Vec<u8>> = (0..24)
        .map(|k| [format!("% page {k}\n").into_bytes(), ops.clone()].concat())
        .collect();
    let each = write(&dir, "each.pdf", &pages_drawing(24, &own, false));
    let (code, out, secs) = verdict(&each);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("not checked: the pages before it run more than 40000000 operations in all"),
        "{out}"
    );
    assert!(secs < 30.0, "took {secs} s");
}

#[test]
fn a_stop_ends_preflight_of_a_heavy_file_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let ops = b"0 0 m\n".repeat(1_300_000);
    let own: Vec<Vec<u8>> = (0..24)
        .map(|k| [format!("% page {k}\n").into_bytes(), ops.clone()].concat())
        .collect();
    let f = write(&dir, "heavy.pdf", &pages_drawing(24, &own, false));
    let exe = assert_cmd::cargo::cargo_bin("puzzlebook");
    let child = std::process::Command::new(exe)
        .args(["preflight", &f])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(700));
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGTERM) }, 0);
    let t = Instant::now();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(143), "{out:?}");
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
}

#[test]
fn inline_images_and_unknown_operators_never_hide_the_ink_after_them() {
    // Black pages behind an ASCIIHex inline image whose end mark touches EI, and behind
    // an operator the reader does not know (inside BX/EX, as PDF allows): before, the
    // first was "an inline image without EI" and the second stopped the reading.
    let dir = tempfile::tempdir().unwrap();
    for (name, content) in [
        (
            "hex-image",
            "BI /W 2 /H 2 /BPC 8 /CS /G /F /AHx ID 00ff00ff>EI q 0 0 0 rg 0 0 432 648 re f Q",
        ),
        (
            "binary-image-with-EI-inside",
            "BI /W 4 /H 1 /BPC 8 /CS /G ID EI Q EI q 0 0 0 rg 0 0 432 648 re f Q",
        ),
        (
            "unknown-operator",
            "BX 1 2 my.op EX q 0 0 0 rg 0 0 432 648 re f Q",
        ),
    ] {
        let f = write(
            &dir,
            &format!("{name}.pdf"),
            &pages_drawing(24, &[content.as_bytes().to_vec()], true),
        );
        let (code, out, _) = verdict(&f);
        assert_eq!(code, Some(1), "{name}: {out}");
        assert!(
            out.contains("FAIL pages 1-24") && out.contains("ink outside the safe area"),
            "{name}: {out}"
        );
        assert!(!out.contains("cannot be read"), "{name}: {out}");
    }
}

#[test]
fn forms_drawn_inside_forms_count_every_operation_they_run() {
    // Five forms, each drawing the next 100 times: 10^10 operations from a 2 KB page.
    // The page's bound stops it within seconds, with its own line (before, forms were
    // run without a bound on the work they did).
    let mut r = Raw::new();
    r.obj(1, "<< /Type /Catalog /Pages 2 0 R >>");
    r.obj(2, "<< /Type /Pages /Kids [10 0 R] /Count 1 >>");
    r.stream(3, "", b"/F Do");
    for level in 0..5u32 {
        let id = 4 + level;
        let (data, res) = if level < 4 {
            (
                "/F Do ".repeat(100),
                format!("/Resources << /XObject << /F {} 0 R >> >>", id + 1),
            )
        } else {
            ("0 0 1 1 re f".to_string(), String::new())
        };
        r.stream(
            id,
            &format!("/Type /XObject /Subtype /Form /BBox [0 0 10 10] {res}"),
            data.as_bytes(),
        );
    }
    r.obj(
        10,
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 432 648] /TrimBox [0 0 432 648] /Contents 3 0 R /Resources << /XObject << /F 4 0 R >> >> >>",
    );
    let dir = tempfile::tempdir().unwrap();
    let f = write(&dir, "nested.pdf", &r.finish(1, ""));
    let (code, out, secs) = verdict(&f);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains(
            "FAIL page 1: the page cannot be checked: its content has more than 4000000 operations"
        ),
        "{out}"
    );
    assert!(secs < 15.0, "took {secs} s");
}
