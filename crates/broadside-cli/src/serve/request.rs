//! The web API's requests: a JSON body read into a typed request, and the
//! values in it read as the command line reads its flags, with the same
//! messages. Nothing here touches the network or a file, so a
//! generated-input harness can call [`parse`] with any bytes.

use broadside_core::{OptionKind, OptionSpec, OptionValue, Options};
use serde::Deserialize;
use serde_json::{Map, Value};

/// Which request a body is for: the path it was sent to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Endpoint {
    /// `POST /api/resolve`: one attack.
    Resolve,
    /// `POST /api/battle`: a battle played many times.
    Battle,
    /// `POST /api/replay`: one trial of a battle, every event kept.
    Replay,
    /// `POST /api/compare`: a scenario under every system.
    Compare,
}

/// `resolve`'s flags as JSON: `{"system": "percentile", "attacker":
/// "frigate", "target": "destroyer", "options": {"range": 3}, "seed": 7}`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResolveBody {
    /// The rule system.
    pub system: String,
    /// The attacking ship's id.
    pub attacker: String,
    /// The target's id.
    pub target: String,
    /// The system's resolve options, by name.
    #[serde(default)]
    pub options: Map<String, Value>,
    /// The seed (`--seed`); a fresh one if neither it nor `dice` is given.
    pub seed: Option<u64>,
    /// Scripted dice (`--dice`).
    pub dice: Option<Vec<u32>>,
    /// The exact distribution (`--exact`).
    #[serde(default)]
    pub exact: bool,
}

/// `battle`'s arguments and flags as JSON; `trial` only for a replay.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BattleBody {
    /// The rule system.
    pub system: String,
    /// Side A as a side string (`3xfrigate,destroyer`).
    pub a: String,
    /// Side B, as side A.
    pub b: String,
    /// The system's battle options, by name.
    #[serde(default)]
    pub options: Map<String, Value>,
    /// Each side's set-up (`--a-NAME`, `--b-NAME`), by the option's name.
    #[serde(default)]
    pub side_options: SideOptions,
    /// `--trials`.
    pub trials: Option<u64>,
    /// `--seed`.
    pub seed: Option<u64>,
    /// `--max-turns`.
    pub max_turns: Option<u32>,
    /// `--replay K`: the trial to play again (a replay request only).
    pub trial: Option<u64>,
}

/// Each side's set-up, by option name.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideOptions {
    /// Side A's.
    #[serde(default)]
    pub a: Map<String, Value>,
    /// Side B's.
    #[serde(default)]
    pub b: Map<String, Value>,
}

/// `compare`'s arguments as JSON: a scenario's text (the built-in default
/// if none) and the run's settings, which win over the scenario's.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompareBody {
    /// The scenario, as the TOML a scenario file holds.
    pub scenario: Option<String>,
    /// `--trials`.
    pub trials: Option<u64>,
    /// `--seed`.
    pub seed: Option<u64>,
    /// `--max-turns`.
    pub max_turns: Option<u32>,
}

/// A request read from its body.
#[derive(Debug, Clone)]
pub enum Request {
    /// One attack.
    Resolve(ResolveBody),
    /// A battle's odds.
    Battle(BattleBody),
    /// One trial of a battle.
    Replay(BattleBody),
    /// A comparison.
    Compare(CompareBody),
}

/// A body read as the request its endpoint takes, or the one-line message a
/// 400 answer carries, located by line and column in the body.
pub fn parse(endpoint: Endpoint, body: &[u8]) -> Result<Request, String> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Err("request body is empty: send a JSON object".into());
    }
    let request = match endpoint {
        Endpoint::Resolve => Request::Resolve(from_json(body)?),
        Endpoint::Battle => Request::Battle(from_json(body)?),
        Endpoint::Replay => {
            let body: BattleBody = from_json(body)?;
            if body.trial.is_none() {
                return Err("request body: a replay needs \"trial\": K".into());
            }
            Request::Replay(body)
        }
        Endpoint::Compare => Request::Compare(from_json(body)?),
    };
    Ok(request)
}

fn from_json<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, String> {
    serde_json::from_slice(body).map_err(|e| {
        let text = e.to_string();
        // serde_json ends its message with where; we begin with it, as the
        // scenario reader's messages do.
        let place = format!(" at line {} column {}", e.line(), e.column());
        let message = text.strip_suffix(&place).unwrap_or(&text);
        crate::one_line(&format!(
            "request body: line {}, column {}: {message}",
            e.line(),
            e.column()
        ))
    })
}

/// A number of the run checked against its range, as its flag's parser
/// checks it: `field: 0 is not in 1..=10000`.
pub fn in_range<T: PartialOrd + std::fmt::Display>(
    field: &str,
    value: T,
    min: T,
    max: T,
) -> Result<T, String> {
    if value < min || value > max {
        return Err(format!("{field}: {value} is not in {min}..={max}"));
    }
    Ok(value)
}

