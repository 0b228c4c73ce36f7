//! End-to-end tests of `--exact` over the real binary: a single attack's
//! distribution against figures worked by hand, and a small battle's odds.

mod common;

use common::{check_cli_error, cli_json, cli_ok};
use serde_json::Value;

const TORPEDO: &[&str] = &[
    "resolve",
    "percentile",
    "--attacker",
    "frigate",
    "--weapon",
    "torpedo",
    "--target",
    "destroyer",
    "--range",
    "3",
    "--icm",
    "2",
    "--exact",
];

fn with<'a>(base: &[&'a str], extra: &[&'a str]) -> Vec<&'a str> {
    base.iter().chain(extra).copied().collect()
}

/// The `[value, probability]` pairs of a list sum to one.
fn sums_to_one(pairs: &Value) -> bool {
    let total: f64 = pairs
        .as_array()
        .expect("a list")
        .iter()
        .map(|pair| pair[1].as_f64().expect("a probability"))
        .sum();
    (total - 1.0).abs() < 1e-9
}

/// Seed 000, the Combat Table and ICMs: a torpedo against a destroyer's
/// reflective hull is 50%, less 10 per ICM, so 30% with two; the Damage
/// Table roll is d100 - 20, a hull hit up to 45 and double damage up to 10,
/// and a torpedo's hull damage is 4d10 (mean 22). Mean hull damage is
/// 0.3 x (0.30 x 2 x 22 + 0.35 x 22) = 6.27.
#[test]
fn a_torpedo_against_two_icms_exactly() {
    let report = cli_json(&with(TORPEDO, &["--format", "json"]));
    let exact = &report["exact"];
    assert_eq!(exact["fractions"]["p_hit"], "3/10");
    assert_eq!(exact["fractions"]["mean_hull_damage"], "627/100");
    assert!(sums_to_one(&exact["hull_damage"]), "{exact}");
    let text = cli_ok(TORPEDO);
    assert!(text.contains("P(hit) = 30.00% (3/10)"), "{text}");
    assert!(text.contains("mean hull damage: 6.270"), "{text}");
}

/// `--exact` takes no dice: it enumerates them.
#[test]
fn exact_and_scripted_dice_do_not_mix() {
    check_cli_error(&with(TORPEDO, &["--dice", "10,10"]), "--dice");
}

/// A small battle's exact odds: the outcomes, the undecided mass and the
/// dropped mass sum to one, and a budget of one state drops some and says so.
#[test]
fn a_small_battle_exactly() {
    let args = [
        "battle",
        "percentile",
        "fighter",
        "fighter",
        "--exact",
        "--max-turns",
        "2",
        "--format",
        "json",
    ];
    let report = cli_json(&args);
    let exact = &report["exact"];
    let total: f64 = [
        "a_wins",
        "b_wins",
        "draws",
        "a_escapes",
        "b_escapes",
        "undecided",
        "pruned",
    ]
    .iter()
    .map(|k| exact[*k].as_f64().expect("a probability"))
    .sum();
    assert!((total - 1.0).abs() < 1e-9, "{exact}");
    assert_eq!(exact["pruned"], 0.0);
    // Two fighters alike, who moves first rolled fairly: neither is favoured.
    assert_eq!(exact["fractions"]["a_wins"], exact["fractions"]["b_wins"]);
    let tight = cli_ok(&[
        "battle",
        "percentile",
        "fighter",
        "fighter",
        "--exact",
        "--max-turns",
        "2",
        "--max-states",
        "1",
    ]);
    assert!(
        tight.contains("was dropped to stay within --max-states 1"),
        "{tight}"
    );
}

/// Seed 002, line 68: an Internal Damage result the escort lacks is
/// rolled again. The frigate's heavy laser bank at the escort, range 2,
/// locked: each laser hits on 1-6 of 1d10; two hits (9/25) mark the U box,
/// whose Surface Features roll of 6 (1/6, a shield emitter the escort
/// lacks) goes to Internal Damage, where only Thruster, Crew Deck and
/// Troops apply, each 1/3 in the limit of rolling again: 9/25 * 1/6 * 1/3
/// = 1/50 each, in a finite number of dice paths.
#[test]
fn an_action_d10_roll_again_exactly() {
    let report = cli_json(&[
        "resolve",
        "action-d10",
        "--attacker",
        "frigate",
        "--target",
        "escort",
        "--weapon",
        "heavy-laser",
        "--range",
        "2",
        "--locked",
        "--exact",
        "--format",
        "json",
    ]);
    let exact = &report["exact"];
    assert_eq!(exact["fractions"]["p_hit"], "21/25");
    assert_eq!(exact["fractions"]["result Internal Damage: Troops"], "1/50");
    assert_eq!(exact["paths"], 17);
    assert!(sums_to_one(&exact["hull_damage"]), "{exact}");
}

/// A crew-2d6 salvo at the scout sets off more chains of critical hits than
/// can be followed whole; `--min-probability` drops the states of the
/// attack less likely than it, and the report gives the mass dropped, in
/// JSON and in a note, so the figures left sum to one less it. A whole
/// enumeration drops nothing.
#[test]
fn a_salvo_too_big_to_follow_whole_says_what_it_dropped() {
    let salvo = [
        "resolve",
        "crew-2d6",
        "--attacker",
        "corvette",
        "--target",
        "scout",
        "--weapon",
        "missile-rack",
        "--range-band",
        "short",
        "--exact",
        "--min-probability",
        "1e-4",
    ];
    let report = cli_json(&with(&salvo, &["--format", "json"]));
    let exact = &report["exact"];
    let pruned = exact["pruned"].as_f64().expect("a dropped mass");
    assert!(pruned > 0.0, "{exact}");
    assert!(exact["fractions"]["pruned"].is_string(), "{exact}");
    let held: f64 = exact["hull_damage"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|pair| pair[1].as_f64().expect("a probability"))
        .sum();
    assert!((held + pruned - 1.0).abs() < 1e-9, "{exact}");
    let text = cli_ok(&salvo);
    assert!(
        text.contains("in states less likely than --min-probability 1e-4, was dropped"),
        "{text}"
    );
    let whole = cli_json(&with(TORPEDO, &["--format", "json"]));
    assert_eq!(whole["exact"]["pruned"], 0.0);
    assert!(whole["exact"]["fractions"].get("pruned").is_none());
}
