//! The ink of an image: its pixels decoded, and the box of those that are neither white
//! nor transparent, in the image's unit square. A 6 x 9 in page saved as one image
//! with white margins is ink only where its drawing is.
//!
//! Decoded: 8-bit DeviceGray, DeviceRGB, DeviceCMYK (and CalGray, CalRGB, ICCBased
//! with 1, 3 or 4 components), 1-bit grey and image masks, uncompressed or through
//! FlateDecode, LZWDecode or ASCII85Decode with PNG or no predictors (lopdf's decoders,
//! with a byte cap), with a /SMask (8 or 1-bit grey alpha: 0 is transparent) or a
//! colour-key /Mask. Anything else (JPEG, JPEG 2000, JBIG2, CCITT, other colour
//! spaces or depths, a stencil /Mask) is [`Ink::Unseen`] with the reason: its whole
//! square is reported as a warning, never as a failure.

use super::scan;
use lopdf::{Dictionary, Document, Object, Stream};

/// Decoded bytes of one image (or one soft mask): 64 MiB, an 8.5 x 11 in page at
/// 600 ppi in grey, or at 400 ppi in CMYK.
pub(crate) const MAX_IMAGE_BYTES: usize = 64 << 20;
/// Decoded image bytes over a whole file (each image object once).
pub(crate) const MAX_FILE_IMAGE_BYTES: u64 = 512 << 20;

/// What an image puts on paper, in its unit square (x right, y up).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Ink {
    /// Every pixel is white or transparent.
    Blank,
    /// The box of the inked pixels: (x0, y0, x1, y1) within 0..1.
    Box(f64, f64, f64, f64),
    /// The pixels could not be looked at, and why.
    Unseen(&'static str),
}

/// The images decoded so far (each image object once) and the bytes spent.
#[derive(Debug, Default)]
pub struct Cache {
    /// Ink by image object.
    pub done: std::collections::HashMap<lopdf::ObjectId, Ink>,
    /// Decoded bytes so far.
    pub decoded: u64,
}

/// `o` with references followed (Null when one leads nowhere).
fn deref<'a>(doc: &'a Document, o: &'a Object) -> &'a Object {
    static NULL: Object = Object::Null;
    doc.dereference(o).map(|(_, o)| o).unwrap_or(&NULL)
}

/// `d[key]` with references followed.
fn get<'a>(doc: &'a Document, d: &'a Dictionary, key: &[u8]) -> Option<&'a Object> {
    d.get(key)
        .ok()
        .map(|o| deref(doc, o))
        .filter(|o| !matches!(o, Object::Null))
}

fn int(doc: &Document, d: &Dictionary, keys: &[&[u8]]) -> Option<i64> {
    keys.iter().find_map(|k| match get(doc, d, k) {
        Some(Object::Integer(i)) => Some(*i),
        _ => None,
    })
}

/// Components and whether a sample set is white, for an image colour space.
fn components(doc: &Document, cs: Option<&Object>) -> Result<(usize, bool), &'static str> {
    let Some(cs) = cs else {
        return Err("no colour space");
    };
    let name_of = |o: &Object| o.as_name().ok().map(<[u8]>::to_vec);
    let (head, arr) = match cs {
        Object::Array(a) => (a.first().map(|h| deref(doc, h)).and_then(name_of), Some(a)),
        o => (name_of(o), None),
    };
    match head.as_deref() {
        Some(b"DeviceGray" | b"G" | b"CalGray") => Ok((1, false)),
        Some(b"DeviceRGB" | b"RGB" | b"CalRGB") => Ok((3, false)),
        Some(b"DeviceCMYK" | b"CMYK") => Ok((4, true)),
        Some(b"ICCBased") => {
            let n = arr
                .and_then(|a| a.get(1))
                .map(|s| deref(doc, s))
                .and_then(|s| s.as_stream().ok())
                .and_then(|s| int(doc, &s.dict, &[b"N"]));
            match n {
                Some(1) => Ok((1, false)),
                Some(3) => Ok((3, false)),
                Some(4) => Ok((4, true)),
                _ => Err("an ICC profile of an unusual size"),
            }
        }
        Some(b"Indexed" | b"I") => Err("an Indexed colour space"),
        Some(b"Separation" | b"DeviceN") => Err("a spot-colour space"),
        Some(b"Lab") => Err("a Lab colour space"),
        _ => Err("an unknown colour space"),
    }
}

