//! The default tactics' choices: each preference of the rules note's Default tactics, pinned by a scenario it decides.
//!
//! The default policy is a house choice, not a seed rule: the rules note
//! (Default tactics) states each preference, and every test here quotes it
//! with the arithmetic that decides the choice. Ships are the samples of
//! `rulesets/action-d10/ships.toml`, numbered in roster order (side A's,
//! then side B's); weapons are those of `weapons.toml`. A to-hit chance is
//! the faces of the d10 at or under the number, in tenths; a weapon's
//! expected damage is that chance times its mean damage times the weapons
//! of its bank.

mod common;

use broadside_action_d10::engagement::{Flight, Salvo, Threat};
use broadside_action_d10::model::System;
use broadside_action_d10::ship::ScannerState;
use broadside_action_d10::{
    Action, ActionD10, ActionTactics, Battle, Decision, DefaultTactics, Pose, Repairable,
};
use broadside_core::Side;
use broadside_core::hex::{Direction, Hex};
use common::{battle, battle_on, edited_system, fleet, place, system};

/// The default tactics' next decision for the side of ship `i`.
fn decision(s: &ActionD10, b: &Battle, i: usize) -> Decision {
    DefaultTactics::default().next_action(s, b, b.sides[i], false)
}

/// Ship `i` has made its move this turn and holds a lock on `target`, with
/// `actions` actions left: what is left to decide is what it fires.
fn holding_lock(b: &mut Battle, i: usize, target: usize, actions: u8) {
    let t = &mut b.turn[i];
    t.moved = true;
    t.acted = 1;
    t.locks.insert(target);
    t.actions = actions;
}

/// Ship `i` has made its move this turn and holds no lock yet.
fn moved(b: &mut Battle, i: usize) {
    b.turn[i].moved = true;
    b.turn[i].acted = 1;
}

/// The mount ship `i` fires first under the default tactics.
fn first_shot(s: &ActionD10, b: &Battle, i: usize) -> u8 {
    match decision(s, b, i) {
        Decision::Act(j, Action::Attack { mount, .. }) if j == i => mount,
        other => panic!("ship {i} should fire, not {other:?}"),
    }
}

/// The enemy ship `i` tries to lock on first under the default tactics.
fn lock_target(b: &Battle, i: usize) -> u8 {
    match decision(system(), b, i) {
        Decision::Act(j, Action::TargetLock { target, .. }) if j == i => target,
        other => panic!("ship {i} should lock on, not {other:?}"),
    }
}

/// Rules note, Default tactics: "fire every direct and swarm weapon that
/// bears (best expected damage first)"; a die's mean is half its sides
/// plus a half. The cruiser (railgun mount 0, charged; a bank of two heavy
/// lasers mount 1) at range 7 from the frigate (size 0), holding its lock
/// with one action left: the railgun, 1d6+1 (mean 4.5) at 6, expects
/// 0.6 x 4.5 = 2.7 boxes; the heavy lasers, 2 each at 6, expect
/// 2 x 0.6 x 2 = 2.4; the railgun fires first.
#[test]
fn the_railgun_fires_first_when_its_mean_damage_makes_it_the_best() {
    let mut b = battle("cruiser", "frigate", 7);
    b.board.ships[0].weapons[0].charged = true;
    holding_lock(&mut b, 0, 1, 1);
    assert_eq!(first_shot(system(), &b, 0), 0);
}

/// Rules note, Default tactics: best expected damage first, a die's mean
/// being half its sides plus a half. With the railgun's damage edited to
/// 1d6 (mean 3.5), the cruiser of the test above at range 7 expects
/// 0.6 x 3.5 = 2.1 boxes of it against 2.4 of its heavy lasers, which fire
/// first; at range 5 the railgun hits on 7 (0.7 x 3.5 = 2.45) and the
/// heavy lasers on 6 (2.4): the railgun fires first.
#[test]
fn a_weaker_railgun_yields_to_the_heavy_lasers_by_its_mean_damage() {
    let s = edited_system(&[("weapons.toml", "damage = \"1d6+1\"", "damage = \"1d6\"")]);
    let mut b = battle_on(s, "cruiser", "frigate", 7);
    b.board.ships[0].weapons[0].charged = true;
    holding_lock(&mut b, 0, 1, 1);
    assert_eq!(first_shot(s, &b, 0), 1);
    place(&mut b, 1, Hex::new(5, 0), Direction::WEST);
    assert_eq!(first_shot(s, &b, 0), 0);
}

/// Rules note, Default tactics: best expected damage first, the bank's
/// weapons each counting. A destroyer refitted with a bank of two heavy
/// lasers (mount 0, 2 boxes each) and its particle cannon (mount 3, 3
/// boxes, charged), holding its lock on the frigate with one action left:
/// at range 8 the cannon hits on 6 (0.6 x 3 = 1.8 boxes) and the lasers
/// on 4 (2 x 0.4 x 2 = 1.6), and the cannon fires first; at range 2 the
/// lasers hit on 7 (2 x 0.7 x 2 = 2.8) and the cannon on 8 (0.8 x 3 =
/// 2.4), and the lasers fire first.
#[test]
fn a_bank_counts_every_weapon_in_it() {
    let s = edited_system(&[(
        "ships.toml",
        "{ weapon = \"heavy-laser\" },\n    { weapon = \"laser-turret\", count = 2 },",
        "{ weapon = \"heavy-laser\", bank = 2 },\n    { weapon = \"laser-turret\", count = 2 },",
    )]);
    let mut b = battle_on(s, "destroyer", "frigate", 8);
    b.board.ships[0].weapons[3].charged = true;
    holding_lock(&mut b, 0, 1, 1);
    assert_eq!(first_shot(s, &b, 0), 3);
    place(&mut b, 1, Hex::new(2, 0), Direction::WEST);
    assert_eq!(first_shot(s, &b, 0), 0);
}

/// Rules note, Default tactics: best expected damage first; a swarm's
/// expected hits are the mean of the Swarmer/Rocket Pack Hits table's
/// column for its size over the ten faces of its roll (Swarms: 1d10 plus
/// the bracket's modifier plus the to-hit modifiers). The gunboat (heavy
/// laser mount 0, rocket pack of 10 mount 2) holding its lock with one
/// action left. At range 3 from the frigate (size 0) the pack rolls +0:
/// rows 1 to 10 of column 10 give 1+1+2+3+4+5+7+7+8+8 = 46 hits in ten
/// rolls, 4.6 boxes, against the heavy laser's 0.7 x 2 = 1.4. At range 2
/// from the cruiser (size +2) it rolls +2 +2 = +4: rows 5 to 14 give
/// 4+5+7+7+8+8+9+10+10+10 = 78, 7.8 boxes, against 0.9 x 2 = 1.8. Both
/// times the rocket pack fires first.
#[test]
fn a_swarm_is_weighed_by_its_mean_hits_on_the_swarm_table() {
    let mut b = battle("gunboat", "frigate", 3);
    holding_lock(&mut b, 0, 1, 1);
    assert_eq!(first_shot(system(), &b, 0), 2);
    let mut b = battle("gunboat", "cruiser", 2);
    holding_lock(&mut b, 0, 1, 1);
    assert_eq!(first_shot(system(), &b, 0), 2);
}

