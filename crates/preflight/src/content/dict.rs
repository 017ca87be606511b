//! Reading PDF objects the way content needs them: references followed, numbers and
//! arrays of numbers.

use super::*;

pub(super) fn num(o: &Object) -> Option<f64> {
    match o {
        Object::Integer(i) => Some(*i as f64),
        Object::Real(r) if r.is_finite() => Some(f64::from(*r)),
        _ => None,
    }
}

/// `o` with references followed (Null when a reference leads nowhere).
pub(crate) fn deref<'a>(doc: &'a Document, o: &'a Object) -> &'a Object {
    static NULL: Object = Object::Null;
    doc.dereference(o).map(|(_, o)| o).unwrap_or(&NULL)
}

/// `dict[key]` with references followed.
pub(crate) fn get<'a>(doc: &'a Document, dict: &'a Dictionary, key: &[u8]) -> Option<&'a Object> {
    dict.get(key)
        .ok()
        .map(|o| deref(doc, o))
        .filter(|o| !matches!(o, Object::Null))
}

pub(super) fn get_num(doc: &Document, dict: &Dictionary, key: &[u8]) -> Option<f64> {
    get(doc, dict, key).and_then(num)
}

pub(super) fn numbers(doc: &Document, o: Option<&Object>) -> Vec<f64> {
    match o {
        Some(Object::Array(a)) => a
            .iter()
            .take(64)
            .filter_map(|x| num(deref(doc, x)))
            .collect(),
        _ => Vec::new(),
    }
}

pub(super) fn embedded(doc: &Document, descriptor: Option<&Dictionary>) -> bool {
    descriptor.is_some_and(|d| {
        [&b"FontFile"[..], b"FontFile2", b"FontFile3"]
            .iter()
            .any(|k| matches!(get(doc, d, k), Some(Object::Stream(_))))
    })
}