/// Why lopdf cannot decode these filters, or None when it can.
fn filter_problem(doc: &Document, d: &Dictionary) -> Option<&'static str> {
    let f = get(doc, d, b"Filter");
    let names: Vec<&[u8]> = match f {
        None => vec![],
        Some(Object::Name(n)) => vec![n],
        Some(Object::Array(a)) => a.iter().filter_map(|o| o.as_name().ok()).collect(),
        Some(_) => return Some("an unreadable /Filter"),
    };
    for n in names {
        match n {
            b"FlateDecode" | b"LZWDecode" | b"ASCII85Decode" => {}
            b"DCTDecode" => return Some("JPEG (DCTDecode) pixels are not decoded"),
            b"JPXDecode" => return Some("JPEG 2000 (JPXDecode) pixels are not decoded"),
            b"JBIG2Decode" => return Some("JBIG2 pixels are not decoded"),
            b"CCITTFaxDecode" => return Some("CCITT fax pixels are not decoded"),
            _ => return Some("its filter is not one preflight decodes"),
        }
    }
    None
}

/// Decode `s` as `w` x `h` samples of `comps` components at `bits` bits: its bytes.
fn samples(
    doc: &Document,
    s: &Stream,
    w: usize,
    h: usize,
    comps: usize,
    bits: usize,
    cache: &mut Cache,
) -> Result<(Vec<u8>, usize), &'static str> {
    if let Some(p) = filter_problem(doc, &s.dict) {
        return Err(p);
    }
    if scan::check_decode_parms(&s.dict).is_err() {
        return Err("its predictor rows are too large");
    }
    let row = (w * comps * bits).div_ceil(8);
    let need = row.checked_mul(h).ok_or("too many pixels to decode")?;
    if need > MAX_IMAGE_BYTES {
        return Err("more than 64 MB of pixels, past preflight's bound");
    }
    if cache.decoded + need as u64 > MAX_FILE_IMAGE_BYTES {
        return Err("past preflight's 512 MB of decoded images per file");
    }
    cache.decoded += need as u64;
    // lopdf applies /DecodeParms (predictors) with the filter.
    let data = s
        .get_plain_content_with_limit(need + h + 1024)
        .map_err(|_| "its data cannot be decoded")?;
    if data.len() < need {
        return Err("its data is shorter than its size");
    }
    Ok((data, row))
}

/// The ink of image `s` (an image XObject's stream, or an inline image's with its
/// keys spelt out).
pub fn ink(doc: &Document, s: &Stream, cache: &mut Cache) -> Ink {
    match decode(doc, s, cache) {
        Ok(i) => i,
        Err(why) => Ink::Unseen(why),
    }
}

/// Decode image `s`: the box of its ink, or why its pixels cannot be looked at.
fn decode(doc: &Document, s: &Stream, cache: &mut Cache) -> Result<Ink, &'static str> {
    let d = &s.dict;
    let (w, h) = image_size(doc, d)?;
    if w == 0 || h == 0 {
        return Ok(Ink::Blank);
    }
    if (w as u64) * (h as u64) > (MAX_IMAGE_BYTES as u64) * 8 {
        return Err("too many pixels to decode, past preflight's bound");
    }
    let mask = matches!(get(doc, d, b"ImageMask"), Some(Object::Boolean(true)));
    let decode_arr = decode_array(doc, d);
    let inverted = decode_arr.len() >= 2 && decode_arr[0] == 1.0 && decode_arr[1] == 0.0;
    let (comps, cmyk, bits) = if mask {
        (1, false, 1)
    } else {
        sample_format(doc, d, &decode_arr)?
    };
    let (data, row) = samples(doc, s, w, h, comps, bits, cache)?;
    let pixels = Pixels {
        w,
        h,
        data,
        row,
        comps,
        bits,
    };
    // Alpha: a soft mask (its own size, scaled over the image), or a colour key.
    let alpha = soft_mask(doc, d, cache)?;
    let key = colour_key(doc, d)?;
    let white = match (mask, cmyk) {
        (true, _) => White::Stencil { inverted },
        (false, true) => White::Zero,
        (false, false) => White::Full,
    };
    Ok(ink_box(&pixels, white, alpha.as_ref(), key.as_deref()))
}

/// An image's /Width and /Height.
fn image_size(doc: &Document, d: &Dictionary) -> Result<(usize, usize), &'static str> {
    let (Some(w), Some(h)) = (int(doc, d, &[b"Width"]), int(doc, d, &[b"Height"])) else {
        return Err("no width or height");
    };
    let (Ok(w), Ok(h)) = (usize::try_from(w), usize::try_from(h)) else {
        return Err("a negative size");
    };
    Ok((w, h))
}

