use super::*;
use lopdf::{dictionary, Stream};

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}

fn run(doc: &Document, content: &str, resources: Option<&Dictionary>) -> Page {
    let mut i = Interp::new(doc, IDENTITY);
    i.run(content.as_bytes(), resources, 0).unwrap();
    i.page
}

#[test]
fn ctm_concatenates_and_q_restores() {
    let doc = Document::with_version("1.5");
    // Scale 2 then move by (10, 20): the unit rectangle (1,1)-(2,2) goes to (12,22)-(14,24).
    let p = run(&doc, "q 2 0 0 2 10 20 cm 1 1 1 1 re f Q 0 0 5 5 re f", None);
    assert_eq!(p.marks.len(), 2);
    let r = p.marks[0].rect;
    assert!(close(r.x0, 12.0) && close(r.y0, 22.0) && close(r.x1, 14.0) && close(r.y1, 24.0));
    let r = p.marks[1].rect;
    assert!(
        close(r.x1, 5.0) && close(r.y1, 5.0),
        "Q restored the identity"
    );
}

#[test]
fn line_width_scales_with_the_ctm_and_white_is_not_ink() {
    let doc = Document::with_version("1.5");
    let p = run(&doc, "0.5 0 0 2 0 0 cm 1.2 w 0 0 m 10 0 l S", None);
    // The thinnest rendered width is 1.2 x the smaller scale 0.5.
    assert!(close(p.min_line.unwrap(), 0.6));
    let p = run(
        &doc,
        "1 g 0 0 100 100 re f 1 1 1 RG 0.1 w 0 0 m 9 9 l S",
        None,
    );
    assert!(p.marks.is_empty() && p.min_line.is_none());
    let p = run(&doc, "0 0 0 0 k 0 0 100 100 re f", None);
    assert!(p.marks.is_empty());
}

fn font_doc() -> (Document, Dictionary) {
    let mut doc = Document::with_version("1.5");
    // Widths: 'A' (65) is 500 units, 'B' 250; ascent 800, descent -200.
    let desc = doc.add_object(dictionary! {
        "Type" => "FontDescriptor", "Ascent" => 800, "Descent" => -200,
        "FontFile2" => doc_stream(),
    });
    let font = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "TrueType", "BaseFont" => "Test",
        "FirstChar" => 65, "Widths" => vec![500.into(), 250.into()],
        "FontDescriptor" => desc,
    });
    let res = dictionary! { "Font" => dictionary! { "F1" => font } };
    (doc, res)
}

fn doc_stream() -> Object {
    Object::Stream(Stream::new(dictionary! {}, vec![0u8; 4]))
}

#[test]
fn text_extents_come_from_the_widths() {
    let (doc, res) = font_doc();
    // 10 pt at (100, 200), scaled by 2 in the CTM: "AB" is (500 + 250)/1000 x 10 =
    // 7.5 text units wide, 2 (descent) below and 8 (ascent) above the baseline.
    let p = run(
        &doc,
        "2 0 0 2 0 0 cm BT /F1 10 Tf 100 200 Td (AB) Tj ET",
        Some(&res),
    );
    let r = p.marks[0].rect;
    assert_eq!(p.marks[0].kind, MarkKind::Text);
    assert!(close(r.x0, 200.0) && close(r.x1, 215.0), "{r:?}");
    assert!(close(r.y0, 396.0) && close(r.y1, 416.0), "{r:?}");
    assert!(close(p.min_text.unwrap(), 20.0));
    assert_eq!(
        p.fonts.get("Test"),
        Some(&FontFacts {
            embedded: true,
            type3: false
        })
    );
    // TJ moves by -n/1000 x size: "A" then 500 units back then "B": B starts at 0.
    let p = run(&doc, "BT /F1 10 Tf 0 0 Td [(A) 500 (B)] TJ ET", Some(&res));
    let r = p.marks[0].rect;
    assert!(close(r.x0, 0.0) && close(r.x1, 5.0), "{r:?}");
    // The text matrix scales the size: 3 Tf under a Tm of 2 is 6 pt.
    let p = run(&doc, "BT /F1 3 Tf 2 0 0 2 0 0 Tm (A) Tj ET", Some(&res));
    assert!(close(p.min_text.unwrap(), 6.0));
    // Invisible text (Tr 3) is not ink.
    let p = run(&doc, "BT 3 Tr /F1 3 Tf (A) Tj ET", Some(&res));
    assert!(p.marks.is_empty() && p.min_text.is_none());
}