/// Options given as a JSON object, read as the command line reads the
/// system's flags: a flag is `true` or `false`, a number a whole number, a
/// choice or text a string; an unknown name lists the known ones. `field`
/// names the object in messages (`options`, `side_options.a`), `flag` the
/// prefix of its flags (`""`, `"a-"`): a number out of its range gets the
/// message its flag gets. Choices and what only the system judges are
/// checked by `Options::validate`, with the command line's messages.
pub fn options(
    specs: &[OptionSpec],
    given: &Map<String, Value>,
    field: &str,
    flag: &str,
) -> Result<Options, String> {
    let mut options = Options::new();
    for (key, value) in given {
        let Some(name) = crate::cli::canonical(key, specs) else {
            let known = specs.iter().map(|spec| spec.name);
            let unknown = broadside_core::ResolveError::unknown("option", key, known);
            return Err(crate::one_line(&format!("{field}: {unknown}")));
        };
        let Some(spec) = specs.iter().find(|spec| spec.name == name) else {
            continue;
        };
        let read = match (spec.kind, value) {
            (OptionKind::Flag, Value::Bool(true)) => Some(OptionValue::Flag),
            (OptionKind::Flag, Value::Bool(false)) => None,
            (OptionKind::Number { min, max }, Value::Number(n)) if n.as_i64().is_some() => {
                let n = n.as_i64().unwrap_or_default();
                if n < min || n > max {
                    return Err(format!(
                        "invalid value '{n}' for '--{flag}{name} <{}>': {n} is not in {min}..={max} (see --help)",
                        spec.value_name
                    ));
                }
                Some(OptionValue::Number(n))
            }
            (OptionKind::Choice(_) | OptionKind::Text, Value::String(s)) => {
                Some(OptionValue::Text(s.clone()))
            }
            (kind, other) => {
                let wanted = match kind {
                    OptionKind::Flag => "true or false",
                    OptionKind::Number { .. } => "a whole number",
                    OptionKind::Choice(_) | OptionKind::Text => "a string",
                };
                return Err(crate::one_line(&format!(
                    "{field}.{key}: {other} is not {wanted}"
                )));
            }
        };
        if let Some(value) = read {
            options.set(name, value);
        }
    }
    Ok(options)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(endpoint: Endpoint, body: &str, expected: Result<&str, &str>) {
        match (parse(endpoint, body.as_bytes()), expected) {
            (Ok(request), Ok(debug)) => assert!(
                format!("{request:?}").contains(debug),
                "{request:?} lacks {debug}"
            ),
            (Err(message), Err(wanted)) => assert_eq!(message, wanted),
            (got, wanted) => panic!("{body}: got {got:?}, wanted {wanted:?}"),
        }
    }

    #[test]
    fn bodies_read_or_say_where_they_are_wrong() {
        check(
            Endpoint::Battle,
            r#"{"system": "percentile", "a": "frigate", "b": "destroyer", "seed": 7}"#,
            Ok("seed: Some(7)"),
        );
        check(
            Endpoint::Battle,
            r#"{"system": "percentile", "a": "frigate", "b": "destroyer", "sead": 7}"#,
            Err(
                "request body: line 1, column 65: unknown field `sead`, expected one of `system`, `a`, `b`, `options`, `side_options`, `trials`, `seed`, `max_turns`, `trial`",
            ),
        );
        check(
            Endpoint::Compare,
            "{\"trials\": -5}",
            Err("request body: line 1, column 13: invalid value: integer `-5`, expected u64"),
        );
        check(
            Endpoint::Replay,
            r#"{"system": "percentile", "a": "frigate", "b": "destroyer"}"#,
            Err("request body: a replay needs \"trial\": K"),
        );
        check(
            Endpoint::Resolve,
            " ",
            Err("request body is empty: send a JSON object"),
        );
        check(
            Endpoint::Resolve,
            "{\"system\": \"a\nb\"",
            Err(
                "request body: line 2, column 0: control character (\\u0000-\\u001F) found while parsing a string",
            ),
        );
    }

    #[test]
    fn options_read_as_flags_are() {
        let specs = [
            OptionSpec {
                name: "start-range",
                value_name: "N",
                help: "",
                kind: OptionKind::Number { min: 1, max: 40 },
                required: false,
            },
            OptionSpec {
                name: "defence",
                value_name: "",
                help: "",
                kind: OptionKind::Flag,
                required: false,
            },
        ];
        let object = |text: &str| serde_json::from_str::<Map<String, Value>>(text).unwrap();
        let read = options(
            &specs,
            &object(r#"{"start-range": 12, "defense": true}"#),
            "options",
            "",
        );
        let read = read.unwrap();
        assert_eq!(read.number("start-range"), Ok(Some(12)));
        assert!(read.flag("defence"));
        assert_eq!(
            options(&specs, &object(r#"{"start-range": "12"}"#), "options", "").unwrap_err(),
            "options.start-range: \"12\" is not a whole number"
        );
        assert_eq!(
            options(
                &specs,
                &object(r#"{"start-range": 41}"#),
                "side_options.a",
                "a-"
            )
            .unwrap_err(),
            "invalid value '41' for '--a-start-range <N>': 41 is not in 1..=40 (see --help)"
        );
        assert_eq!(
            options(&specs, &object(r#"{"range": 1}"#), "options", "").unwrap_err(),
            "options: unknown option 'range' (known: start-range, defence)"
        );
    }
}