/// An image's /Decode array (NaN for an entry that is not a number; empty without one).
fn decode_array(doc: &Document, d: &Dictionary) -> Vec<f64> {
    match get(doc, d, b"Decode") {
        Some(Object::Array(a)) => a
            .iter()
            .map(|o| match o {
                Object::Integer(i) => *i as f64,
                Object::Real(r) => f64::from(*r),
                _ => f64::NAN,
            })
            .collect(),
        _ => vec![],
    }
}

/// The components, whether they are CMYK, and the bits per component of an image
/// that is not a mask; an error for what preflight does not decode.
fn sample_format(
    doc: &Document,
    d: &Dictionary,
    decode_arr: &[f64],
) -> Result<(usize, bool, usize), &'static str> {
    let (c, k) = components(doc, get(doc, d, b"ColorSpace"))?;
    let bits = int(doc, d, &[b"BitsPerComponent"]).unwrap_or(0);
    match (bits, c) {
        (8, _) | (1, 1) => {}
        _ => return Err("a sample depth preflight does not decode"),
    }
    let default = decode_arr.is_empty()
        || decode_arr
            .chunks(2)
            .all(|p| p.len() == 2 && p[0] == 0.0 && p[1] == 1.0);
    if !default {
        return Err("a /Decode array");
    }
    Ok((c, k, bits as usize))
}

/// An image's decoded samples.
struct Pixels {
    /// Width in samples.
    w: usize,
    /// Height in samples (row 0 is the top).
    h: usize,
    /// The bytes, `row` to a row.
    data: Vec<u8>,
    /// Bytes per row.
    row: usize,
    /// Components per sample.
    comps: usize,
    /// Bits per component: 8, or 1 for one grey component or a mask.
    bits: usize,
}

impl Pixels {
    /// Component `c` of pixel (`x`, `y`); a 1-bit sample is 0 or 255.
    fn sample(&self, x: usize, y: usize, c: usize) -> u8 {
        if self.bits == 1 {
            let b = self.data[y * self.row + x / 8] >> (7 - x % 8) & 1;
            if b == 1 {
                255
            } else {
                0
            }
        } else {
            self.data[y * self.row + x * self.comps + c]
        }
    }

    /// Whether pixel (`x`, `y`) puts ink on paper, `white` saying which samples do not.
    fn inked(&self, x: usize, y: usize, white: White) -> bool {
        match white {
            // A stencil paints where the sample is 0 (1 with /Decode [1 0]).
            White::Stencil { inverted } => (self.sample(x, y, 0) == 0) != inverted,
            White::Zero => (0..4).any(|c| self.sample(x, y, c) != 0),
            White::Full => (0..self.comps).any(|c| self.sample(x, y, c) != 255),
        }
    }

    /// Whether pixel (`x`, `y`) falls in the colour-key ranges (min, max per component).
    fn keyed(&self, x: usize, y: usize, key: &[i64]) -> bool {
        (0..self.comps).all(|c| {
            let v = i64::from(self.sample(x, y, c));
            key.get(2 * c).is_some_and(|lo| *lo <= v)
                && key.get(2 * c + 1).is_some_and(|hi| v <= *hi)
        })
    }
}

/// Which samples leave the paper white.
#[derive(Clone, Copy)]
enum White {
    /// An image mask: samples of 1 (of 0 when `inverted` by /Decode [1 0]).
    Stencil {
        /// /Decode [1 0].
        inverted: bool,
    },
    /// CMYK: every component 0.
    Zero,
    /// Grey and RGB: every component 255.
    Full,
}

/// A decoded soft mask: the image's alpha, at its own size.
struct SoftMask {
    /// The bytes, `row` to a row.
    data: Vec<u8>,
    /// Bytes per row.
    row: usize,
    /// Width in samples.
    w: usize,
    /// Height in samples.
    h: usize,
    /// Bits per sample: 8 or 1.
    bits: usize,
}

impl SoftMask {
    /// Whether pixel (`x`, `y`) of a `w` x `h` image is transparent (alpha 0, the mask
    /// scaled over the image).
    fn clear(&self, x: usize, y: usize, w: usize, h: usize) -> bool {
        let (mx, my) = (x * self.w / w, y * self.h / h);
        let a = if self.bits == 1 {
            self.data[my * self.row + mx / 8] >> (7 - mx % 8) & 1
        } else {
            self.data[my * self.row + mx]
        };
        a == 0
    }
}

