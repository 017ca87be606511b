//! `puzzlebook preflight` on PDFs written by other programs: cairo (poppler's
//! pdftocairo), Ghostscript's pdfwrite, qpdf (linearized, object streams, encrypted
//! with and without a user password), img2pdf and Pillow (pages that are one picture).
//! Each file's verdict is written by hand below with the reason.
//!
//! The tools come from Debian packages that `.ci/run` installs (poppler-utils,
//! ghostscript, qpdf, img2pdf, python3-pil). Without them the test prints a note and
//! passes, unless CI is set: there a missing tool fails it.

use crate::common::*;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One file of the corpus and what preflight (KDP) must say of it.
struct Case {
    /// The file, in the corpus folder.
    file: &'static str,
    /// How it was made (for messages).
    made: &'static str,
    /// The exit status.
    exit: i32,
    /// Lines (or parts of lines) that must be in the report; `{N}` stands for the
    /// page count of our own book (read from its page tree here, not from preflight).
    says: &'static [&'static str],
    /// Text that must not be in the report.
    never: &'static [&'static str],
    /// Why this is the right verdict.
    why: &'static str,
}

const CORPUS: &[Case] = &[
    Case {
        file: "book.pdf",
        made: "puzzlebook book --template flip-6x9.toml",
        exit: 0,
        says: &["KDP preflight passes: 0 failures, 0 warnings ({N} pages, trim 6 x 9 in, bleed 0.125 in"],
        never: &["FAIL"],
        why: "our own 6 x 9 bleed book, greyscale with 0.75 pt lines: no warning",
    },
    Case {
        file: "linearized.pdf",
        made: "qpdf --linearize",
        exit: 0,
        says: &["KDP preflight passes: 0 failures, 0 warnings ({N} pages, trim 6 x 9 in, bleed 0.125 in"],
        never: &["FAIL"],
        why: "linearizing reorders objects and adds hint streams; the pages are the same",
    },
    Case {
        file: "object-streams.pdf",
        made: "qpdf --object-streams=generate",
        exit: 0,
        says: &["KDP preflight passes: 0 failures, 0 warnings ({N} pages, trim 6 x 9 in, bleed 0.125 in"],
        never: &["FAIL", "too large"],
        why: "objects moved into object streams behind a cross-reference stream: the same pages, read within the bounds",
    },
    Case {
        file: "ghostscript.pdf",
        made: "gs -sDEVICE=pdfwrite",
        exit: 0,
        says: &["KDP preflight passes: 0 failures, 0 warnings ({N} pages, trim 6 x 9 in, bleed 0.125 in"],
        never: &["FAIL", "no TrimBox"],
        why: "Ghostscript rewrites the content and fonts but keeps TrimBox and BleedBox",
    },
    Case {
        file: "cairo.pdf",
        made: "pdftocairo -pdf",
        exit: 0,
        says: &[
            "WARN pages 1-{N}: no TrimBox: the MediaBox, 6.125 x 9.25 in, is read as a 6 x 9 in trim with 0.125 in bleed",
            "KDP preflight passes: 0 failures, 2 warnings ({N} pages, trim 6 x 9 in, bleed 0.125 in",
        ],
        never: &["FAIL"],
        why: "cairo writes only a MediaBox (6.125 x 9.25 in is KDP's 6 x 9 with bleed: a warning) and turns the greys into RGB (a warning)",
    },
    Case {
        file: "encrypted-no-password.pdf",
        made: "qpdf --encrypt '' owner 256 --print=none",
        exit: 1,
        says: &[
            "FAIL: the file is encrypted (secured, though it opens without a password): print services need it unencrypted",
            "({N} pages, trim 6 x 9 in",
        ],
        never: &[],
        why: "owner-protected, printing forbidden: it opens (and its pages are checked) but print services reject secured files",
    },
    Case {
        file: "encrypted-rc4.pdf",
        made: "qpdf --allow-weak-crypto --encrypt '' owner 128 --use-aes=n --print=none",
        exit: 1,
        says: &["FAIL: the file is encrypted (secured, though it opens without a password)"],
        never: &[],
        why: "the older RC4 security handler: encrypted all the same",
    },
    Case {
        file: "encrypted-password.pdf",
        made: "qpdf --encrypt user owner 256",
        exit: 1,
        says: &[
            "FAIL: the file is encrypted and needs a password to open: print services need it unencrypted (nothing else was checked)",
            "KDP preflight FAILS: 1 failure, 0 warnings (its pages could not be read)",
        ],
        never: &["error:"],
        why: "a user password: nothing can be read without it, and the verdict says so (not \"no pages\")",
    },
    Case {
        file: "encrypted-object-streams.pdf",
        made: "qpdf --object-streams=generate --encrypt '' owner 256 --print=none",
        exit: 1,
        says: &["FAIL: the file is encrypted and keeps objects in object streams"],
        never: &[],
        why: "encrypted object streams cannot be counted before they are decrypted, so only the encryption is reported",
    },
    Case {
        file: "picture-0.5in.pdf",
        made: "img2pdf of 24 grey PNGs, 6 x 9 in at 300 ppi, a black box 0.5 in inside",
        exit: 0,
        says: &[
            "WARN pages 1-24: no TrimBox: the MediaBox, 6 x 9 in, is taken as the trim",
            "KDP preflight passes: 0 failures, 1 warning (24 pages, trim 6 x 9 in",
        ],
        never: &["safe area"],
        why: "the white margins of the picture are paper, not ink; the drawing is inside every margin",
    },
    Case {
        file: "picture-0.3in.pdf",
        made: "img2pdf of 24 grey PNGs, a black box 0.3 in inside",
        exit: 1,
        says: &["FAIL pages 1-24: ink outside the safe area on the inside (gutter) edge: 0.3 in from the trim, needs at least 0.375 in"],
        never: &["on the outside edge", "on the top edge", "on the bottom edge"],
        why: "0.3 in clears the 0.25 in outside, top and bottom margins but not the 0.375 in gutter",
    },
    Case {
        file: "pillow.pdf",
        made: "Pillow Image.save('x.pdf') of the 0.5 in PNG, 24 pages",
        exit: 0,
        says: &[
            "WARN pages 1-24: an image whose pixels preflight cannot see (JPEG (DCTDecode) pixels are not decoded) covers the safe area on the top edge",
            "KDP preflight passes: 0 failures, 5 warnings",
        ],
        never: &["FAIL"],
        why: "Pillow stores the picture as JPEG, which preflight does not decode: four warnings (one per edge), never a failure",
    },
];

