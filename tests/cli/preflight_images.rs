//! `puzzlebook preflight` on books whose every page is one picture, as image editors,
//! scanners and "save as PDF" from a PNG make them: the ink is where the picture's
//! pixels are not white and not transparent, not the image's whole box; and an image
//! preflight cannot decode is a warning, never a failure.

use crate::rawpdf;

use crate::common::*;
use lopdf::{dictionary, Document, Object, Stream};

/// A 6 x 9 in page at 50 pixels per inch: 300 x 450 pixels.
const W: usize = 300;
const H: usize = 450;

/// Pixels of `comps` components: `paper` everywhere, `ink` inside the box `margin`
/// pixels in from every edge.
fn picture(comps: usize, paper: &[u8], ink: &[u8], margin: usize) -> Vec<u8> {
    let mut v = Vec::with_capacity(W * H * comps);
    for y in 0..H {
        for x in 0..W {
            let inside = x >= margin && x < W - margin && y >= margin && y < H - margin;
            v.extend_from_slice(if inside { ink } else { paper });
        }
    }
    v
}

/// PNG "Up" predictor rows (what PNG-to-PDF converters write): each row starts with
/// filter byte 2 and holds its difference from the row above.
fn png_up(data: &[u8], row: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() + data.len() / row);
    for (i, r) in data.chunks(row).enumerate() {
        out.push(2);
        for (k, b) in r.iter().enumerate() {
            let above = if i == 0 { 0 } else { data[(i - 1) * row + k] };
            out.push(b.wrapping_sub(above));
        }
    }
    out
}

/// A 24-page book whose every page is the image `image` drawn over the whole trim.
fn book(mut image: Stream, doc: &mut Document) -> Vec<u8> {
    image.dict.set("Type", "XObject");
    image.dict.set("Subtype", "Image");
    image.dict.set("Width", W as i64);
    image.dict.set("Height", H as i64);
    let image = doc.add_object(image);
    let pages_id = doc.new_object_id();
    let content = doc.add_object(Stream::new(
        dictionary! {},
        b"q 432 0 0 648 0 0 cm /Im Do Q".to_vec(),
    ));
    let boxed = || -> Vec<Object> { vec![0.into(), 0.into(), 432.into(), 648.into()] };
    let kids: Vec<Object> = (0..24)
        .map(|_| {
            doc.add_object(dictionary! {
                "Type" => "Page", "Parent" => pages_id, "Contents" => content,
                "MediaBox" => boxed(), "TrimBox" => boxed(),
                "Resources" => dictionary! { "XObject" => dictionary! { "Im" => image } },
            })
            .into()
        })
        .collect();
    doc.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! { "Type" => "Pages", "Kids" => kids, "Count" => 24 }),
    );
    let root = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages_id });
    doc.trailer.set("Root", root);
    let mut out = Vec::new();
    doc.save_to(&mut out).unwrap();
    out
}

/// A Flate-compressed image with a PNG predictor.
fn flate_image(space: &str, comps: usize, pixels: &[u8]) -> Stream {
    let data = rawpdf::flate(&png_up(pixels, W * comps));
    Stream::new(
        dictionary! { "ColorSpace" => space, "BitsPerComponent" => 8,
        "Filter" => "FlateDecode",
        "DecodeParms" => dictionary! { "Predictor" => 15, "Colors" => comps as i64,
            "BitsPerComponent" => 8, "Columns" => W as i64 } },
        data,
    )
    .with_compression(false)
}

/// Exit status and the safe-area lines of preflight on `bytes`.
fn safe_area(bytes: &[u8]) -> (i32, Vec<String>, String) {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("in.pdf");
    std::fs::write(&f, bytes).unwrap();
    let out = bin()
        .args(["preflight", f.to_str().unwrap()])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let lines = text
        .lines()
        .filter(|l| l.contains("safe area"))
        .map(str::to_string)
        .collect();
    (out.status.code().unwrap_or(-1), lines, text)
}