/// Rules note, Default tactics, target: "then the most damaged (the share
/// of its boxes marked, in thousandths: focus fire)". The destroyer, moved,
/// with the frigate (22 boxes) and the gunboat (9) both 4 hexes off, where
/// its lock on either is automatic (2 + FCS 2): the gunboat with 3 boxes
/// marked (3 x 1000 / 9 = 333) is more damaged than the frigate with 6
/// (6 x 1000 / 22 = 272), though it has fewer marked; the frigate with 11
/// (500) is more damaged than the gunboat with 4 (444).
#[test]
fn focus_fire_weighs_the_share_of_boxes_marked() {
    let rules = &system().rules;
    let mut b = fleet(&["destroyer"], &["frigate", "gunboat"]);
    place(&mut b, 0, Hex::ORIGIN, Direction::EAST);
    place(&mut b, 1, Hex::new(4, 0), Direction::WEST);
    place(&mut b, 2, Hex::new(4, -1), Direction::WEST);
    moved(&mut b, 0);
    let fresh = b.board.ships.clone();
    b.board.ships[1] = fresh[1].clone().with_boxes_marked(rules, 6);
    b.board.ships[2] = fresh[2].clone().with_boxes_marked(rules, 3);
    assert_eq!(lock_target(&b, 0), 2);
    b.board.ships[1] = fresh[1].clone().with_boxes_marked(rules, 11);
    b.board.ships[2] = fresh[2].clone().with_boxes_marked(rules, 4);
    assert_eq!(lock_target(&b, 0), 1);
}

/// Rules note, Default tactics: "Then lock on" when the roll can succeed
/// (Target lock: 1d6 at or under 7, -1 for every 2 full hexes of range, +
/// FCS, + the target's size, - its stealth). The gunboat (FCS 0), moved,
/// against the escort (size -1, stealth 1): at range 8 the lock number is
/// 7 - 4 + 0 - 1 - 1 = 1, and it tries; at range 10 it is 0, no face of
/// the d6 succeeds, and with nothing else to do it ends its turn.
#[test]
fn a_lock_is_tried_only_when_the_roll_can_succeed() {
    let mut b = battle("gunboat", "escort", 8);
    moved(&mut b, 0);
    assert_eq!(lock_target(&b, 0), 1);
    place(&mut b, 1, Hex::new(10, 0), Direction::WEST);
    assert_eq!(decision(system(), &b, 0), Decision::Done);
}

/// Rules note, Default tactics: "lock on (a second try in one turn only at
/// even odds or better)". The gunboat against the escort, as above: at
/// range 6 the lock number is 7 - 3 - 2 = 2, so it tries once, but after
/// a failed roll 2 in 6 is short of even odds and it stops; at range 4 it
/// is 3, 3 in 6 is even odds, and it tries again.
#[test]
fn a_second_lock_try_needs_even_odds() {
    let mut b = battle("gunboat", "escort", 6);
    moved(&mut b, 0);
    assert_eq!(lock_target(&b, 0), 1);
    b.turn[0].failed_locks.insert(1);
    assert_eq!(decision(system(), &b, 0), Decision::Done);
    place(&mut b, 1, Hex::new(4, 0), Direction::WEST);
    assert_eq!(lock_target(&b, 0), 1);
}

/// The sharing scene of the rules note's Default tactics ("holding the
/// lock, share it by Coordinate Fire Control at once when that saves
/// friends within 6 hexes two or more actions, or one lock roll"): the
/// destroyer at the origin, with `actions` left, holds a lock on the escort
/// at (3, 0), the last ship; a frigate at each of `frigates`, having acted
/// twice, has no lock on it, and its laser turrets (reach 8) reach it.
fn sharing_scene(frigates: &[Hex], actions: u8) -> Battle {
    let mut a = vec!["destroyer"];
    a.extend(frigates.iter().map(|_| "frigate"));
    let mut b = fleet(&a, &["escort"]);
    let escort = frigates.len() + 1;
    place(&mut b, 0, Hex::ORIGIN, Direction::EAST);
    for (k, &at) in frigates.iter().enumerate() {
        place(&mut b, k + 1, at, Direction::SOUTH_WEST);
        b.turn[k + 1].acted = 2;
        b.turn[k + 1].moved = true;
    }
    place(&mut b, escort, Hex::new(3, 0), Direction::WEST);
    b.turn[escort].moved = true;
    holding_lock(&mut b, 0, escort, actions);
    b
}

/// Whether the destroyer of [`sharing_scene`] shares its lock, or fires.
fn shares(b: &Battle) -> bool {
    let escort = b.board.ships.len() - 1;
    match decision(system(), b, 0) {
        Decision::Act(0, Action::CoordinateFireControl) => true,
        Decision::Act(0, Action::Attack { target, .. }) if usize::from(target) == escort => false,
        other => panic!("the destroyer should share its lock or fire, not {other:?}"),
    }
}

/// Rules note, Default tactics: Coordinate Fire Control is worth its
/// action only with an action left to fire. The frigate at (6, -6), 6
/// hexes from the destroyer, would roll for its own lock (6 hexes to the
/// escort, beyond 2 + FCS 1): with two actions left the destroyer shares
/// its lock, with one it fires.
#[test]
fn a_lock_is_shared_only_with_an_action_left_to_fire() {
    assert!(shares(&sharing_scene(&[Hex::new(6, -6)], 2)));
    assert!(!shares(&sharing_scene(&[Hex::new(6, -6)], 1)));
}

/// Rules note, Default tactics: sharing saves "friends with actions left":
/// the frigate of the sharing scene with no action left gains nothing, and
/// the destroyer fires.
#[test]
fn a_lock_is_not_shared_with_a_friend_that_has_no_action_left() {
    let mut b = sharing_scene(&[Hex::new(6, -6)], 5);
    assert!(shares(&b));
    b.turn[1].actions = 0;
    assert!(!shares(&b));
}

/// Rules note, Default tactics: sharing saves "friends within 6 hexes"
/// (Coordinate Fire Control's reach): a frigate at (7, -7), 7 hexes off,
/// its turrets still reaching the escort 7 hexes away, gains nothing, and
/// the destroyer fires; one at (6, -6), 6 hexes off, gains a lock roll.
#[test]
fn a_lock_is_not_shared_with_a_friend_out_of_reach() {
    assert!(!shares(&sharing_scene(&[Hex::new(7, -7)], 5)));
    assert!(shares(&sharing_scene(&[Hex::new(6, -6)], 5)));
}

/// Rules note, Default tactics: sharing must save "two or more actions,
/// or one lock roll". A frigate at (3, -2), 2 hexes from the escort,
/// would lock on it automatically (within 2 + FCS 1): sharing saves it one
/// action for the destroyer's one, and the destroyer fires. With a second
/// such frigate at (4, -3) (3 hexes from the escort) sharing saves two
/// actions, and the destroyer shares.
#[test]
fn a_lock_is_shared_to_save_two_actions_or_a_roll() {
    assert!(!shares(&sharing_scene(&[Hex::new(3, -2)], 5)));
    assert!(shares(&sharing_scene(
        &[Hex::new(3, -2), Hex::new(4, -3)],
        5
    )));
}

/// The destination of ship `i`'s Move under the default tactics.
fn move_to(s: &ActionD10, b: &Battle, i: usize) -> Hex {
    match decision(s, b, i) {
        Decision::Act(j, Action::Move { dest, .. }) if j == i => dest,
        other => panic!("ship {i} should move, not {other:?}"),
    }
}

