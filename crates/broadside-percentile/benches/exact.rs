//! Benchmarks of exact odds: one attack over every outcome of its dice, and a small duel played exactly.
//!
//! Run with `cargo bench -p broadside-percentile --bench exact`. The attack
//! goes through `Ruleset::resolve` as `broadside resolve --exact` runs it:
//! fresh ships, options by name and a report on every dice path; and, for
//! comparison, through the system's own attack procedure, as an engagement
//! resolves it, which leaves the enumeration and the rules of the attack.
//! The duel goes through `Engagement::exact` as `broadside battle --exact`
//! does.

use broadside_core::exact::{ExactAttack, exact_attack};
use broadside_core::{
    AttackOutcome, AttackResolution, BattleRequest, Engagement, NullSink, OptionValue, Options,
    ResolveError, ResolveRequest, Ruleset,
};
use broadside_percentile::{Attack, Board, Percentile, REGISTRATION, SystemLost};
use divan::{Bencher, black_box};

fn main() {
    divan::main();
}

/// The most dice paths an exact attack may take, as the command line allows.
const ATTACK_PATHS: u64 = 2_000_000;

/// The most dice paths and states an exact battle may take, as the command
/// line allows by default.
const BATTLE_PATHS: u64 = 20_000_000;
const BATTLE_STATES: usize = 200_000;

/// The torpedo attack of both benchmarks, as a request.
fn torpedo_request() -> ResolveRequest {
    ResolveRequest {
        attacker: "frigate".into(),
        target: "destroyer".into(),
        options: Options::new()
            .with("weapon", OptionValue::Text("torpedo".into()))
            .with("range", OptionValue::Number(3))
            .with("icm", OptionValue::Number(2)),
    }
}

/// The exact distribution of a request's attack, as `resolve --exact`
/// computes it.
fn via_resolve(ruleset: &dyn Ruleset, request: &ResolveRequest) -> ExactAttack {
    exact_attack(ATTACK_PATHS, |dice| {
        let report = ruleset.resolve(black_box(request), dice, &mut NullSink)?;
        report
            .attack_outcome()
            .ok_or_else(|| ResolveError::Internal("not an attack".into()))
    })
    .expect("the attack has exact odds")
}

/// A frigate's torpedo against a destroyer launching 2 ICMs, at range 3,
/// over every outcome of its dice.
#[divan::bench(sample_count = 200, sample_size = 20)]
fn torpedo_vs_destroyer_2_icms_range_3(bencher: Bencher<'_, '_>) {
    let ruleset: Box<dyn Ruleset> = REGISTRATION
        .load_embedded()
        .expect("the embedded percentile data is valid");
    let request = torpedo_request();
    bencher.bench_local(|| black_box(via_resolve(&*ruleset, &request)));
}

/// An attack's outcome in shared terms, as the `resolve` report gives it:
/// the Damage Table row in its printed words, then "a hull hit instead"
/// when the row fell back to a hull hit; the hull points; the system
/// destroyed, by id.
fn shared_outcome(
    system: &Percentile,
    outcome: &broadside_percentile::AttackOutcome,
) -> AttackOutcome {
    let mut shared = AttackOutcome {
        hit: outcome.hit,
        ..AttackOutcome::default()
    };
    if let Some(damage) = &outcome.damage {
        shared
            .results
            .push(system.rules.damage_table[damage.row].text.clone());
        if damage.fell_back {
            shared.results.push("a hull hit instead".to_owned());
        }
        shared.hull_damage = damage.hull_damage;
        if let Some(lost) = damage.system_lost {
            shared.destroyed.push(match lost {
                SystemLost::Weapon(w) => system.rules.weapons[usize::from(w)].id.clone(),
                SystemLost::Defence(d) => d.id().to_owned(),
            });
        }
    }
    shared
}

/// The same torpedo attack through `AttackResolution::resolve_attack`: the
/// board set up once and copied back before each dice path, the outcome put
/// in shared terms as the report would. What the benchmark above adds to
/// this is reading the request and writing a report on every path.
#[divan::bench(sample_count = 200, sample_size = 20)]
fn torpedo_vs_destroyer_2_icms_range_3_resolve_attack(bencher: Bencher<'_, '_>) {
    let system = Percentile::embedded().expect("the embedded percentile data is valid");
    let ship = |id: &str| system.ship(id).expect("the ship class exists");
    let template = Board {
        ships: vec![ship("frigate"), ship("destroyer")],
        names: vec!["frigate".into(), "destroyer".into()],
    };
    let weapon = system
        .rules
        .weapon_id("torpedo")
        .expect("the torpedo exists");
    let attack = Attack {
        attacker: 0,
        mount: template.ships[0]
            .ready_mount(weapon)
            .expect("the frigate carries a torpedo"),
        target: 1,
        range: 3,
        head_on: false,
        icms: 2,
        icm_launcher: None,
    };
    let mut board = template.clone();
    let mut exact = || {
        exact_attack(ATTACK_PATHS, |dice| {
            board.ships.copy_from_slice(&template.ships);
            let outcome =
                system.resolve_attack(&mut board, black_box(&attack), dice, &mut NullSink)?;
            Ok(shared_outcome(&system, &outcome))
        })
        .expect("the attack has exact odds")
    };
    // The same distribution as through `Ruleset::resolve`, or the figure
    // would measure another question.
    let ruleset: Box<dyn Ruleset> = REGISTRATION
        .load_embedded()
        .expect("the embedded percentile data is valid");
    assert_eq!(
        exact().fractions,
        via_resolve(&*ruleset, &torpedo_request()).fractions
    );
    bencher.bench_local(|| black_box(exact()));
}

/// Two fighters 12 hexes apart, at most two turns, played exactly.
#[divan::bench(sample_count = 10, sample_size = 1)]
fn fighter_duel_2_turns(bencher: Bencher<'_, '_>) {
    let system = Percentile::embedded().expect("the built-in data loads");
    let battle = system
        .set_up(&BattleRequest::duel(
            "fighter",
            "fighter",
            2,
            Options::new(),
        ))
        .expect("fighters exist");
    bencher.bench_local(|| {
        black_box(
            battle
                .exact(BATTLE_STATES, BATTLE_PATHS)
                .expect("the duel fits the budget"),
        )
    });
}
