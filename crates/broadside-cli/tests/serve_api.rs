//! The web API of `broadside serve` over real HTTP: the same JSON as the
//! command line for the same seed, the command line's messages for bad
//! input (400), its limits (413, 429), a run stopped by its time limit or by
//! its client going away, and a server that stops while a run plays.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::Command;
use std::time::{Duration, Instant};

use broadside_cli::serve::{Config, Limits, Server};
use serde_json::Value;

/// A server on a free port with these limits.
fn start(limits: Limits) -> Server {
    let systems = broadside_cli::registry::RULESETS
        .iter()
        .map(|r| r.load_embedded().expect("the built-in data loads"))
        .collect();
    let config = Config {
        bind: [127, 0, 0, 1].into(),
        port: 0,
        systems,
        rules: None,
        limits,
    };
    Server::start(config, false).expect("the server starts")
}

fn small_limits() -> Limits {
    Limits {
        max_trials: 100_000,
        max_runs: 1,
        max_body: 2048,
        time_limit: Duration::from_secs(60),
    }
}

/// A request sent whole, its answer read to the end: (status, body).
fn send(addr: SocketAddr, method: &str, path: &str, body: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).expect("connects");
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("an answer");
    let status = answer[9..12].parse().expect("a status code");
    let body = answer
        .split_once("\r\n\r\n")
        .map_or("", |(_, body)| body)
        .to_owned();
    (status, body)
}

/// The command line's JSON, or its error line without `error: `.
fn cli(args: &[&str]) -> Result<Value, String> {
    let output = Command::new(env!("CARGO_BIN_EXE_broadside"))
        .args(args)
        .output()
        .expect("the binary runs");
    if output.status.success() {
        Ok(serde_json::from_slice(&output.stdout).expect("JSON"))
    } else {
        let text = String::from_utf8_lossy(&output.stderr);
        Err(text.trim().trim_start_matches("error: ").to_owned())
    }
}

/// One request against the command line: the API's status, and its JSON
/// equal to the command's, or its message equal to the command's error.
fn check(server: &Server, path: &str, body: &str, args: &[&str], status: u16) {
    let (got, text) = send(server.addr(), "POST", path, body);
    assert_eq!(got, status, "{path} {body}: {text}");
    let answer: Value = serde_json::from_str(&text).expect("the answer is JSON");
    match cli(args) {
        Ok(expected) => assert_eq!(answer, expected, "{path} {body}"),
        Err(message) => assert_eq!(answer["error"], Value::from(message), "{path} {body}"),
    }
}