/// Rules note, Default tactics, first action: the range after the drift
/// weighs 10 a hex off the best range, the range a turn later 4, and a
/// ship with remass to spare gains 2 a hex of thrust (jinking); with
/// friends on the map "each hex beyond 6 of the nearest friend costs half a
/// hex's worth" (5). The gunboat at rest at the origin (thrust 4, remass 12,
/// three turns' worth: to spare) against the frigate at rest at (5, 0);
/// its weapons do most at range 2 (heavy laser and laser turret on 7, the
/// rocket pack +2; at 3 the turret drops to 5). Alone it would thrust 4 to
/// (3, 1) or (4, -1): range 2, then 3 (-4), 4 hexes of thrust (+8): 4. Its
/// friend, a gunboat at rest at (-7, 0), is 11 hexes from either (5 beyond
/// 6: -25), so they score -21; (3, 0) scores range 2, then 1 (-4), 3 hexes
/// of thrust (+6), 10 hexes from the friend (-20): -18, the best.
#[test]
fn a_friend_far_behind_holds_a_ship_back() {
    let mut b = fleet(&["gunboat", "gunboat"], &["frigate"]);
    place(&mut b, 0, Hex::ORIGIN, Direction::EAST);
    place(&mut b, 1, Hex::new(-7, 0), Direction::EAST);
    place(&mut b, 2, Hex::new(5, 0), Direction::WEST);
    assert_eq!(move_to(system(), &b, 0), Hex::new(3, 0));
}

/// Rules note, Default tactics, first action: the range where its weapons
/// do most is weighed at the ends of their range brackets, each end once,
/// so a weapon of many brackets changes nothing but the ranges weighed.
/// With the laser turret's brackets cut into 70 one-hex brackets, all on 7, the gunboat 12 hexes from the frigate still does
/// most at range 2 (at 3 its heavy laser still hits on 7, but its rocket
/// pack drops from +2 to +0), and makes the move it makes with the data
/// of record.
#[test]
fn many_range_brackets_leave_the_best_range_as_it_was() {
    let one_hex: Vec<String> = (0..70).map(|r| format!("[{r}, {r}, 7]")).collect();
    let brackets = format!("[{}]", one_hex.join(", "));
    let s = edited_system(&[(
        "weapons.toml",
        "[[0, 2, 7], [3, 5, 5], [6, 8, 3]]",
        &brackets,
    )]);
    let b = battle_on(s, "gunboat", "frigate", 12);
    assert_eq!(
        move_to(s, &b, 0),
        move_to(system(), &battle("gunboat", "frigate", 12), 0)
    );
}

/// Rules note, Default tactics, first action: the range where its working
/// weapons do most against the target's size, the longest of equals (to
/// stand off where it costs nothing); a natural 10 always misses (Direct
/// fire), so no number does better than nine faces in ten. A gunboat
/// whose laser turret and rocket pack are destroyed, with its heavy laser
/// edited to hit on 8 out to 3 hexes and on 7 out to 7, 7 hexes from the
/// cruiser (size +2): the laser hits on 10 and on 9, nine faces in ten
/// either way, so range 7 does as much as range 3 and the gunboat keeps
/// the range at 7 after the drift.
#[test]
fn a_ship_stands_off_at_the_longest_of_equal_ranges() {
    let s = edited_system(&[(
        "weapons.toml",
        "[[0, 3, 7], [4, 7, 6], [8, 12, 4]]",
        "[[0, 3, 8], [4, 7, 7], [8, 12, 4]]",
    )]);
    let mut b = battle_on(s, "gunboat", "cruiser", 7);
    b.board.ships[0].weapons[1].destroyed = true;
    b.board.ships[0].weapons[2].destroyed = true;
    assert_eq!(move_to(s, &b, 0).distance(Hex::new(7, 0)), 7);
}

/// Rules note, Default tactics, first action: a ship never ends its move
/// where a salvo aimed at it waits, but a salvo aimed at another ship is
/// no danger to it (Projectiles and seekers: a salvo strikes only its
/// target, and only in its hex). The frigate at rest at (6, 0) launched a
/// missile at the second gunboat while its destination was (4, 0), and that
/// gunboat then thrust 2 back to (2, 0). The first gunboat, at rest at the
/// origin with remass to spare, moves to (4, 0) all the same: range 2
/// after the drift and a turn later, 4 hexes of jinking (+8), 2 hexes from
/// its friend's destination: 8, where (3, 1) and (4, -1) score -2 (range 3
/// after the drift, -10). Were the salvo aimed at the first gunboat, it
/// would go elsewhere.
#[test]
fn a_salvo_aimed_at_a_friend_does_not_turn_a_ship_aside() {
    let mut b = fleet(&["gunboat", "gunboat"], &["frigate"]);
    place(&mut b, 0, Hex::ORIGIN, Direction::EAST);
    b.poses[1] = Pose {
        hex: Hex::new(4, 0),
        dest: Hex::new(2, 0),
        facing: Direction::EAST,
    };
    moved(&mut b, 1);
    place(&mut b, 2, Hex::new(6, 0), Direction::WEST);
    b.salvos.push(Salvo {
        id: 1,
        owner: 2,
        target: 1,
        hex: Hex::new(4, 0),
        from: Hex::new(6, 0),
        range: 2,
        weapon: b.board.ships[2].weapons[3].weapon,
        missiles: 1,
        aim: false,
    });
    assert_eq!(move_to(system(), &b, 0), Hex::new(4, 0));
    b.salvos[0].target = 0;
    assert_ne!(move_to(system(), &b, 0), Hex::new(4, 0));
}

/// The gunboat of the move tests at rest at the origin facing east with
/// `remass` left (12, three turns of full thrust, is remass to spare), the
/// frigate at rest at `frigate`. The gunboat's weapons do most at range 2
/// against the frigate.
fn gunboat_against_frigate_at(frigate: Hex, remass: u16) -> Battle {
    let mut b = battle("gunboat", "frigate", 2);
    place(&mut b, 1, frigate, Direction::EAST);
    b.board.ships[0].remass = remass;
    b
}

/// Rules note, Default tactics, first action: the destination is the best
/// of every hex within its thrust, whichever way the ship faces, and it
/// turns its bow toward its target. The gunboat (remass to spare) faces
/// east with the frigate astern at (-7, 0): (-4, 0) scores range 3 after
/// the drift (-10), 1 a turn later (-4), 4 hexes of jinking (+8): -6,
/// where (-4, 1) and (-3, -1) score range 4 (-20), then 2, +8: -12; it
/// turns to face west. With the frigate at (-6, -1) (-4, 0) scores range 3
/// (-10), then 2, +8: -2, where (-3, -1) scores range 3 (-10), then 1 (-4),
/// +8: -6.
#[test]
fn a_ship_weighs_every_hex_within_its_thrust_whichever_way_it_faces() {
    let b = gunboat_against_frigate_at(Hex::new(-7, 0), 12);
    assert_eq!(
        decision(system(), &b, 0),
        Decision::Act(
            0,
            Action::Move {
                dest: Hex::new(-4, 0),
                facing: Direction::WEST
            }
        )
    );
    let b = gunboat_against_frigate_at(Hex::new(-6, -1), 12);
    assert_eq!(move_to(system(), &b, 0), Hex::new(-4, 0));
}

/// Rules note, Default tactics, first action: without remass to spare
/// (the gunboat with 11 burns, short of three turns of thrust 4) each hex
/// of thrust costs 1, and it turns its bow toward its target. The frigate
/// at (-2, 2), at range 2 already: staying scores 0 and any move at least
/// 1 hex of thrust (-1), so the gunboat stays and only turns to face
/// south-west, the frigate's way. Facing it already, it makes no move and
/// locks on (automatic within 2 + FCS 0).
#[test]
fn a_ship_at_its_best_range_without_remass_to_spare_only_turns() {
    let mut b = gunboat_against_frigate_at(Hex::new(-2, 2), 11);
    assert_eq!(
        decision(system(), &b, 0),
        Decision::Act(
            0,
            Action::Move {
                dest: Hex::ORIGIN,
                facing: Direction::SOUTH_WEST
            }
        )
    );
    b.poses[0].facing = Direction::SOUTH_WEST;
    assert_eq!(lock_target(&b, 0), 1);
}

