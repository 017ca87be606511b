use super::*;
use serde_json::Value;

fn cases() -> Vec<Value> {
    let text = include_str!("../../../tests/cases/carcassonne_public.jsonl");
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn published_cases_score_as_published_or_are_rejected() {
    let mut checked = 0;
    for case in cases() {
        let text = case["landscape"].to_string();
        let got = parse(&text);
        if case["valid"] == true {
            let l = got.unwrap();
            assert_eq!(
                score(&l).total() as u64,
                case["score"].as_u64().unwrap(),
                "case {}",
                case["case"]
            );
        } else {
            let e = got.unwrap_err();
            match case["case"].as_u64() {
                Some(3) => assert!(
                    e.contains("row 3, column 2 ([2][1])")
                        && e.contains("[1, 2, 1, 1, 0]")
                        && e.contains("0 cities"),
                    "{e}"
                ),
                // The spec's "(2,2) south and (3,2) north" are 0-based.
                Some(5) => assert!(
                    e.contains("row 3, column 3 ([2][2]) south edge is a road (1)")
                        && e.contains("row 4, column 3 ([3][2]) north edge is a city (2)"),
                    "{e}"
                ),
                _ => panic!("unexpected invalid case {}", case["case"]),
            }
        }
        checked += 1;
    }
    assert_eq!(checked, 7);
}