#[test]
fn the_api_answers_as_the_command_line_does() {
    let server = start(small_limits());
    check(
        &server,
        "/api/compare",
        r#"{"trials": 300, "seed": 7}"#,
        &[
            "compare", "--trials", "300", "--seed", "7", "--format", "json",
        ],
        200,
    );
    check(
        &server,
        "/api/battle",
        r#"{"system": "percentile", "a": "3xfrigate", "b": "heavy-cruiser", "options": {"start-range": 10}, "side_options": {"a": {"formation": "column"}}, "trials": 200, "seed": 5, "max_turns": 30}"#,
        &[
            "battle",
            "percentile",
            "3xfrigate",
            "heavy-cruiser",
            "--start-range",
            "10",
            "--a-formation",
            "column",
            "--trials",
            "200",
            "--seed",
            "5",
            "--max-turns",
            "30",
            "--format",
            "json",
        ],
        200,
    );
    check(
        &server,
        "/api/replay",
        r#"{"system": "module-grid", "a": "destroyer", "b": "frigate", "trials": 50, "seed": 5, "trial": 7}"#,
        &[
            "battle",
            "module-grid",
            "destroyer",
            "frigate",
            "--trials",
            "50",
            "--seed",
            "5",
            "--replay",
            "7",
            "--format",
            "json",
        ],
        200,
    );
    check(
        &server,
        "/api/resolve",
        r#"{"system": "percentile", "attacker": "frigate", "target": "destroyer", "options": {"weapon": "laser-cannon", "range": 3}, "dice": [11, 63]}"#,
        &[
            "resolve",
            "percentile",
            "--attacker",
            "frigate",
            "--target",
            "destroyer",
            "--weapon",
            "laser-cannon",
            "--range",
            "3",
            "--dice",
            "11,63",
            "--format",
            "json",
        ],
        200,
    );
    check(
        &server,
        "/api/resolve",
        r#"{"system": "percentile", "attacker": "frigate", "target": "destroyer", "options": {"weapon": "laser-cannon", "range": 3}, "exact": true}"#,
        &[
            "resolve",
            "percentile",
            "--attacker",
            "frigate",
            "--target",
            "destroyer",
            "--weapon",
            "laser-cannon",
            "--range",
            "3",
            "--exact",
            "--format",
            "json",
        ],
        200,
    );
    // Bad input: the command line's message, as a 400.
    check(
        &server,
        "/api/battle",
        r#"{"system": "percentile", "a": "frigat", "b": "destroyer", "trials": 10}"#,
        &["battle", "percentile", "frigat", "destroyer"],
        400,
    );
    check(
        &server,
        "/api/battle",
        r#"{"system": "percentile", "a": "frigate", "b": "destroyer", "options": {"start-range": 999}, "trials": 10}"#,
        &[
            "battle",
            "percentile",
            "frigate",
            "destroyer",
            "--start-range",
            "999",
        ],
        400,
    );
    check(
        &server,
        "/api/battle",
        r#"{"system": "percentile", "a": "frigate", "b": "destroyer", "side_options": {"b": {"speed": 99}}, "trials": 10}"#,
        &[
            "battle",
            "percentile",
            "frigate",
            "destroyer",
            "--b-speed",
            "99",
        ],
        400,
    );
    check(
        &server,
        "/api/battle",
        r#"{"system": "percentil", "a": "frigate", "b": "destroyer"}"#,
        &["compare", "--rules", "percentil=x"],
        400,
    );
    // The page's view of a replay: the same report, and each event as the
    // text log prints it.
    let (status, text) = send(
        server.addr(),
        "POST",
        "/api/replay?view=page",
        r#"{"system": "module-grid", "a": "destroyer", "b": "frigate", "trials": 50, "seed": 5, "trial": 7}"#,
    );
    assert_eq!(status, 200, "{text}");
    let answer: Value = serde_json::from_str(&text).unwrap();
    let events = answer["report"]["events"].as_array().unwrap().len();
    let explained = answer["explained"].as_array().unwrap();
    assert!(events > 0);
    assert_eq!(explained.len(), events);
    server.stop().expect("the server stops");
}

