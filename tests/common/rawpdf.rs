//! PDFs written byte by byte, for the preflight tests that need files no PDF library
//! would write: hostile object streams, page trees and cross-reference streams.
#![allow(dead_code)]

use flate2::write::ZlibEncoder;
use flate2::Compression;
use std::io::Write;

/// Zlib-compress `data` (FlateDecode).
pub fn flate(data: &[u8]) -> Vec<u8> {
    let mut e = ZlibEncoder::new(Vec::new(), Compression::best());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// A PDF being written: objects go out in order, their offsets noted.
pub struct Raw {
    pub out: Vec<u8>,
    /// (object number, offset)
    pub offsets: Vec<(u32, usize)>,
}

impl Default for Raw {
    fn default() -> Self {
        Self::new()
    }
}

impl Raw {
    pub fn new() -> Raw {
        Raw {
            out: b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n".to_vec(),
            offsets: Vec::new(),
        }
    }

    /// `id 0 obj body endobj`.
    pub fn obj(&mut self, id: u32, body: &str) {
        self.offsets.push((id, self.out.len()));
        self.out
            .extend_from_slice(format!("{id} 0 obj\n{body}\nendobj\n").as_bytes());
    }

    /// A stream object: `dict` holds everything but /Length.
    pub fn stream(&mut self, id: u32, dict: &str, data: &[u8]) {
        self.offsets.push((id, self.out.len()));
        self.out.extend_from_slice(
            format!("{id} 0 obj\n<< {dict} /Length {} >>\nstream\n", data.len()).as_bytes(),
        );
        self.out.extend_from_slice(data);
        self.out.extend_from_slice(b"\nendstream\nendobj\n");
    }

    /// An object stream holding `objects` (number, text), Flate-compressed.
    pub fn objstm(&mut self, id: u32, objects: &[(u32, String)]) {
        let mut head = String::new();
        let mut body = String::new();
        for (n, text) in objects {
            head.push_str(&format!("{n} {} ", body.len()));
            body.push_str(text);
            body.push('\n');
        }
        let data = flate(format!("{head}{body}").as_bytes());
        self.stream(
            id,
            &format!(
                "/Type /ObjStm /N {} /First {} /Filter /FlateDecode",
                objects.len(),
                head.len()
            ),
            &data,
        );
    }

    /// End with a classic cross-reference table of every object written, and a
    /// trailer with /Size, /Root `root` and `extra`.
    pub fn finish(mut self, root: u32, extra: &str) -> Vec<u8> {
        let size = self.offsets.iter().map(|o| o.0).max().unwrap_or(0) + 1;
        let mut table = vec![None; size as usize];
        for &(id, off) in &self.offsets {
            table[id as usize] = Some(off);
        }
        let start = self.out.len();
        let mut x = format!("xref\n0 {size}\n");
        for e in &table {
            match e {
                Some(off) => x.push_str(&format!("{off:010} 00000 n \n")),
                None => x.push_str("0000000000 65535 f \n"),
            }
        }
        x.push_str(&format!(
            "trailer\n<< /Size {size} /Root {root} 0 R {extra} >>\nstartxref\n{start}\n%%EOF\n"
        ));
        self.out.extend_from_slice(x.as_bytes());
        self.out
    }

    /// End with a cross-reference stream (object `id`) of `entries` (type, field 2,
    /// field 3) from object 0 on, widths 1 4 2, and `extra` in its dictionary.
    pub fn finish_stream(mut self, id: u32, entries: &[(u8, u32, u16)], extra: &str) -> Vec<u8> {
        let mut data = Vec::with_capacity(entries.len() * 7);
        for &(t, f2, f3) in entries {
            data.push(t);
            data.extend_from_slice(&f2.to_be_bytes());
            data.extend_from_slice(&f3.to_be_bytes());
        }
        let start = self.out.len();
        self.stream(
            id,
            &format!(
                "/Type /XRef /Size {} /W [1 4 2] /Filter /FlateDecode {extra}",
                entries.len()
            ),
            &flate(&data),
        );
        self.out
            .extend_from_slice(format!("startxref\n{start}\n%%EOF\n").as_bytes());
        self.out
    }

    /// The offset of object `id`.
    pub fn offset(&self, id: u32) -> u32 {
        self.offsets.iter().find(|o| o.0 == id).unwrap().1 as u32
    }
}

/// A one-page 6 x 9 in document body: catalog 1, pages 2, page 3 with `content`
/// (object 4). The caller adds more objects and finishes with root 1.
pub fn one_page(content: &str) -> Raw {
    let mut r = Raw::new();
    r.obj(1, "<< /Type /Catalog /Pages 2 0 R >>");
    r.obj(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>");
    r.obj(
        3,
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 432 648] /TrimBox [0 0 432 648] /Contents 4 0 R >>",
    );
    r.stream(4, "", content.as_bytes());
    r
}

/// `pages` 6 x 9 in pages (objects 3..) under catalog 1 and pages 2. `shared`: every
/// page draws the one content stream `contents[0]`; else page k draws `contents[k]`.
/// Contents are Flate-compressed.
pub fn pages_drawing(pages: u32, contents: &[Vec<u8>], shared: bool) -> Vec<u8> {
    let mut r = Raw::new();
    r.obj(1, "<< /Type /Catalog /Pages 2 0 R >>");
    let kids: Vec<String> = (0..pages).map(|k| format!("{} 0 R", 3 + k)).collect();
    r.obj(
        2,
        &format!(
            "<< /Type /Pages /Kids [{}] /Count {pages} >>",
            kids.join(" ")
        ),
    );
    let first_content = 3 + pages;
    for k in 0..pages {
        let c = if shared {
            first_content
        } else {
            first_content + k
        };
        r.obj(
            3 + k,
            &format!("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 432 648] /TrimBox [0 0 432 648] /Contents {c} 0 R >>"),
        );
    }
    let n = if shared { 1 } else { pages as usize };
    for (k, c) in contents.iter().take(n).enumerate() {
        r.stream(first_content + k as u32, "/Filter /FlateDecode", &flate(c));
    }
    r.finish(1, "")
}