/// Rules note, Default tactics, first action: it jinks while it has remass
/// to spare, each hex of thrust gaining 2, more than a friend next to it
/// gains (1). The gunboat at the origin (remass 12) with the frigate at
/// rest at (2, 0), its best range already, and a second gunboat at (0, 1):
/// staying scores range 2 and 2 (0) and the friend next to it (+1): 1;
/// (1, -1) scores range 2 and 2, 1 hex of jinking (+2), the friend 2 hexes
/// off: 2, and the gunboat moves there.
#[test]
fn a_ship_with_remass_to_spare_jinks_at_its_best_range() {
    let mut b = fleet(&["gunboat", "gunboat"], &["frigate"]);
    place(&mut b, 0, Hex::ORIGIN, Direction::EAST);
    place(&mut b, 1, Hex::new(0, 1), Direction::EAST);
    place(&mut b, 2, Hex::new(2, 0), Direction::WEST);
    assert_eq!(move_to(system(), &b, 0), Hex::new(1, -1));
}

/// Rules note, Default tactics, first action: of equal destinations it
/// keeps the first weighed in a frame turned toward its target (rows of
/// hexes from astern to ahead, each from port to starboard), so both sides
/// of a mirror match choose alike. Two gunboats 5 hexes apart (remass to
/// spare): for side A (3, 1) and (4, -1) both score range 2 after the drift,
/// 3 a turn later (-4), 4 hexes of jinking (+8): 4; (3, 1), in the row
/// farther astern, is taken. Side B, facing west, takes its mirror image,
/// (2, -1).
#[test]
fn of_equal_destinations_the_first_in_the_frame_toward_the_target() {
    let b = battle("gunboat", "gunboat", 5);
    assert_eq!(move_to(system(), &b, 0), Hex::new(3, 1));
    assert_eq!(move_to(system(), &b, 1), Hex::new(2, -1));
}

/// A salvo of ship `owner`'s `mount` aimed at ship `target`, waiting in
/// `hex`, launched from 6 hexes off.
fn salvo_of(b: &Battle, owner: usize, mount: usize, target: usize, hex: Hex) -> Salvo {
    Salvo {
        id: b.salvos.len() as u16 + 1,
        owner: owner as u8,
        target: target as u8,
        hex,
        from: b.poses[owner].dest,
        range: 6,
        weapon: b.board.ships[owner].weapons[mount].weapon,
        missiles: 1,
        aim: false,
    }
}

/// A missile of the frigate `owner`'s launcher (mount 3) aimed at ship
/// `target`, waiting in `hex`.
fn frigate_missile(b: &Battle, owner: usize, target: usize, hex: Hex) -> Salvo {
    salvo_of(b, owner, 3, target, hex)
}

/// Rules note, Default tactics: "launch salvos once the target has made
/// its move", from the first launcher that can. The destroyer holds its
/// lock on the frigate 6 hexes off, which has moved; it has fired its
/// guns, its particle cannon and its first missile launcher (mount 4)
/// this turn, and has two actions left: it launches from its second
/// missile launcher, mount 5.
#[test]
fn salvos_are_launched_from_the_first_launcher_that_can() {
    let mut b = battle("destroyer", "frigate", 6);
    holding_lock(&mut b, 0, 1, 2);
    for fired in [0, 1, 2, 3, 4, 7, 8] {
        b.turn[0].fired |= 1 << fired;
    }
    b.turn[1].moved = true;
    assert_eq!(first_shot(system(), &b, 0), 5);
}

/// The point defence scene: the destroyer, moved, at the origin; the
/// frigate at (4, -4), where its lock would be automatic (2 + FCS 2); a
/// missile of the frigate's aimed at the escort waits in the escort's hex,
/// `escort`.
fn point_defense_scene(escort: Hex) -> Battle {
    let mut b = fleet(&["destroyer", "escort"], &["frigate"]);
    place(&mut b, 0, Hex::ORIGIN, Direction::EAST);
    place(&mut b, 1, escort, Direction::EAST);
    place(&mut b, 2, Hex::new(4, -4), Direction::WEST);
    moved(&mut b, 0);
    b.turn[1].acted = 2;
    let missile = frigate_missile(&b, 2, 1, escort);
    b.salvos.push(missile);
    b
}

/// Rules note, Default tactics: point defence "when salvos aimed at ... a
/// friend within its guns' reach of its destination". The destroyer's
/// longest point defence reach is its laser turrets' 8 hexes (its point
/// defence guns reach 3; its heavy laser's 12 is no point defence): with
/// the missile 8 hexes off it activates point defence, with the missile 9
/// hexes off it locks on the frigate instead.
#[test]
fn point_defense_covers_a_friend_within_its_guns_reach() {
    assert_eq!(
        decision(system(), &point_defense_scene(Hex::new(8, 0)), 0),
        Decision::Act(0, Action::ActivatePointDefense)
    );
    assert_eq!(lock_target(&point_defense_scene(Hex::new(9, 0)), 0), 2);
}

/// Rules note, Default tactics: Command Points "the rest re-roll failed
/// locks", as many dice as they pay for (Command Points: a re-roll costs
/// `reroll-cost`). With the cost edited to 2, the destroyer's 2 Command
/// Points pay for one re-roll of its lock roll on the frigate 6 hexes off.
#[test]
fn a_lock_is_tried_with_the_rerolls_its_command_points_pay_for() {
    let s = edited_system(&[("rules.toml", "reroll-cost = 1", "reroll-cost = 2")]);
    let mut b = battle_on(s, "destroyer", "frigate", 6);
    moved(&mut b, 0);
    assert_eq!(
        decision(s, &b, 0),
        Decision::Act(
            0,
            Action::TargetLock {
                target: 1,
                rerolls: 1
            }
        )
    );
}

/// Rules note, Default tactics: "A salvo waiting in its destination hex
/// makes it move at once, if it has not moved." The destroyer at the
/// origin has acted once without moving; the frigate 6 hexes off has a
/// missile aimed at it waiting in its destination hex: it moves. Had it
/// moved already, it activates point defence instead; and a missile aimed
/// at its friend the escort, in the same hex, makes it activate point
/// defence but not move.
#[test]
fn a_salvo_in_its_destination_hex_makes_a_ship_move_once() {
    let mut b = fleet(&["destroyer", "escort"], &["frigate"]);
    place(&mut b, 0, Hex::ORIGIN, Direction::EAST);
    place(&mut b, 1, Hex::new(0, 1), Direction::EAST);
    place(&mut b, 2, Hex::new(6, 0), Direction::WEST);
    b.turn[0].acted = 1;
    b.turn[1].acted = 2;
    let missile = frigate_missile(&b, 2, 0, Hex::ORIGIN);
    b.salvos.push(missile);
    assert!(matches!(
        decision(system(), &b, 0),
        Decision::Act(0, Action::Move { .. })
    ));
    b.turn[0].moved = true;
    assert_eq!(
        decision(system(), &b, 0),
        Decision::Act(0, Action::ActivatePointDefense)
    );
    b.turn[0].moved = false;
    b.salvos[0].target = 1;
    assert_eq!(
        decision(system(), &b, 0),
        Decision::Act(0, Action::ActivatePointDefense)
    );
}