/// An 8-bit grey PNG of `w` x `h` pixels at 300 ppi: white, with a black box `m`
/// pixels in from every edge.
fn png(w: u32, h: u32, m: u32) -> Vec<u8> {
    fn chunk(out: &mut Vec<u8>, kind: &[u8], data: &[u8]) {
        out.extend_from_slice(&(data.len() as u32).to_be_bytes());
        out.extend_from_slice(kind);
        out.extend_from_slice(data);
        let mut crc = flate2::Crc::new();
        crc.update(kind);
        crc.update(data);
        out.extend_from_slice(&crc.sum().to_be_bytes());
    }
    let mut raw = Vec::with_capacity(((w + 1) * h) as usize);
    for y in 0..h {
        raw.push(0); // filter: none
        for x in 0..w {
            let inside = x >= m && x < w - m && y >= m && y < h - m;
            raw.push(if inside { 0 } else { 255 });
        }
    }
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&w.to_be_bytes());
    ihdr.extend_from_slice(&h.to_be_bytes());
    ihdr.extend_from_slice(&[8, 0, 0, 0, 0]);
    chunk(&mut out, b"IHDR", &ihdr);
    let mut phys = Vec::new();
    let per_metre = 11_811u32; // 300 per inch
    phys.extend_from_slice(&per_metre.to_be_bytes());
    phys.extend_from_slice(&per_metre.to_be_bytes());
    phys.push(1);
    chunk(&mut out, b"pHYs", &phys);
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut z, &raw).unwrap();
    chunk(&mut out, b"IDAT", &z.finish().unwrap());
    chunk(&mut out, b"IEND", &[]);
    out
}