#[test]
fn nested_forms_compose_their_matrices() {
    let mut doc = Document::with_version("1.5");
    let inner = doc.add_object(Stream::new(
        dictionary! { "Type" => "XObject", "Subtype" => "Form",
        "BBox" => vec![0.into(), 0.into(), 10.into(), 10.into()],
        "Matrix" => vec![1.into(), 0.into(), 0.into(), 1.into(), 5.into(), 0.into()] },
        b"0 0 1 1 re f".to_vec(),
    ));
    let outer = doc.add_object(Stream::new(
        dictionary! { "Type" => "XObject", "Subtype" => "Form",
        "Matrix" => vec![3.into(), 0.into(), 0.into(), 3.into(), 0.into(), 0.into()],
        "Resources" => dictionary! { "XObject" => dictionary! { "I" => inner } } },
        b"/I Do".to_vec(),
    ));
    let res = dictionary! { "XObject" => dictionary! { "O" => outer } };
    // Page CTM moves by (100, 0); outer scales by 3; inner moves by 5 first:
    // the unit square -> (5..6) x3 -> (15..18) +100 -> (115..118).
    let p = run(&doc, "1 0 0 1 100 0 cm /O Do 0 0 1 1 re f", Some(&res));
    let r = p.marks[0].rect;
    assert!(
        close(r.x0, 115.0) && close(r.x1, 118.0) && close(r.y1, 3.0),
        "{r:?}"
    );
    // The form's matrix does not leak out.
    let r = p.marks[1].rect;
    assert!(close(r.x0, 100.0) && close(r.x1, 101.0));
}

#[test]
fn a_form_that_draws_itself_stops_at_the_depth_bound() {
    let mut doc = Document::with_version("1.5");
    let id = doc.new_object_id();
    let form = Stream::new(
        dictionary! { "Subtype" => "Form",
        "Resources" => dictionary! { "XObject" => dictionary! { "X" => id } } },
        b"/X Do /X Do".to_vec(),
    );
    doc.objects.insert(id, Object::Stream(form));
    let res = dictionary! { "XObject" => dictionary! { "X" => id } };
    let mut i = Interp::new(&doc, IDENTITY);
    let e = i.run(b"/X Do", Some(&res), 0).unwrap_err();
    assert!(e.0.contains("nest deeper"), "{}", e.0);
}

#[test]
fn images_are_the_unit_square_and_report_their_space() {
    let mut doc = Document::with_version("1.5");
    let img = doc.add_object(Stream::new(
        dictionary! { "Subtype" => "Image", "Width" => 1, "Height" => 1,
        "ColorSpace" => "DeviceRGB", "BitsPerComponent" => 8 },
        vec![0, 0, 0],
    ));
    let res = dictionary! { "XObject" => dictionary! { "Im" => img } };
    let p = run(&doc, "72 0 0 36 10 10 cm /Im Do", Some(&res));
    let r = p.marks[0].rect;
    assert!(close(r.x0, 10.0) && close(r.x1, 82.0) && close(r.y1, 46.0));
    assert!(p.spaces.contains("DeviceRGB"));
    // One pixel across 72 pt (1 in) and 36 pt (0.5 in): 1 and 2 pixels per inch.
    assert!(close(p.min_ppi.unwrap(), 1.0));
    let p = run(&doc, "BI /W 1 /H 1 /BPC 8 /CS /DeviceGray ID x EI\n", None);
    assert_eq!(p.marks.len(), 1);
    assert!(p.spaces.contains("DeviceGray"));
    // One lopdf cannot parse (an abbreviated colour space) still counts as a mark.
    let p = run(
        &doc,
        "2 0 0 2 0 0 cm BI /W 1 /H 1 /BPC 8 /CS /G ID x EI\n",
        None,
    );
    assert_eq!(p.marks.len(), 1);
    assert!(close(p.marks[0].rect.x1, 2.0));
}

#[test]
fn scales_are_singular_values() {
    let (lo, hi) = scales(&[0.0, 2.0, -3.0, 0.0, 0.0, 0.0]);
    assert!(close(lo, 2.0) && close(hi, 3.0));
}