/// Rules note, Default tactics: "jump out if `escape-below` ... says so"
/// (Fleets: at or below that percentage of boxes left). A frigate (22
/// boxes), moved, whose side escapes below 50%: with 11 boxes marked, 11
/// left, 11 x 100 = 1100 is at 50 x 22 = 1100, and it activates its
/// hyperdrive; with 10 marked, 1200 is above, and it tries its lock on the
/// other frigate 12 hexes off (7 - 6 + FCS 1 = 2, with its one Command
/// Point's re-roll) instead.
#[test]
fn a_ship_jumps_out_at_or_below_its_sides_escape_percentage() {
    let rules = &system().rules;
    let tactics = DefaultTactics { escape_below: 50 };
    let mut b = battle("frigate", "frigate", 12);
    moved(&mut b, 0);
    let fresh = b.board.ships[0].clone();
    b.board.ships[0] = fresh.clone().with_boxes_marked(rules, 11);
    assert_eq!(
        tactics.next_action(system(), &b, Side::A, false),
        Decision::Act(0, Action::ActivateHyperdrive)
    );
    b.board.ships[0] = fresh.with_boxes_marked(rules, 10);
    assert_eq!(
        tactics.next_action(system(), &b, Side::A, false),
        Decision::Act(
            0,
            Action::TargetLock {
                target: 1,
                rerolls: 1
            }
        )
    );
}

/// The salvo scene: the destroyer (one antimatter spread) at the origin,
/// moved, with the escort at (0, 1) and the frigate 6 hexes east; the
/// frigate's missiles aimed at `target` wait in the destroyer's hex, one
/// for each of `count`.
fn salvos_at_the_destroyer(target: usize, count: usize) -> Battle {
    let mut b = fleet(&["destroyer", "escort"], &["frigate"]);
    place(&mut b, 0, Hex::ORIGIN, Direction::EAST);
    place(&mut b, 1, Hex::new(0, 1), Direction::EAST);
    place(&mut b, 2, Hex::new(6, 0), Direction::WEST);
    moved(&mut b, 0);
    b.turn[1].acted = 2;
    for _ in 0..count {
        let missile = frigate_missile(&b, 2, target, Hex::ORIGIN);
        b.salvos.push(missile);
    }
    b
}

/// Rules note, Default tactics: "an antimatter spread against two or more
/// salvos" aimed at the ship, while it has one and has not set one off
/// this turn; otherwise point defence takes them. The destroyer with two
/// missiles aimed at it sets off its spread; with one, or with two aimed
/// at the escort beside it, or with its spread set off already, or with
/// none left, it activates point defence.
#[test]
fn an_antimatter_spread_meets_two_salvos_aimed_at_the_ship() {
    let spread = Decision::Act(0, Action::ActivateAntimatterSpread);
    let point_defense = Decision::Act(0, Action::ActivatePointDefense);
    let b = salvos_at_the_destroyer(0, 2);
    assert_eq!(decision(system(), &b, 0), spread);
    let one = salvos_at_the_destroyer(0, 1);
    assert_eq!(decision(system(), &one, 0), point_defense);
    let at_friend = salvos_at_the_destroyer(1, 2);
    assert_eq!(decision(system(), &at_friend, 0), point_defense);
    let mut spent = b.clone();
    spent.turn[0].spread = true;
    assert_eq!(decision(system(), &spent, 0), point_defense);
    let mut none_left = b;
    none_left.board.ships[0].antimatter_spreads = 0;
    assert_eq!(decision(system(), &none_left, 0), point_defense);
}

/// The chaff scene: the frigate (two chaff pods) at the origin, moved,
/// with the escort at (0, 1) and the destroyer 6 hexes east; a salvo of
/// the destroyer's `mount` (4: missile launcher, 6: seeker launcher) aimed
/// at `target` waits in `hex`.
fn chaff_scene(mount: usize, target: usize, hex: Hex) -> Battle {
    let mut b = fleet(&["frigate", "escort"], &["destroyer"]);
    place(&mut b, 0, Hex::ORIGIN, Direction::EAST);
    place(&mut b, 1, Hex::new(0, 1), Direction::EAST);
    place(&mut b, 2, Hex::new(6, 0), Direction::WEST);
    moved(&mut b, 0);
    b.turn[1].acted = 2;
    let salvo = salvo_of(&b, 2, mount, target, hex);
    b.salvos.push(salvo);
    b
}

/// Rules note, Default tactics: "a chaff pod when a seeker salvo waits in
/// its destination hex" (aimed at it: chaff spoils a seeker's aim at the
/// ship that drops it, ruling 32), while it has a pod and has not dropped
/// one this turn; otherwise point defence takes the salvo. The frigate
/// drops chaff for the destroyer's seeker waiting in its hex; for a
/// missile there, a seeker in the next hex, a seeker aimed at the escort,
/// with chaff dropped already or with no pod left, it activates point
/// defence.
#[test]
fn chaff_meets_a_seeker_waiting_in_the_ships_hex() {
    let chaff = Decision::Act(0, Action::DropChaffPod);
    let point_defense = Decision::Act(0, Action::ActivatePointDefense);
    let b = chaff_scene(6, 0, Hex::ORIGIN);
    assert_eq!(decision(system(), &b, 0), chaff);
    let missile = chaff_scene(4, 0, Hex::ORIGIN);
    assert_eq!(decision(system(), &missile, 0), point_defense);
    let elsewhere = chaff_scene(6, 0, Hex::new(1, 0));
    assert_eq!(decision(system(), &elsewhere, 0), point_defense);
    let at_friend = chaff_scene(6, 1, Hex::ORIGIN);
    assert_eq!(decision(system(), &at_friend, 0), point_defense);
    let mut dropped = b.clone();
    dropped.turn[0].chaff = true;
    assert_eq!(decision(system(), &dropped, 0), point_defense);
    let mut no_pods = b;
    no_pods.board.ships[0].chaff_pods = 0;
    assert_eq!(decision(system(), &no_pods, 0), point_defense);
}

/// The destroyer, moved, at the origin against the carrier at (4, 0)
/// (its lock automatic within 2 + FCS 2), its riders docked, with a flight
/// of six swarmers of `side` at `hex`.
fn flight_scene(side: Side, hex: Hex) -> Battle {
    let mut b = fleet(&["destroyer"], &["carrier"]);
    place(&mut b, 0, Hex::ORIGIN, Direction::EAST);
    // The carrier is ship 1, its riders after it in the roster.
    place(&mut b, 1, Hex::new(4, 0), Direction::WEST);
    moved(&mut b, 0);
    b.flights.push(Flight {
        carrier: 1,
        side,
        craft: 6,
        hex,
        fresh: false,
    });
    b
}

/// Rules note, Default tactics: point defence when "enemy small craft
/// threaten": an enemy flight within 8 hexes. The destroyer activates
/// point defence for the carrier's flight 8 hexes off; with the flight 9
/// hexes off, or with a flight of its own side beside it, it locks on the
/// carrier first (and never launches a rider it does not carry).
#[test]
fn point_defense_meets_enemy_small_craft_within_8_hexes() {
    let b = flight_scene(Side::B, Hex::new(-8, 0));
    assert_eq!(
        decision(system(), &b, 0),
        Decision::Act(0, Action::ActivatePointDefense)
    );
    let far = flight_scene(Side::B, Hex::new(-9, 0));
    assert_eq!(lock_target(&far, 0), 1);
    let own = flight_scene(Side::A, Hex::new(0, 1));
    assert_eq!(lock_target(&own, 0), 1);
}

/// Rules note, Default tactics: "launch small craft and riders". The
/// carrier, moved, with its six swarmers in the hangar launches them; with
/// them out it launches a gunboat from its clamps; with its gunboats out
/// too (having acted) it locks on the frigate 12 hexes off (7 - 6 + FCS 2
/// = 3).
#[test]
fn a_carrier_launches_its_small_craft_then_its_riders() {
    let mut b = fleet(&["carrier"], &["frigate"]);
    // The carrier is ship 0, its two gunboats 1 and 2, the frigate 3.
    moved(&mut b, 0);
    assert_eq!(
        decision(system(), &b, 0),
        Decision::Act(0, Action::LaunchSmallCraft)
    );
    b.board.ships[0].small_craft = 0;
    assert_eq!(
        decision(system(), &b, 0),
        Decision::Act(0, Action::LaunchRider)
    );
    for rider in [1, 2] {
        b.docked[rider] = false;
        b.turn[rider].actions = 0;
    }
    assert_eq!(lock_target(&b, 0), 3);
}