#[test]
fn a_drawing_inside_white_margins_is_ink_only_where_it_is_drawn() {
    // Grey: the drawing 25 pixels (0.5 in) in from every edge passes every margin.
    let mut doc = Document::with_version("1.5");
    let img = flate_image("DeviceGray", 1, &picture(1, &[255], &[0], 25));
    let (code, lines, out) = safe_area(&book(img, &mut doc));
    assert!(lines.is_empty(), "{out}");
    assert_eq!(code, 0, "{out}");
    // 15 pixels (0.3 in) in: outside, top and bottom (0.25 in) pass; the gutter
    // (0.375 in) fails, on the left of odd pages and the right of even ones.
    let mut doc = Document::with_version("1.5");
    let img = flate_image("DeviceGray", 1, &picture(1, &[255], &[90], 15));
    let (code, lines, out) = safe_area(&book(img, &mut doc));
    assert_eq!(code, 1, "{out}");
    assert_eq!(
        lines,
        ["FAIL pages 1-24: ink outside the safe area on the inside (gutter) edge: 0.3 in from the trim, needs at least 0.375 in"],
        "{out}"
    );
    // CMYK: white is no ink at all (0 0 0 0); the drawing is black (K only).
    let mut doc = Document::with_version("1.5");
    let img = flate_image(
        "DeviceCMYK",
        4,
        &picture(4, &[0, 0, 0, 0], &[0, 0, 0, 255], 15),
    );
    let (_, lines, out) = safe_area(&book(img, &mut doc));
    assert_eq!(lines.len(), 1, "{out}");
    assert!(lines[0].contains("inside (gutter) edge: 0.3 in"), "{out}");
    // A page of nothing but white paper has no ink.
    let mut doc = Document::with_version("1.5");
    let img = flate_image("DeviceRGB", 3, &picture(3, &[255; 3], &[255; 3], 15));
    let (code, lines, out) = safe_area(&book(img, &mut doc));
    assert!(lines.is_empty() && code == 0, "{out}");
}

#[test]
fn transparent_pixels_are_not_ink() {
    // Black everywhere, but a soft mask makes all but the middle transparent (0.5 in
    // in from every edge): the page passes.
    let mut doc = Document::with_version("1.5");
    let alpha = flate_image("DeviceGray", 1, &picture(1, &[0], &[255], 25));
    let mut alpha = alpha;
    alpha.dict.set("Type", "XObject");
    alpha.dict.set("Subtype", "Image");
    alpha.dict.set("Width", W as i64);
    alpha.dict.set("Height", H as i64);
    let alpha = doc.add_object(alpha);
    let mut img = flate_image("DeviceRGB", 3, &picture(3, &[0; 3], &[0; 3], 0));
    img.dict.set("SMask", alpha);
    let (code, lines, out) = safe_area(&book(img, &mut doc));
    assert!(lines.is_empty(), "{out}");
    assert_eq!(code, 0, "{out}");
    // The same black image without its mask is ink to the edges: four failures.
    let mut doc = Document::with_version("1.5");
    let img = flate_image("DeviceRGB", 3, &picture(3, &[0; 3], &[0; 3], 0));
    let (code, lines, out) = safe_area(&book(img, &mut doc));
    assert_eq!(code, 1, "{out}");
    assert_eq!(lines.len(), 4, "{out}");
    for side in ["inside (gutter)", "outside", "top", "bottom"] {
        assert!(
            out.contains(&format!(
                "FAIL pages 1-24: ink outside the safe area on the {side} edge: 0 in from the trim"
            )),
            "{out}"
        );
    }
}

#[test]
fn images_that_cannot_be_decoded_warn_and_say_why() {
    // A JPEG: preflight does not decode JPEG, so its box is a warning per edge.
    let mut doc = Document::with_version("1.5");
    let img = Stream::new(
        dictionary! { "ColorSpace" => "DeviceRGB", "BitsPerComponent" => 8,
        "Filter" => "DCTDecode" },
        vec![0xff, 0xd8, 0xff, 0xd9],
    )
    .with_compression(false);
    let (code, lines, out) = safe_area(&book(img, &mut doc));
    assert_eq!(code, 0, "{out}");
    assert_eq!(lines.len(), 4, "{out}");
    assert!(
        lines.iter().all(|l| l.starts_with("WARN pages 1-24: an image whose pixels preflight cannot see (JPEG (DCTDecode) pixels are not decoded) covers the safe area")),
        "{out}"
    );
    // An image whose data stops short of its size is not guessed at either.
    let mut doc = Document::with_version("1.5");
    let img = Stream::new(
        dictionary! { "ColorSpace" => "DeviceGray", "BitsPerComponent" => 8 },
        vec![0; 100],
    )
    .with_compression(false);
    let (code, lines, out) = safe_area(&book(img, &mut doc));
    assert_eq!(code, 0, "{out}");
    assert!(
        lines
            .iter()
            .all(|l| l.starts_with("WARN") && l.contains("its data is shorter than its size")),
        "{out}"
    );
    assert_eq!(lines.len(), 4, "{out}");
}
