//! Exact odds of whole battles: the turn sequence run over every outcome of
//! its dice, equal states merged after every phase and after every action,
//! checked against the same battle worked out face by face.
//!
//! Every figure below is what `broadside battle action-d10 ... --exact`
//! prints for the same battle (with `--rules` holding the edited data).

mod common;

use broadside_core::{BattleRequest, OptionValue};
use common::{Edit, check_exact_battle, check_steps, edited_system, fleet_request, num};

/// Two gunboats cut down to one heavy laser and the track `UA.A`, in one
/// hex: every hit (2 boxes) marks the U and an A, and the U's Surface
/// Features roll falls to Internal Damage on four faces of six (the
/// gunboat has no turret, solar panel or shield emitter), where a row the
/// gunboat lacks (transporter, troops) is rolled again and a fixed weapon
/// (rows 1 and 6) destroys its one laser, so the ship can fight no more.
const TRIMMED_GUNBOAT: &[Edit<'static>] = &[
    (
        "ships.toml",
        "weapons = [\n    { weapon = \"heavy-laser\" },\n    { weapon = \"laser-turret\" },\n    { weapon = \"rocket-pack\" },\n]",
        "weapons = [\n    { weapon = \"heavy-laser\" },\n]",
    ),
    (
        "ships.toml",
        "structure = \".U.A.R..A\"",
        "structure = \"UA.A\"",
    ),
];

/// Both sides' set-up: every ship in the one hex (0, 0), side A facing
/// east, side B west.
fn in_one_hex(a: &[&str], b: &[&str], max_turns: u32) -> BattleRequest {
    let hexes = |ships: &[&str], facing: u8| {
        let one = format!("0,0,{facing}");
        vec![one; ships.len()].join(";")
    };
    fleet_request(
        a,
        b,
        max_turns,
        &[],
        [
            &[("positions", OptionValue::Text(hexes(a, 0)))],
            &[("positions", OptionValue::Text(hexes(b, 3)))],
        ],
    )
}

/// Seed 002, line 6 ("2. Initiative": ruling 43, ties rolled again), lines
/// 35-42 (Target Lock), line 29 (Direct Fire Attack) and line 68 (UDST,
/// Internal Damage rolled again), the gunboat's data trimmed as above, two
/// turns from one hex.
///
/// In turn 1 each side moves away and locks (automatic at range 0): the
/// initiative winner thrusts 3 hexes, the other 4, and they drift 3 hexes
/// apart. In turn 2 (as `--replay` of the battle shows) a side attacks
/// only when it lost initiative both turns: the winner spends its first
/// action on a 3-hex Move, and the loser locks and fires; otherwise both
/// spend their two actions on a Move and a lock. So a side fires with
/// probability 1/2 * 1/2 = 1/4, each initiative won half the time in the
/// limit of its ties. Its lock, 7 - 1 (range 3: one full step of 2
/// hexes) - 1 (size) - 1 (stealth) + 2 (the target thrusting on reaction
/// drives) = 6, always holds; the heavy laser hits on 7 - 1 (size) - 3
/// (the target's 3 hexes of displacement) = 3 on 1d10: 3/10. The hit marks the
/// U and an A; Surface Features falls to Internal Damage on faces 1, 3, 5
/// and 6 (turret, solar panel and shield emitter, which the gunboat lacks):
/// 4/6; there the gunboat takes rows 1, 3, 4 and 6, and rows 1 and 6 (a
/// fixed weapon) destroy its one laser: 2/4. A gunboat without a weapon
/// can fight no more, and the other side wins:
///
/// - A wins 1/4 * 3/10 * 4/6 * 2/4 = 1/40; B wins the same; undecided 19/20.
#[test]
fn trimmed_gunboats_in_one_hex_for_two_turns() {
    let exact = check_exact_battle(
        "trimmed_gunboats_two_turns",
        edited_system(TRIMMED_GUNBOAT),
        &in_one_hex(&["gunboat"], &["gunboat"], 2),
        ["1/40", "1/40", "19/20"],
    );
    assert!(exact.paths < 1_000, "{} paths", exact.paths);
}

/// The Actions phase played in steps, as exact odds play it, against the
/// phase played whole (core's contract for `TurnSequence::play_step`):
/// duels, fleets, a carrier with riders and small craft, each over seeded
/// trials to the end, with and without a log.
#[test]
fn the_actions_phase_in_steps_is_the_phase_played_whole() {
    for (a, b) in [
        (&["destroyer"][..], &["frigate"][..]),
        (&["gunboat", "gunboat"], &["escort", "frigate"]),
        (&["carrier"], &["cruiser"]),
        (&["frigate", "destroyer"], &["carrier"]),
    ] {
        let request = fleet_request(a, b, 20, &[("start-range", num(6))], [&[], &[]]);
        for trial in 0..3 {
            check_steps(&format!("{a:?} against {b:?}"), &request, 9, trial);
        }
    }
}