/// Rules note, Default tactics: "Then lock on", when a weapon could use
/// the lock. The gunboat, moved, 2 hexes from the escort (automatic within
/// 2 + FCS 0), locks on it; with every weapon fired this turn it has
/// nothing more to do and ends its turn.
#[test]
fn a_lock_is_taken_only_for_a_weapon_that_could_use_it() {
    let mut b = battle("gunboat", "escort", 2);
    moved(&mut b, 0);
    assert_eq!(lock_target(&b, 0), 1);
    b.turn[0].fired = 0b111;
    assert_eq!(decision(system(), &b, 0), Decision::Done);
}

/// The firing scene: the destroyer holding its lock on the frigate 6
/// hexes off, with `actions` left, having fired its laser turrets
/// (mounts 1 and 2) and its first missile launcher (mount 4) this turn;
/// the frigate has not moved. Its heavy laser (mount 0), second missile
/// launcher (5) and seeker launcher (6) can fire; its particle cannon
/// (3) is not charged; its point defence guns (7, 8) do not reach.
fn firing_scene(actions: u8) -> Battle {
    let mut b = battle("destroyer", "frigate", 6);
    holding_lock(&mut b, 0, 1, actions);
    for fired in [1, 2, 4] {
        b.turn[0].fired |= 1 << fired;
    }
    b
}

/// Rules note, Default tactics: "charge a weapon that reaches when an
/// action is to spare to fire it". The destroyer of the firing scene with
/// five actions has three mounts that can fire, two actions to spare: it
/// charges its particle cannon (reach 14). Once the cannon is charged it
/// has four mounts and one action to spare, and fires the cannon (on 6,
/// 0.6 x 3 = 1.8 boxes, against the heavy laser's 0.6 x 2). With the
/// cannon destroyed, or fired already this turn, it charges nothing and
/// aims; with the frigate 16 hexes off, beyond the cannon's reach (and
/// the heavy laser's), it charges nothing and waits to launch.
#[test]
fn a_weapon_that_reaches_is_charged_with_an_action_to_spare() {
    let b = firing_scene(5);
    assert_eq!(
        decision(system(), &b, 0),
        Decision::Act(0, Action::ChargeWeapon { mount: 3 })
    );
    let mut charged = b.clone();
    charged.board.ships[0].weapons[3].charged = true;
    assert_eq!(first_shot(system(), &charged, 0), 3);
    let aim = Decision::Act(0, Action::Aim { target: 1 });
    let mut destroyed = b.clone();
    destroyed.board.ships[0].weapons[3].destroyed = true;
    assert_eq!(decision(system(), &destroyed, 0), aim);
    let mut fired = b.clone();
    fired.turn[0].fired |= 1 << 3;
    assert_eq!(decision(system(), &fired, 0), aim);
    let mut far = b;
    place(&mut far, 1, Hex::new(16, 0), Direction::WEST);
    assert_eq!(decision(system(), &far, 0), Decision::Wait);
}

/// Rules note, Default tactics: "aim when actions are to spare" (Aim:
/// +1 to hit the target for the rest of the turn). The destroyer of the
/// firing scene with its particle cannon destroyed: with five actions and
/// three mounts that can fire it aims at the frigate; having aimed, or
/// with four actions (one to spare), it fires its heavy laser.
#[test]
fn a_ship_aims_with_actions_to_spare() {
    let mut b = firing_scene(5);
    b.board.ships[0].weapons[3].destroyed = true;
    assert_eq!(
        decision(system(), &b, 0),
        Decision::Act(0, Action::Aim { target: 1 })
    );
    let mut aimed = b.clone();
    aimed.turn[0].aims.insert(1);
    assert_eq!(first_shot(system(), &aimed, 0), 0);
    b.turn[0].actions = 4;
    assert_eq!(first_shot(system(), &b, 0), 0);
}

/// The re-rolls the destroyer's attack asks for.
fn attack_rerolls(b: &Battle) -> u8 {
    match decision(system(), b, 0) {
        Decision::Act(0, Action::Attack { rerolls, .. }) => rerolls,
        other => panic!("the destroyer should fire, not {other:?}"),
    }
}

/// Rules note, Default tactics: Command Points re-roll "misses with even
/// odds or better". The destroyer (2 Command Points) holding its lock on
/// the escort (size -1) 5 hexes off, one action left, fires its heavy
/// laser on 6 - 1 = 5, even odds, with 2 re-rolls; with the escort
/// thrusting (1 hex of displacement, -1) on 4, with none.
#[test]
fn misses_are_rerolled_only_at_even_odds_or_better() {
    let mut b = battle("destroyer", "escort", 5);
    holding_lock(&mut b, 0, 1, 1);
    assert_eq!(first_shot(system(), &b, 0), 0);
    assert_eq!(attack_rerolls(&b), 2);
    b.turn[1].displacement = 1;
    assert_eq!(first_shot(system(), &b, 0), 0);
    assert_eq!(attack_rerolls(&b), 0);
}

/// Rules note, Default tactics: "launch salvos once the target has made
/// its move (or when waiting would lose the action)". The destroyer of the
/// firing scene with its heavy laser fired and its cannon destroyed has
/// only its two launchers left: with five actions it waits while the
/// frigate may still move; it launches once the frigate has moved, has no
/// action left, or has no thrust (no remass), when the other side will not
/// act again before it (the last chance), or when it has no more actions
/// than launchers (two).
#[test]
fn salvos_wait_for_the_target_to_make_its_move() {
    let mut b = firing_scene(5);
    b.turn[0].fired |= 1;
    b.board.ships[0].weapons[3].destroyed = true;
    let tactics = DefaultTactics::default();
    let launches = |b: &Battle, last_chance: bool| match tactics.next_action(
        system(),
        b,
        Side::A,
        last_chance,
    ) {
        Decision::Act(0, Action::Attack { mount: 5, .. }) => true,
        Decision::Wait => false,
        other => panic!("the destroyer should launch or wait, not {other:?}"),
    };
    assert!(!launches(&b, false));
    assert!(launches(&b, true));
    let mut moved = b.clone();
    moved.turn[1].moved = true;
    assert!(launches(&moved, false));
    let mut spent = b.clone();
    spent.turn[1].actions = 0;
    assert!(launches(&spent, false));
    let mut dry = b.clone();
    dry.board.ships[1].remass = 0;
    assert!(launches(&dry, false));
    b.turn[0].actions = 2;
    assert!(launches(&b, false));
}

/// Rules note, Default tactics: "With actions left: point defence if any
/// enemy on the map carries launchers or there are enemy small craft".
/// The escort, moved, with no weapon reaching its enemy 20 hexes off and
/// no lock to try (7 - 10 + FCS 1 + size is below 1): against the frigate
/// (a missile launcher) it activates point defence; against the gunboat
/// (none) it has nothing to do; against a carrier refitted without its
/// launcher it activates point defence only while one of its flights is
/// out, however far.
#[test]
fn point_defense_is_activated_against_launchers_or_small_craft() {
    let mut b = battle("escort", "frigate", 20);
    moved(&mut b, 0);
    assert_eq!(
        decision(system(), &b, 0),
        Decision::Act(0, Action::ActivatePointDefense)
    );
    let mut b = battle("escort", "gunboat", 20);
    moved(&mut b, 0);
    assert_eq!(decision(system(), &b, 0), Decision::Done);
    let s = edited_system(&[(
        "ships.toml",
        "{ weapon = \"missile-launcher\" },\n    { weapon = \"point-defense-gun\", count = 3 },",
        "{ weapon = \"point-defense-gun\", count = 3 },",
    )]);
    let mut b = battle_on(s, "escort", "carrier", 20);
    moved(&mut b, 0);
    assert_eq!(decision(s, &b, 0), Decision::Done);
    b.flights.push(Flight {
        carrier: 1,
        side: Side::B,
        craft: 6,
        hex: Hex::new(30, 0),
        fresh: false,
    });
    assert_eq!(
        decision(s, &b, 0),
        Decision::Act(0, Action::ActivatePointDefense)
    );
}