fn tool(dir: &Path, cmd: impl AsRef<std::ffi::OsStr>, args: &[&str]) {
    let cmd = cmd.as_ref();
    let out = Command::new(cmd)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{cmd:?} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Make every file of the corpus in `dir`.
fn make(dir: &Path, py: &Path) {
    let book = dir.join("book.pdf");
    bin()
        .args([
            "book",
            "--template",
            template("flip-6x9.toml").to_str().unwrap(),
            "--out",
            book.to_str().unwrap(),
        ])
        .assert()
        .success();
    let q = |args: &[&str]| tool(dir, "qpdf", args);
    q(&["--linearize", "book.pdf", "linearized.pdf"]);
    q(&[
        "--object-streams=generate",
        "book.pdf",
        "object-streams.pdf",
    ]);
    let enc = ["owner", "256", "--print=none", "--"];
    q(&[
        &["--encrypt", ""][..],
        &enc,
        &["book.pdf", "encrypted-no-password.pdf"],
    ]
    .concat());
    q(&[
        &["--encrypt", "user"][..],
        &enc,
        &["book.pdf", "encrypted-password.pdf"],
    ]
    .concat());
    q(&[
        "--allow-weak-crypto",
        "--encrypt",
        "",
        "owner",
        "128",
        "--use-aes=n",
        "--print=none",
        "--",
        "book.pdf",
        "encrypted-rc4.pdf",
    ]);
    q(&[
        &["--object-streams=generate", "--encrypt", ""][..],
        &enc,
        &["book.pdf", "encrypted-object-streams.pdf"],
    ]
    .concat());
    tool(
        dir,
        "gs",
        &[
            "-q",
            "-dBATCH",
            "-dNOPAUSE",
            "-sDEVICE=pdfwrite",
            "-o",
            "ghostscript.pdf",
            "book.pdf",
        ],
    );
    tool(dir, "pdftocairo", &["-pdf", "book.pdf", "cairo.pdf"]);
    // Pictures: 6 x 9 in at 300 ppi (1800 x 2700), the box 150 or 90 pixels in.
    std::fs::write(dir.join("in-0.5.png"), png(1800, 2700, 150)).unwrap();
    std::fs::write(dir.join("in-0.3.png"), png(1800, 2700, 90)).unwrap();
    for (png, pdf) in [
        ("in-0.5.png", "picture-0.5in.pdf"),
        ("in-0.3.png", "picture-0.3in.pdf"),
    ] {
        let mut args = vec![png; 24];
        args.extend(["-o", pdf]);
        tool(dir, "img2pdf", &args);
    }
    tool(
        dir,
        py,
        &[
            "-c",
            "from PIL import Image; im = Image.open('in-0.5.png'); \
             im.save('pillow.pdf', save_all=True, append_images=[im] * 23, resolution=300)",
        ],
    );
}

#[test]
fn pdfs_from_other_programs_get_the_verdicts_written_here() {
    use tools::*;
    let Some(found) = require(&[&QPDF, &GHOSTSCRIPT, &PDFTOCAIRO, &IMG2PDF, &PILLOW]) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    make(dir.path(), &found[4]);
    let pages = lopdf::Document::load(dir.path().join("book.pdf"))
        .unwrap()
        .get_pages()
        .len();
    let mut wrong = Vec::new();
    for c in CORPUS {
        let f: PathBuf = dir.path().join(c.file);
        let out = bin()
            .args(["preflight", f.to_str().unwrap()])
            .output()
            .unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let code = out.status.code().unwrap_or(-1);
        let ok = code == c.exit
            && c.says
                .iter()
                .all(|s| text.contains(&s.replace("{N}", &pages.to_string())))
            && c.never.iter().all(|s| !text.contains(s));
        if !ok {
            wrong.push(format!(
                "{} ({}): expected exit {} because {}; got exit {code}:\n{text}",
                c.file, c.made, c.exit, c.why
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
