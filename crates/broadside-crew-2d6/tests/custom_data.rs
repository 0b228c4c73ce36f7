//! Rule numbers the data of record leaves where a mistake in their arithmetic would not show, set to other legal values and checked on the rules they control.
//!
//! Each test loads the data with one value changed and checks its rule
//! against the same play under the data of record. Sources: the reference
//! note for crew-2d6, "Turret weapons" (identical weapons in one turret fire
//! as one attack with +1 damage per die per extra weapon) and the seed's
//! Resolve Missile Hits (+1 per missile beyond the first).

mod common;

use broadside_core::{DamageAllocation, NullSink, ScriptedDice};
use broadside_crew_2d6::{Crew2d6, Hit};
use common::{
    assert_all_used, edited, event_lines, load, num, resolve_in, sources, system, text, weapon,
};

/// The data with `from` replaced by `to` in `file`.
fn custom(file: &str, from: &str, to: &str) -> Crew2d6 {
    load(&edited(&sources(), file, from, to))
}

/// Hull damage a hit by two identical pulse lasers (2D) at Effect 5 does
/// to a fresh escort (armour 5), with dice that must all be used.
fn twin_pulse_laser_damage(system: &Crew2d6, dice: &[u32]) -> i32 {
    let hit = Hit {
        weapon: weapon("pulse-laser"),
        effect: 5,
        identical: 2,
        multiplier: 1,
        sand: 0,
        missiles: None,
    };
    let mut escort = system.ship("escort").expect("the escort");
    let mut scripted = ScriptedDice::new(dice);
    let applied = system
        .allocate(&hit, &mut escort, &mut scripted, &mut NullSink)
        .expect("the hit allocates");
    assert_all_used(&scripted, "twin pulse lasers");
    applied.damage
}

/// `identical.damage-per-die`: two identical weapons add the second entry
/// per damage die. 2D = 1 + 1, Effect 5, armour 5: as shipped (+1 per die)
/// 2 + 2 + 5 - 5 = 4; at +3 per die, 2 + 6 + 5 - 5 = 8.
#[test]
fn identical_weapons_add_damage_per_die() {
    assert_eq!(twin_pulse_laser_damage(system(), &[1, 1]), 4);
    let custom = custom(
        "weapons.toml",
        "damage-per-die = [0, 1, 2]",
        "damage-per-die = [0, 3, 5]",
    );
    assert_eq!(twin_pulse_laser_damage(&custom, &[1, 1]), 8);
}

/// The salvo attack's DM of a salvo of 2 from the escort at the corvette.
fn salvo_dm(system: &Crew2d6, dice: &[u32]) -> i64 {
    let mut scripted = ScriptedDice::new(dice);
    let r = resolve_in(
        system,
        "escort",
        "corvette",
        &[
            ("weapon", text("missile-rack")),
            ("range-band", text("medium")),
            ("salvo", num(2)),
        ],
        &mut scripted,
    )
    .expect("the salvo resolves");
    assert_all_used(&scripted, "salvo");
    r.json["dm"].as_i64().expect("a DM")
}

/// `missiles.per-extra-missile`: the salvo attack takes this DM per missile
/// beyond the first. The escort's salvo of 2 at the corvette has +1 for
/// its second missile as shipped, +3 at 3 per missile, beside the TL
/// difference DM of +1 (its minimum): DM +2 and +4, each missing on 1 + 1.
#[test]
fn a_salvo_gains_per_extra_missile_for_each_missile_beyond_the_first() {
    let dice = [1, 1];
    let shipped = salvo_dm(system(), &dice);
    let custom = custom(
        "rules.toml",
        "per-extra-missile = 1",
        "per-extra-missile = 3",
    );
    assert_eq!((shipped, salvo_dm(&custom, &dice)), (2, 4));
}

/// House-rule option `missiles.cap-at-missiles`: the Effect multiplies one
/// missile's damage, "but never beyond" the missiles that attacked. At an
/// Effect equal to the missiles there is nothing to cap, and no ruling says
/// otherwise. The escort's salvo of 2 at the trader: 4 + 3 + 3 = 10 against
/// 8, Effect +2; 4D = 4 less armour 1 is 3 a missile, x 2 = 6.
#[test]
fn an_effect_equal_to_the_missiles_is_not_capped() {
    let capped = custom(
        "rules.toml",
        "cap-at-missiles = false",
        "cap-at-missiles = true",
    );
    let mut scripted = ScriptedDice::new([4, 3, 1, 1, 1, 1]);
    let r = resolve_in(
        &capped,
        "escort",
        "trader",
        &[
            ("weapon", text("missile-rack")),
            ("range-band", text("medium")),
            ("salvo", num(2)),
        ],
        &mut scripted,
    )
    .expect("the salvo resolves");
    assert_all_used(&scripted, "salvo at Effect 2");
    assert_eq!(
        (r.json["effect"].as_i64(), r.json["multiplier"].as_i64()),
        (Some(2), Some(2))
    );
    assert_eq!(r.json["damage"], 6);
    let events = event_lines(&r.events);
    assert!(
        !events.iter().any(|e| e.contains("never beyond")),
        "{events:#?}"
    );
}