/// The housekeeping scene: the destroyer, moved, 30 hexes from the
/// gunboat (no launcher), beyond every weapon and every lock roll.
fn housekeeping_scene(s: &ActionD10) -> Battle {
    let mut b = battle_on(s, "destroyer", "gunboat", 30);
    moved(&mut b, 0);
    b
}

/// Rules note, Default tactics: "With actions left: ... charge weapons,
/// recharge shields, repair (...)", in that order, repairs with the
/// re-rolls its Command Points pay for. The destroyer of the housekeeping
/// scene charges its particle cannon, or repairs it if it is destroyed;
/// charged, with full shields and nothing to repair, it has nothing to
/// do; with one shield
/// point down it recharges its shields; with a thruster lost it repairs
/// it, with the reroll-cost edited to 2 one re-roll for its 2 Command
/// Points.
#[test]
fn housekeeping_charges_then_recharges_shields_then_repairs() {
    let mut b = housekeeping_scene(system());
    assert_eq!(
        decision(system(), &b, 0),
        Decision::Act(0, Action::ChargeWeapon { mount: 3 })
    );
    let mut destroyed = b.clone();
    destroyed.board.ships[0].weapons[3].destroyed = true;
    assert_eq!(
        decision(system(), &destroyed, 0),
        Decision::Act(
            0,
            Action::Repair {
                item: Repairable::Weapon(3),
                rerolls: 2
            }
        )
    );
    b.board.ships[0].weapons[3].charged = true;
    assert_eq!(decision(system(), &b, 0), Decision::Done);
    b.board.ships[0].shields -= 1;
    assert_eq!(
        decision(system(), &b, 0),
        Decision::Act(0, Action::RechargeShields)
    );
    let s = edited_system(&[("rules.toml", "reroll-cost = 1", "reroll-cost = 2")]);
    let mut b = housekeeping_scene(s);
    b.board.ships[0].weapons[3].charged = true;
    b.board.ships[0].intact[System::Thruster.index()] -= 1;
    assert_eq!(
        decision(s, &b, 0),
        Decision::Act(
            0,
            Action::Repair {
                item: Repairable::System(System::Thruster),
                rerolls: 1
            }
        )
    );
}

/// Rules note, Default tactics: with actions left, "share locks with any
/// friend in reach that lacks one". The destroyer holds a lock on the
/// gunboat 30 hexes off (its cannon charged, nothing else to do); the
/// frigate at (6, -6), 6 hexes away (Coordinate Fire Control's reach),
/// lacks it, and the destroyer shares it. It does not when the frigate
/// holds the lock already, when the frigate is at (7, -7), 7 hexes away,
/// or when it holds no lock.
#[test]
fn housekeeping_shares_locks_with_a_friend_in_reach_that_lacks_them() {
    let mut b = fleet(&["destroyer", "frigate"], &["gunboat"]);
    place(&mut b, 0, Hex::ORIGIN, Direction::EAST);
    place(&mut b, 1, Hex::new(6, -6), Direction::EAST);
    place(&mut b, 2, Hex::new(30, 0), Direction::WEST);
    moved(&mut b, 0);
    b.turn[0].locks.insert(2);
    b.turn[1].acted = 2;
    b.board.ships[0].weapons[3].charged = true;
    assert_eq!(
        decision(system(), &b, 0),
        Decision::Act(0, Action::CoordinateFireControl)
    );
    let mut shared = b.clone();
    shared.turn[1].locks.insert(2);
    assert_eq!(decision(system(), &shared, 0), Decision::Done);
    let mut far = b.clone();
    place(&mut far, 1, Hex::new(7, -7), Direction::EAST);
    assert_eq!(decision(system(), &far, 0), Decision::Done);
    b.turn[0].locks = Default::default();
    assert_eq!(decision(system(), &b, 0), Decision::Done);
}

/// The repair the destroyer of the housekeeping scene (cannon charged)
/// makes, if any.
fn repair_of(b: &Battle) -> Option<Repairable> {
    match decision(system(), b, 0) {
        Decision::Act(0, Action::Repair { item, .. }) => Some(item),
        Decision::Done => None,
        other => panic!("the destroyer should repair or be done, not {other:?}"),
    }
}

/// Rules note, Default tactics: "repair (jam, weapons, scanners,
/// thrusters, fire control, sensors, shield generator, power plant ...)",
/// the first in that order; and "with the option
/// `target-lock.needs-scanners` off it repairs no scanner". The destroyer
/// of the housekeeping scene with a power plant and a thruster lost
/// repairs the thruster; with its particle cannon destroyed too it repairs
/// the cannon (mount 3). A disabled short range scanner it leaves alone.
/// The gunboat, which has no launcher, leaves a jammed magazine alone.
#[test]
fn repairs_follow_the_order_of_the_rules_note() {
    let mut b = housekeeping_scene(system());
    b.board.ships[0].weapons[3].charged = true;
    let mut scanner = b.clone();
    scanner.board.ships[0].scanners[1] = ScannerState::Disabled;
    assert_eq!(repair_of(&scanner), None);
    b.board.ships[0].intact[System::PowerPlant.index()] -= 1;
    b.board.ships[0].intact[System::Thruster.index()] -= 1;
    assert_eq!(repair_of(&b), Some(Repairable::System(System::Thruster)));
    b.board.ships[0].weapons[3].destroyed = true;
    assert_eq!(repair_of(&b), Some(Repairable::Weapon(3)));
    let mut b = battle("gunboat", "escort", 30);
    moved(&mut b, 0);
    b.board.ships[0].jammed = true;
    assert_eq!(decision(system(), &b, 0), Decision::Done);
}

/// Rules note, Default tactics: "Command Points: one extra action each
/// turn it can pay for" (Command Points: an extra action costs
/// `extra-action-cost`). At 1 Command Point an action, the frigate (1)
/// and the destroyer (2) buy one and the gunboat (0) none; at 2 a point,
/// the destroyer buys one and the frigate none.
#[test]
fn one_extra_action_is_bought_when_the_points_pay_for_it() {
    let tactics = DefaultTactics::default();
    let extra = |s: &ActionD10, a: &str| {
        let b = battle_on(s, a, "frigate", 12);
        tactics.extra_actions(s, &b, 0)
    };
    assert_eq!(extra(system(), "frigate"), 1);
    assert_eq!(extra(system(), "destroyer"), 1);
    assert_eq!(extra(system(), "gunboat"), 0);
    let s = edited_system(&[(
        "rules.toml",
        "extra-action-cost = 1",
        "extra-action-cost = 2",
    )]);
    assert_eq!(extra(s, "destroyer"), 1);
    assert_eq!(extra(s, "frigate"), 0);
}

/// The carrier's flight of six swarmers at the origin (speed 6) against
/// the frigate at (3, 0) and the gunboat at (5, -1), both in reach, with
/// `frigate` and `gunboat` boxes marked.
fn flight_against(frigate: u8, gunboat: u8) -> Battle {
    let rules = &system().rules;
    let mut b = fleet(&["carrier"], &["frigate", "gunboat"]);
    // The carrier is ship 0, its two gunboats 1 and 2, the frigate 3 and
    // the enemy gunboat 4.
    place(&mut b, 3, Hex::new(3, 0), Direction::WEST);
    place(&mut b, 4, Hex::new(5, -1), Direction::WEST);
    b.board.ships[3] = b.board.ships[3].clone().with_boxes_marked(rules, frigate);
    b.board.ships[4] = b.board.ships[4].clone().with_boxes_marked(rules, gunboat);
    b.flights.push(Flight {
        carrier: 0,
        side: Side::A,
        craft: 6,
        hex: Hex::ORIGIN,
        fresh: false,
    });
    b
}