/// An image's /SMask decoded (8 or 1-bit grey), or None without one.
fn soft_mask(
    doc: &Document,
    d: &Dictionary,
    cache: &mut Cache,
) -> Result<Option<SoftMask>, &'static str> {
    let Some(m) = get(doc, d, b"SMask").and_then(|o| o.as_stream().ok()) else {
        return Ok(None);
    };
    let mw = int(doc, &m.dict, &[b"Width"]).and_then(|v| usize::try_from(v).ok());
    let mh = int(doc, &m.dict, &[b"Height"]).and_then(|v| usize::try_from(v).ok());
    let mb = int(doc, &m.dict, &[b"BitsPerComponent"]).unwrap_or(8);
    let (Some(mw), Some(mh)) = (mw.filter(|v| *v > 0), mh.filter(|v| *v > 0)) else {
        return Err("its soft mask has no size");
    };
    if mb != 8 && mb != 1 {
        return Err("its soft mask's depth is not decoded");
    }
    let (md, mrow) = samples(doc, m, mw, mh, 1, mb as usize, cache)
        .map_err(|_| "its soft mask cannot be decoded")?;
    Ok(Some(SoftMask {
        data: md,
        row: mrow,
        w: mw,
        h: mh,
        bits: mb as usize,
    }))
}

/// An image's colour-key /Mask (ranges; -1 for an entry that is not an integer), None
/// without one; an error for a stencil /Mask.
fn colour_key(doc: &Document, d: &Dictionary) -> Result<Option<Vec<i64>>, &'static str> {
    match get(doc, d, b"Mask") {
        Some(Object::Array(a)) => Ok(Some(
            a.iter()
                .map(|o| match o {
                    Object::Integer(i) => *i,
                    _ => -1,
                })
                .collect(),
        )),
        Some(Object::Stream(_)) => Err("a stencil /Mask is not decoded"),
        _ => Ok(None),
    }
}

/// The box of the inked pixels that are neither transparent under `alpha` nor keyed
/// out by `key`, in the unit square.
fn ink_box(p: &Pixels, white: White, alpha: Option<&SoftMask>, key: Option<&[i64]>) -> Ink {
    let (w, h) = (p.w, p.h);
    let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0usize, 0usize);
    for y in 0..h {
        for x in 0..w {
            if !p.inked(x, y, white) {
                continue;
            }
            if alpha.is_some_and(|a| a.clear(x, y, w, h)) {
                continue;
            }
            if key.is_some_and(|k| p.keyed(x, y, k)) {
                continue;
            }
            x0 = x0.min(x);
            y0 = y0.min(y);
            x1 = x1.max(x);
            y1 = y1.max(y);
        }
    }
    if x0 == usize::MAX {
        return Ink::Blank;
    }
    // Row 0 is the top of the image: unit-square y runs up.
    let (wf, hf) = (w as f64, h as f64);
    Ink::Box(
        x0 as f64 / wf,
        1.0 - (y1 + 1) as f64 / hf,
        (x1 + 1) as f64 / wf,
        1.0 - y0 as f64 / hf,
    )
}

/// An inline image's dictionary with its abbreviated keys and names spelt out.
pub(crate) fn expand_inline(d: &Dictionary) -> Dictionary {
    let key = |k: &[u8]| -> Vec<u8> {
        match k {
            b"W" => b"Width".to_vec(),
            b"H" => b"Height".to_vec(),
            b"BPC" => b"BitsPerComponent".to_vec(),
            b"CS" => b"ColorSpace".to_vec(),
            b"F" => b"Filter".to_vec(),
            b"DP" => b"DecodeParms".to_vec(),
            b"IM" => b"ImageMask".to_vec(),
            b"D" => b"Decode".to_vec(),
            other => other.to_vec(),
        }
    };
    let value = |v: &Object| -> Object {
        let name = |n: &[u8]| -> Object {
            Object::Name(
                match n {
                    b"G" => &b"DeviceGray"[..],
                    b"RGB" => b"DeviceRGB",
                    b"CMYK" => b"DeviceCMYK",
                    b"Fl" => b"FlateDecode",
                    b"LZW" => b"LZWDecode",
                    b"A85" => b"ASCII85Decode",
                    b"AHx" => b"ASCIIHexDecode",
                    b"DCT" => b"DCTDecode",
                    b"CCF" => b"CCITTFaxDecode",
                    b"RL" => b"RunLengthDecode",
                    other => other,
                }
                .to_vec(),
            )
        };
        match v {
            Object::Name(n) => name(n),
            Object::Array(a) => Object::Array(
                a.iter()
                    .map(|o| match o {
                        Object::Name(n) => name(n),
                        o => o.clone(),
                    })
                    .collect(),
            ),
            o => o.clone(),
        }
    };
    let mut out = Dictionary::new();
    for (k, v) in d.iter() {
        out.set(key(k), value(v));
    }
    out
}
