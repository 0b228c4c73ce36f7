//! Generated request bodies against the web API's parser: whatever the
//! bytes (good requests, good requests mutated, JSON of the wrong shape,
//! bytes that are not JSON), `serve::request::parse` never panics and either
//! reads a request or gives a one-line message.

mod common;

use broadside_cli::serve::request::{Endpoint, parse};
use common::fuzz_config as config;
use proptest::prelude::*;

/// Bodies each endpoint reads, to mutate.
const GOOD: [(Endpoint, &str); 4] = [
    (
        Endpoint::Resolve,
        r#"{"system": "percentile", "attacker": "frigate", "target": "destroyer", "options": {"weapon": "laser-cannon", "range": 3}, "dice": [11, 63]}"#,
    ),
    (
        Endpoint::Battle,
        r#"{"system": "percentile", "a": "3xfrigate", "b": "heavy-cruiser", "options": {"start-range": 12}, "side_options": {"a": {"formation": "column"}}, "trials": 200, "seed": 7}"#,
    ),
    (
        Endpoint::Replay,
        r#"{"system": "crew-2d6", "a": "escort", "b": "corvette", "trials": 20, "seed": 1, "trial": 3}"#,
    ),
    (
        Endpoint::Compare,
        r#"{"scenario": "name = \"x\"\n[systems.percentile]\na = \"frigate\"\nb = \"destroyer\"", "trials": 100, "seed": 9, "max_turns": 20}"#,
    ),
];

/// Whatever the body, an answer: a request, or one line of message.
fn check(endpoint: Endpoint, body: &[u8]) {
    match parse(endpoint, body) {
        Ok(_) => {}
        Err(message) => {
            assert!(!message.is_empty(), "an empty message");
            assert!(
                !message.contains('\n') && !message.contains('\r'),
                "not one line: {message:?}"
            );
        }
    }
}

fn endpoint() -> impl Strategy<Value = Endpoint> {
    prop::sample::select(vec![
        Endpoint::Resolve,
        Endpoint::Battle,
        Endpoint::Replay,
        Endpoint::Compare,
    ])
}

/// A good body with one mutation: a byte changed, a span cut out or
/// doubled, the body cut short, or a value replaced with an extreme.
fn mutated() -> impl Strategy<Value = (Endpoint, Vec<u8>)> {
    let extremes = prop::sample::select(vec![
        "-1",
        "0",
        "18446744073709551616",
        "1e400",
        "null",
        "\"\\u0000\\n\\u001b[31m\"",
        "[]",
        "{}",
        "true",
        "\"3xfrigate,\"",
    ]);
    (
        0..GOOD.len(),
        any::<prop::sample::Index>(),
        any::<prop::sample::Index>(),
        any::<u8>(),
        0..5u8,
        extremes,
    )
        .prop_map(|(which, at, to, byte, kind, extreme)| {
            let (endpoint, good) = GOOD[which];
            let mut body = good.as_bytes().to_vec();
            let i = at.index(body.len());
            let j = i + to.index(body.len() - i);
            match kind {
                0 => body[i] = byte,
                1 => {
                    body.drain(i..j);
                }
                2 => {
                    let span = body[i..j].to_vec();
                    body.splice(j..j, span);
                }
                3 => body.truncate(i),
                _ => {
                    // A value after a colon replaced with an extreme.
                    if let Some(colon) = body[i..].iter().position(|&b| b == b':') {
                        let start = i + colon + 1;
                        let end = body[start..]
                            .iter()
                            .position(|&b| b == b',' || b == b'}')
                            .map_or(body.len(), |k| start + k);
                        body.splice(start..end, extreme.bytes());
                    }
                }
            }
            (endpoint, body)
        })
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn mutated_bodies_read_or_say_one_line((endpoint, body) in mutated()) {
        check(endpoint, &body);
    }

    #[test]
    fn any_bytes_read_or_say_one_line(endpoint in endpoint(), body in prop::collection::vec(any::<u8>(), 0..200)) {
        check(endpoint, &body);
    }

    #[test]
    fn json_of_any_shape_reads_or_says_one_line(endpoint in endpoint(), value in json_value()) {
        check(endpoint, value.to_string().as_bytes());
    }
}

/// JSON values of any shape, objects keyed by the request's field names
/// and others.
fn json_value() -> impl Strategy<Value = serde_json::Value> {
    let key = prop::sample::select(vec![
        "system",
        "a",
        "b",
        "options",
        "side_options",
        "trials",
        "seed",
        "max_turns",
        "trial",
        "attacker",
        "target",
        "dice",
        "exact",
        "scenario",
        "other",
    ]);
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::from),
        any::<i64>().prop_map(serde_json::Value::from),
        any::<u64>().prop_map(serde_json::Value::from),
        any::<f64>().prop_map(serde_json::Value::from),
        ".{0,20}".prop_map(serde_json::Value::from),
    ];
    leaf.prop_recursive(3, 24, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(serde_json::Value::from),
            prop::collection::btree_map(key.clone(), inner, 0..6).prop_map(|map| {
                serde_json::Value::Object(map.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
            }),
        ]
    })
}