/// Rules note, Default tactics: "Small craft attack the most damaged enemy
/// they can reach this turn", the share of its boxes marked as for ships.
/// The gunboat with 3 of 9 boxes marked (333) before the frigate with 6 of
/// 22 (272); the frigate with 11 (500) before the gunboat with 4 (444).
/// Their own carrier, half wrecked (19 of 37, 513) and under them, is
/// never a target.
#[test]
fn small_craft_weigh_the_share_of_boxes_marked_and_spare_their_own_side() {
    let rules = &system().rules;
    let tactics = DefaultTactics::default();
    let mut b = flight_against(6, 3);
    b.board.ships[0] = b.board.ships[0].clone().with_boxes_marked(rules, 19);
    assert_eq!(tactics.flight(system(), &b, 0).target, Some(4));
    let b = flight_against(11, 4);
    assert_eq!(tactics.flight(system(), &b, 0).target, Some(3));
}

/// Rules note, Default tactics: "Point defence takes salvos aimed at its
/// own ship first (one gun per missile of a salvo), then at friends, then
/// small craft", with each point defence weapon that can fire and reaches.
/// The destroyer's point defence mounts are its laser turrets (1, 2) and
/// point defence guns (7, 8); its heavy laser (0) is none. Offered, in
/// this order, a one-missile salvo aimed at the escort, one aimed at the
/// destroyer and a flight, all 1 hex off: turret 1 takes the salvo aimed
/// at the destroyer, turret 2 the escort's, and both guns the flight.
/// With turret 1 destroyed, turret 2 takes the salvo aimed at the
/// destroyer, gun 7 the escort's (1 hex is within its reach of 3), and gun
/// 8 the flight.
#[test]
fn point_defense_takes_own_salvos_then_friends_then_small_craft() {
    let mut b = salvos_at_the_destroyer(1, 1);
    let at_me = frigate_missile(&b, 2, 0, Hex::ORIGIN);
    b.salvos.push(at_me);
    b.flights.push(Flight {
        carrier: 2,
        side: Side::B,
        craft: 6,
        hex: Hex::new(1, 0),
        fresh: false,
    });
    let threats = [
        (Threat::Salvo(0), 1),
        (Threat::Salvo(1), 1),
        (Threat::Flight(0), 1),
    ];
    let tactics = DefaultTactics::default();
    assert_eq!(
        tactics.point_defense(system(), &b, 0, &threats),
        vec![(1, 1), (2, 0), (7, 2), (8, 2)]
    );
    b.board.ships[0].weapons[1].destroyed = true;
    assert_eq!(
        tactics.point_defense(system(), &b, 0, &threats),
        vec![(2, 1), (7, 0), (8, 2)]
    );
}

/// Rules note, Default tactics: small craft move to the range nearest the
/// far end of the best bracket of their weapon against their target, by
/// the shortest way; of equal hexes the first read ring by ring out from the flight, each ring
/// clockwise from the hex dead ahead (the frame turned toward the target,
/// so both sides of a mirror match choose alike). The carrier's swarmers
/// (best bracket 0-1) at the origin against the frigate at (3, -1), dead
/// ahead to the east: (2, 0) and (2, -1) are both 1 hex from it and 2 from
/// the flight, and (2, 0), dead ahead, is taken.
#[test]
fn small_craft_take_the_first_of_equal_hexes_clockwise_from_ahead() {
    let mut b = fleet(&["carrier"], &["frigate"]);
    // The carrier is ship 0, its two gunboats 1 and 2, the frigate 3.
    place(&mut b, 3, Hex::new(3, -1), Direction::WEST);
    b.flights.push(Flight {
        carrier: 0,
        side: Side::A,
        craft: 6,
        hex: Hex::ORIGIN,
        fresh: false,
    });
    let order = DefaultTactics::default().flight(system(), &b, 0);
    assert_eq!((order.to, order.target), (Hex::new(2, 0), Some(3)));
}

/// Rules note, Default tactics, order of ships: "a side lets the ship that
/// has acted least this turn act next", among those with actions left.
/// The frigate has moved (one action taken) and the escort has not acted:
/// the escort moves first. With the escort out of actions, though it has
/// taken none, the frigate acts. A lone frigate out of actions is done,
/// though it has not moved.
#[test]
fn the_ship_with_actions_left_that_has_acted_least_goes_first() {
    let mut b = fleet(&["frigate", "escort"], &["frigate"]);
    moved(&mut b, 0);
    assert!(matches!(
        decision(system(), &b, 0),
        Decision::Act(1, Action::Move { .. })
    ));
    b.turn[1].actions = 0;
    assert!(matches!(decision(system(), &b, 0), Decision::Act(0, _)));
    let mut lone = battle("frigate", "frigate", 12);
    lone.turn[0].actions = 0;
    assert_eq!(decision(system(), &lone, 0), Decision::Done);
}

/// Rules note, Default tactics, first action: the range kept is where the
/// weapons that can still fire do most, so a ship none of whose weapons
/// can fire has no range to keep and closes on its target. The gunboat,
/// every mount destroyed, at rest at the origin with 11 burns of remass
/// (none to spare: each hex of thrust costs 1), the frigate at rest at
/// (7, 0): (4, 0) leaves range 3 after the drift (-30) and 1 a turn later
/// (-4), for 4 hexes of thrust (-4): -38, the best within its thrust of 4.
#[test]
fn a_ship_with_no_weapon_left_to_fire_closes_on_its_target() {
    let mut b = gunboat_against_frigate_at(Hex::new(7, 0), 11);
    for mount in &mut b.board.ships[0].weapons {
        mount.destroyed = true;
    }
    assert_eq!(move_to(system(), &b, 0), Hex::new(4, 0));
}

/// Rules note, Default tactics, first action: a Move needs thrust, so a
/// ship with none left (the gunboat's reaction drive with its remass
/// spent) makes no move, not even a turn in place, and goes on to lock
/// on: the frigate at (2, 0), astern of it as it faces west, is within
/// the automatic lock's 2 + FCS 0 hexes.
#[test]
fn a_ship_with_no_thrust_left_makes_no_move() {
    let mut b = gunboat_against_frigate_at(Hex::new(2, 0), 0);
    b.poses[0].facing = Direction::WEST;
    assert_eq!(lock_target(&b, 0), 1);
}

/// Rules note, Default tactics: a repair is tried only if it can succeed,
/// a repair number of 1 or more. The destroyer of the housekeeping scene
/// (cannon charged) with its fire control lost: a very hard repair, 2,
/// less 1 for each of its three crew decks lost (Repairs, ruling 40). With two decks
/// lost the number is 0 and it makes no repair; with one lost it is 1 and
/// it repairs the fire control.
#[test]
fn a_repair_is_tried_only_when_its_number_is_1_or_more() {
    let mut b = housekeeping_scene(system());
    b.board.ships[0].weapons[3].charged = true;
    b.board.ships[0].intact[System::FireControl.index()] = 0;
    b.board.ships[0].intact[System::CrewDeck.index()] = 1;
    assert_eq!(repair_of(&b), None);
    b.board.ships[0].intact[System::CrewDeck.index()] = 2;
    assert_eq!(repair_of(&b), Some(Repairable::System(System::FireControl)));
}