#[test]
fn bad_requests_say_what_and_where() {
    let server = start(small_limits());
    let cases = [
        (
            "/api/battle",
            "{\"system\": ",
            400,
            "request body: line 1, column 11: EOF while parsing a value",
        ),
        (
            "/api/compare",
            r#"{"trials": 0}"#,
            400,
            "trials: 0 is not in 1..=100000000",
        ),
        (
            "/api/compare",
            r#"{"max_turns": 0}"#,
            400,
            "max_turns: 0 is not in 1..=10000",
        ),
        (
            "/api/compare",
            r#"{"trials": 100001}"#,
            413,
            "trials: 100001 is more than this server plays for one request (100000)",
        ),
        (
            "/api/compare",
            "{\"scenario\": \"name = 'x'\\n[systems.percentile]\\na = 'frigate'\\nb = 'destroyer'\\nrules = 'mine'\"}",
            400,
            "the request's scenario: systems.percentile.rules: this server reads no folder a request names; start it with --rules percentile=DIR",
        ),
        (
            "/api/replay",
            r#"{"system": "percentile", "a": "frigate", "b": "destroyer", "trials": 10, "seed": 1, "trial": 10}"#,
            400,
            "trial: 10 is not a trial of this run: its trials are 0 to 9 (trials 10)",
        ),
    ];
    for (path, body, status, message) in cases {
        let (got, text) = send(server.addr(), "POST", path, body);
        assert_eq!(got, status, "{body}: {text}");
        let answer: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(answer["error"], message, "{body}");
    }
    let big = format!(r#"{{"scenario": "{}"}}"#, "#".repeat(4000));
    let (status, text) = send(server.addr(), "POST", "/api/compare", &big);
    assert_eq!(status, 413, "{text}");
    assert!(
        text.contains("over this server's limit of 2048 bytes"),
        "{text}"
    );
    let (status, _) = send(server.addr(), "GET", "/api/ships/nothing", "");
    assert_eq!(status, 400);
    let (status, text) = send(server.addr(), "GET", "/api/ships/percentile", "");
    assert_eq!(status, 200);
    assert_eq!(
        serde_json::from_str::<Value>(&text).unwrap(),
        cli(&["ships", "percentile", "--format", "json"]).unwrap()
    );
    server.stop().expect("the server stops");
}

/// Reads a streamed answer until `wanted` appears in it.
fn read_until(stream: &mut TcpStream, wanted: &str) -> String {
    let mut seen = String::new();
    let mut buffer = [0u8; 4096];
    while !seen.contains(wanted) {
        let n = stream.read(&mut buffer).expect("the stream goes on");
        assert!(n > 0, "the stream ended before '{wanted}': {seen}");
        seen.push_str(&String::from_utf8_lossy(&buffer[..n]));
    }
    seen
}

#[test]
fn a_run_takes_a_slot_until_its_client_goes_away() {
    let server = start(small_limits());
    let body = r#"{"trials": 100000, "seed": 3}"#;
    let mut stream = TcpStream::connect(server.addr()).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    write!(
        stream,
        "POST /api/compare HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let head = read_until(&mut stream, "event: progress");
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    // The one slot is taken: another run is told to wait.
    let (status, text) = send(server.addr(), "POST", "/api/compare", r#"{"trials": 10}"#);
    assert_eq!(status, 429, "{text}");
    assert!(text.contains("already playing 1 runs"), "{text}");
    // The client goes away: its run is cancelled between chunks, and the
    // slot is free again.
    drop(stream);
    let start = Instant::now();
    loop {
        let (status, text) = send(
            server.addr(),
            "POST",
            "/api/compare",
            r#"{"trials": 10, "seed": 1}"#,
        );
        if status == 200 {
            break;
        }
        assert_eq!(status, 429, "{text}");
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the cancelled run kept its slot"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    server.stop().expect("the server stops");
}

#[test]
fn a_run_past_its_time_limit_is_stopped() {
    let server = start(Limits {
        time_limit: Duration::ZERO,
        ..small_limits()
    });
    let (status, text) = send(server.addr(), "POST", "/api/compare", r#"{"trials": 5000}"#);
    assert_eq!(status, 503, "{text}");
    let answer: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        answer["error"],
        "the run passed this server's time limit of 0 s and was stopped: ask for fewer trials"
    );
    server.stop().expect("the server stops");
}

#[test]
fn stopping_the_server_cancels_its_runs() {
    let server = start(small_limits());
    let body = r#"{"trials": 100000, "seed": 3}"#;
    let mut stream = TcpStream::connect(server.addr()).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    write!(
        stream,
        "POST /api/compare HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    read_until(&mut stream, "event: progress");
    let stopping = Instant::now();
    let stopper = std::thread::spawn(move || server.stop());
    let rest = read_until(&mut stream, "event: failure");
    assert!(rest.contains("the server is stopping"), "{rest}");
    stopper.join().unwrap().expect("the server stops");
    assert!(
        stopping.elapsed() < Duration::from_secs(10),
        "stopping waited for the run"
    );
}
