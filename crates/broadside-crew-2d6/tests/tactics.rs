//! The default tactics' choices: each preference of the rules note's Default tactics, pinned by a scenario it decides.
//!
//! The default policy is a house choice, not a seed rule: the rules note
//! (Default tactics) states each preference, and every test here quotes it
//! with the arithmetic that decides the choice. Ships are the samples of
//! `rulesets/crew-2d6/ships.toml` (hull: corvette 160, trader 80, scout
//! 40; thrust: corvette 4), numbered in roster order: side A's, then side
//! B's.

mod common;

use broadside_crew_2d6::model::{Band, WeaponKind};
use broadside_crew_2d6::tactics::FOCUS_IDS;
use broadside_crew_2d6::{
    Action, Battle, Condition, Crew2d6, CrewTactics, DefaultTactics, Focus, ShipId as S,
};
use common::{appended, battle, battle_in, edited, fleet, load, sources, system};

/// The focus target the default tactics pick for a ship.
fn focus(b: &Battle, ship: S) -> Option<S> {
    DefaultTactics::default().focus_target(system(), b, ship)
}

/// The thrust of the default tactics' Maneuver, `None` for no Maneuver.
fn maneuver_in(sys: &Crew2d6, b: &Battle, ship: S) -> Option<i32> {
    DefaultTactics::default()
        .maneuver(sys, b, ship)
        .map(|m| m.thrust)
}

/// Whether the default tactics order the J-drive Engineer to jump.
fn jumps(b: &Battle, ship: S) -> bool {
    DefaultTactics::default()
        .actions(system(), b, ship)
        .iter()
        .any(|o| o.action == Action::Jump)
}

/// Empties every magazine of a ship: its launchers have nothing to launch.
fn spend_every_missile(b: &mut Battle, ship: S) {
    for left in &mut b.ship_mut(ship).magazines {
        *left = 0;
    }
}

/// The `focus` side option names the two focus rules in [`Focus`] order,
/// and nothing else names one.
#[test]
fn focus_option_values_name_the_focus_rules() {
    let named: Vec<_> = FOCUS_IDS.iter().map(|id| Focus::from_id(id)).collect();
    assert_eq!(named, [Some(Focus::Weakest), Some(Focus::Nearest)]);
    assert_eq!(Focus::from_id("strongest"), None);
}

/// Rules note, Default tactics, target: "each ship picks a focus target
/// among the enemies it can attack now (a weapon reaches it, or a launcher
/// with missiles and sensors that reach it)". A = corvette, its magazines
/// empty; B = trader (80 hull) at Short, scout (40) at Very Long, beyond
/// the pulse lasers' Long: the scout is the weaker, but nothing of the
/// corvette's reaches it, so the focus is the trader. With missiles in its
/// magazines the corvette can launch at the scout, which is then the focus.
#[test]
fn the_focus_is_an_enemy_the_ship_can_attack() {
    let (corvette, trader, scout) = (S(0), S(1), S(2));
    let mut b = fleet(&["corvette"], &["trader", "scout"], Band::Short);
    b.pair_mut(corvette, scout).band = Band::VeryLong;
    assert_eq!(focus(&b, corvette), Some(scout));
    spend_every_missile(&mut b, corvette);
    assert_eq!(focus(&b, corvette), Some(trader));
}

/// Rules note, Default tactics, target: "When it can attack none, it picks
/// the nearest", whatever the side's focus rule. A = corvette, its
/// magazines empty; B = trader (80 hull) at Very Long, scout (40) at
/// Distant: nothing reaches either, and the focus is the trader, the
/// nearer, though the scout has fewer hull points.
#[test]
fn with_no_enemy_in_reach_the_focus_is_the_nearest() {
    let (corvette, trader, scout) = (S(0), S(1), S(2));
    let mut b = fleet(&["corvette"], &["trader", "scout"], Band::VeryLong);
    b.pair_mut(corvette, scout).band = Band::Distant;
    spend_every_missile(&mut b, corvette);
    assert_eq!(focus(&b, corvette), Some(trader));
}

/// Rules note, Default tactics, flight: "a ship at a jump point jumps when
/// its hull is down to half". Corvette (160 hull) at a jump point against
/// the trader (80, less than twice the corvette's): at 81 hull, 81 x 2 =
/// 162 is more than 160 and it stays; at 80, 80 x 2 = 160 is half, and
/// the J-drive Engineer jumps.
#[test]
fn a_ship_jumps_when_its_hull_is_down_to_half() {
    let corvette = S(0);
    let mut b = battle("corvette", "trader", Band::Long);
    b.state_mut(corvette).at_jump_point = true;
    b.ship_mut(corvette).hull = 81;
    assert!(!jumps(&b, corvette));
    b.ship_mut(corvette).hull = 80;
    assert!(jumps(&b, corvette));
}

/// Rules note, Default tactics, flight: a ship at a jump point jumps when
/// "the enemy side has twice its side's hull left in the fight". Scout (40
/// hull, undamaged) at a jump point against the trader: at 79 hull the
/// trader has less than 2 x 40 = 80 and the scout stays; at 80 it has
/// twice, and the scout jumps.
#[test]
fn a_ship_jumps_when_the_enemy_has_twice_its_sides_hull() {
    let scout = S(0);
    let mut b = battle("scout", "trader", Band::Long);
    b.state_mut(scout).at_jump_point = true;
    b.ship_mut(S(1)).hull = 79;
    assert!(!jumps(&b, scout));
    b.ship_mut(S(1)).hull = 80;
    assert!(jumps(&b, scout));
}

/// Rules note, Default tactics, flight: "until then it holds the point
/// while its weapons reach an enemy", its direct-fire weapons. Corvette at
/// a jump point, undamaged, against the trader: at Long its pulse lasers
/// reach, and it makes no Maneuver; at Very Long none of its guns reaches
/// (missiles alone do not hold it), and it closes with 4 - 1 = 3 thrust.
#[test]
fn a_ship_holds_a_jump_point_while_its_guns_reach() {
    let corvette = S(0);
    let mut b = battle("corvette", "trader", Band::Long);
    b.state_mut(corvette).at_jump_point = true;
    b.state_mut(corvette).thrust_left = 4;
    assert_eq!(maneuver_in(system(), &b, corvette), None);
    b.pair_mut(corvette, S(1)).band = Band::VeryLong;
    assert_eq!(maneuver_in(system(), &b, corvette), Some(3));
}

/// Rules note, Default tactics, range: "a ship with only missiles holds
/// its range". The corvette with every laser destroyed, at Long from the
/// trader with 4 thrust: it still has its missiles and sandcaster, no
/// direct-fire weapon, so it prefers Long and makes no Maneuver.
#[test]
fn a_ship_with_only_missiles_holds_its_range() {
    let corvette = S(0);
    let rules = &system().rules;
    let mut b = battle("corvette", "trader", Band::Long);
    b.state_mut(corvette).thrust_left = 4;
    let class = b.ship(corvette).class(rules).clone();
    for (slot, condition) in class.slots.iter().zip(&mut b.ship_mut(corvette).weapons) {
        if rules.weapon(slot.weapon).kind == WeaponKind::Direct {
            *condition = Condition::Destroyed;
        }
    }
    let preferred = DefaultTactics::default().preferred_band(system(), &b, corvette, S(1));
    assert_eq!(preferred, Band::Long);
    assert_eq!(maneuver_in(system(), &b, corvette), None);
}

/// Rules note, Default tactics, range: Short is "the best band for every
/// direct-fire weapon", and a ship closer than Short opens to it with the
/// thrust still needed. Corvette with 4 thrust (3 to spend, one kept for a
/// dodge) against the trader: from Close, one band's thrust (1) away;
/// from Adjacent, Adjacent's 1 and Close's 1, 2 away.
#[test]
fn a_ship_closer_than_short_opens_to_it() {
    let corvette = S(0);
    for (band, thrust) in [(Band::Close, -1), (Band::Adjacent, -2)] {
        let mut b = battle("corvette", "trader", band);
        b.state_mut(corvette).thrust_left = 4;
        assert_eq!(
            maneuver_in(system(), &b, corvette),
            Some(thrust),
            "{band:?}"
        );
    }
}

/// Rules note, Default tactics, range: the thrust "still needed" counts
/// thrust already accumulated between the two. With Close taking 3 thrust
/// to leave, the corvette (3 to spend) at Close from the trader, the pair
/// already opened by 1: 3 - 1 = 2 more away reach Short.
#[test]
fn opening_counts_the_thrust_already_accumulated() {
    let sys = load(&edited(
        &sources(),
        "ranges.toml",
        "distance = \"1-10 km\"\nattack-dm = 0\nthrust = 1",
        "distance = \"1-10 km\"\nattack-dm = 0\nthrust = 3",
    ));
    let corvette = S(0);
    let mut b = battle_in(&sys, "corvette", "trader", Band::Close);
    b.state_mut(corvette).thrust_left = 4;
    b.pair_mut(corvette, S(1)).closing = -1;
    assert_eq!(maneuver_in(&sys, &b, corvette), Some(-2));
}

/// A weapon between the beam laser and the railgun: 1D, attack DM +3.
const DART_LASER: &str = r#"
[weapon.dart-laser]
name = "Dart Laser"
tl = 10
kind = "direct"
range = "short"
damage = "1d6"
attack-dm = 3
source = "authored by the tests: one die less than the railgun, three DM more"
"#;

/// A test-only ship whose turrets each mix weapons that fire at Short.
const MIXED_TURRETS: &str = r#"
[mixed]
name = "Mixed Turrets"
source = "authored by the tests: turrets of mixed weapons"
tons = 200
tl = 12
hull = 80
armour = 2
thrust = 3
jump = 0
sensors = "military"
sensors-dm = 0
mount = [
  { id = "turret-1", kind = "turret", weapons = ["railgun", "beam-laser"] },
  { id = "turret-2", kind = "turret", weapons = ["dart-laser", "railgun"] },
  { id = "turret-3", kind = "turret", weapons = ["pulse-laser", "beam-laser", "beam-laser"] },
  { id = "turret-4", kind = "turret", weapons = ["particle-beam", "plasma-gun"] },
]

[[mixed.crew]]
name = "Test Gunner"
positions = ["captain", "pilot", "sensors", "gunner:turret-1", "gunner:turret-2", "gunner:turret-3", "gunner:turret-4"]
skills = { pilot = 1, gunnery-turret = 1, electronics-sensors = 1 }
characteristics = { str = 7, dex = 7, end = 7, int = 7, edu = 7, soc = 7 }
"#;

/// Rules note, Default tactics: each mount's Gunner "fires its
/// hardest-hitting weapon", weighed as the mean damage of its dice for
/// every identical weapon firing with it, plus its attack DM, times the
/// mount's multiplier (a turret's 1); of two that weigh the same, the
/// first in the mount. In doubled points (a d6's mean is 7 / 2), at Short
/// against the trader:
/// - turret-1: railgun 2D, 14; beam laser 1D + 4, 7 + 8 = 15: the beam
///   laser, though listed second;
/// - turret-2: dart laser 1D + 3, 7 + 6 = 13; railgun 14: the railgun;
/// - turret-3: pulse laser 2D + 2, 14 + 4 = 18; two beam lasers, 2 x 7 +
///   8 = 22: the beam lasers;
/// - turret-4: particle beam 3D, 21; plasma gun 3D, 21: the particle
///   beam, the first.
///
/// The trader's magazines are empty, so no point-defence turret is held
/// back against a salvo it could launch.
#[test]
fn each_mount_fires_its_hardest_hitting_weapon() {
    let files = appended(&sources(), "weapons.toml", DART_LASER);
    let sys = load(&appended(&files, "ships.toml", MIXED_TURRETS));
    let mut b = battle_in(&sys, "mixed", "trader", Band::Short);
    // A trader with missiles to launch would have a point-defence turret
    // held back.
    spend_every_missile(&mut b, S(1));
    let id = |w: &str| sys.rules.weapon_id(w).expect("a weapon");
    let mut fired: Vec<_> = DefaultTactics::default()
        .actions(&sys, &b, S(0))
        .iter()
        .filter_map(|o| match o.action {
            Action::Fire { mount, weapon, .. } => Some((mount, weapon)),
            _ => None,
        })
        .collect();
    fired.sort_unstable();
    assert_eq!(
        fired,
        [
            (0, id("beam-laser")),
            (1, id("railgun")),
            (2, id("beam-laser")),
            (3, id("particle-beam"))
        ]
    );
}

/// Rules note, Default tactics: a mount's Gunner fires "at the focus
/// target if it reaches, else at the enemy it reaches that the focus rule
/// prefers". A = corvette; B = escort (200 hull) and trader (80) at Medium,
/// scout (40) at Long. The focus is the scout, the weakest, which the
/// pulse lasers of turret-3 reach; the beam lasers of turret-1 reach only
/// Medium, so they fire at the weaker of the two there, the trader (80
/// against 200), though the escort comes first in the roster. The escort
/// and the trader have no missiles left, so no point-defence turret is
/// held back.
#[test]
fn a_mount_that_cannot_reach_the_focus_fires_at_the_preferred_enemy_it_reaches() {
    let (corvette, trader, scout) = (S(0), S(2), S(3));
    let mut b = fleet(&["corvette"], &["escort", "trader", "scout"], Band::Medium);
    b.pair_mut(corvette, scout).band = Band::Long;
    // Enemies at Medium with missiles to launch would have turret-3 held
    // back for point defence.
    spend_every_missile(&mut b, S(1));
    spend_every_missile(&mut b, trader);
    assert_eq!(focus(&b, corvette), Some(scout));
    let turret = |id| common::mount(&b, corvette, id);
    let fired: Vec<_> = DefaultTactics::default()
        .actions(system(), &b, corvette)
        .iter()
        .filter_map(|o| match o.action {
            Action::Fire { mount, target, .. } => Some((mount, target)),
            _ => None,
        })
        .collect();
    assert!(fired.contains(&(turret("turret-1"), trader)), "{fired:?}");
    assert!(fired.contains(&(turret("turret-3"), scout)), "{fired:?}");
}

/// A test-only ship with a triple turret of beam lasers and two barbettes
/// of particle beams.
const BARBETTES: &str = r#"
[barbettes]
name = "Barbettes"
source = "authored by the tests: a triple turret and two barbettes"
tons = 400
tl = 12
hull = 160
armour = 3
thrust = 3
jump = 0
sensors = "military"
sensors-dm = 0
mount = [
  { id = "turret-1", kind = "turret", weapons = ["beam-laser", "beam-laser", "beam-laser"] },
  { id = "barbette-1", kind = "barbette", weapons = ["particle-beam"] },
  { id = "barbette-2", kind = "barbette", weapons = ["particle-beam"] },
]

[[barbettes.crew]]
name = "Test Gunner"
positions = ["captain", "pilot", "sensors", "gunner:turret-1", "gunner:barbette-1", "gunner:barbette-2"]
skills = { pilot = 1, gunnery-turret = 1, electronics-sensors = 1 }
characteristics = { str = 7, dex = 7, end = 7, int = 7, edu = 7, soc = 7 }
"#;

/// Rules note, Default tactics: "the Sensor Operator finds a targeting
/// solution for the hardest-hitting mount firing", a mount weighed by its
/// weapon times the mount's damage multiplier; of mounts that weigh the
/// same, the first. In doubled points, at Short against the trader: the
/// triple turret's three beam lasers 3 x 7 + 8 = 29, times 1; each
/// barbette's particle beam 3D, 21, times 3 = 63: barbette-1, the first of
/// the two.
#[test]
fn the_targeting_solution_goes_to_the_hardest_hitting_mount() {
    let sys = load(&appended(&sources(), "ships.toml", BARBETTES));
    let mut b = battle_in(&sys, "barbettes", "trader", Band::Short);
    spend_every_missile(&mut b, S(1));
    let solutions: Vec<_> = DefaultTactics::default()
        .actions(&sys, &b, S(0))
        .iter()
        .filter_map(|o| match o.action {
            Action::TargetingSolution { mount, .. } => Some(mount),
            _ => None,
        })
        .collect();
    assert_eq!(solutions, [1]);
}

/// The orders the default tactics give a ship's mounts: the mount and
/// what it does, fire, launch or aim.
fn mount_orders(b: &Battle, ship: S) -> Vec<Action> {
    DefaultTactics::default()
        .actions(system(), b, ship)
        .iter()
        .map(|o| o.action)
        .filter(|a| {
            matches!(
                a,
                Action::Fire { .. } | Action::Launch { .. } | Action::Aim { .. }
            )
        })
        .collect()
}

/// Rules note, Default tactics: a Gunner whose mount cannot fire
/// "launches every missile it can at the focus target", at any band its
/// sensors reach. The corvette at Distant from the trader, sensors
/// undamaged (they reach Distant): turret-2 launches both its racks'
/// missiles, 2, at the trader; turrets 1 and 3, out of range, aim.
#[test]
fn a_salvo_is_launched_at_the_farthest_band_the_sensors_reach() {
    let corvette = S(0);
    let b = battle("corvette", "trader", Band::Distant);
    let orders = mount_orders(&b, corvette);
    assert!(
        orders.contains(&Action::Launch {
            weapon: common::weapon("missile-rack"),
            missiles: 2,
            target: S(1),
        }),
        "{orders:?}"
    );
}

/// Rules note, Default tactics: a Gunner who can neither fire nor launch
/// "aims at it", which takes a usable direct-fire weapon. The corvette
/// with its magazines empty, at Short from the trader: turret-2 holds only
/// missile racks and a sandcaster, so its Gunner has no order; turrets 1
/// and 3 fire (the trader's magazines empty too, so that no point-defence
/// turret is held back).
#[test]
fn a_mount_without_a_direct_fire_weapon_does_not_aim() {
    let corvette = S(0);
    let mut b = battle("corvette", "trader", Band::Short);
    spend_every_missile(&mut b, corvette);
    // A trader with missiles to launch would have turret-3 held back.
    spend_every_missile(&mut b, S(1));
    let turret_2 = common::mount(&b, corvette, "turret-2");
    let orders = mount_orders(&b, corvette);
    assert!(
        !orders
            .iter()
            .any(|a| matches!(a, Action::Aim { mount, .. } if *mount == turret_2)),
        "{orders:?}"
    );
    assert_eq!(orders.len(), 2, "{orders:?}");
}

/// Rules note, Default tactics: a Gunner who can neither fire nor launch
/// aims at the focus target up to the aiming limit against it; a mount
/// that has aimed at another ship starts again. A = corvette; B = trader
/// and scout at Long, beyond turret-1's beam lasers (Medium); the focus is
/// the scout, the weaker. Turret-1 has aimed three times (the limit) at
/// the trader: it aims at the scout. Had it aimed three times at the
/// scout, it would not aim again.
#[test]
fn a_mount_aimed_to_the_limit_aims_again_at_a_new_target() {
    let (corvette, trader, scout) = (S(0), S(1), S(2));
    let mut b = fleet(&["corvette"], &["trader", "scout"], Band::Long);
    let turret_1 = common::mount(&b, corvette, "turret-1");
    let aim = Action::Aim {
        mount: turret_1,
        target: scout,
    };
    b.state_mut(corvette).aim[usize::from(turret_1)] = 3;
    b.state_mut(corvette).aim_target[usize::from(turret_1)] = trader;
    assert!(mount_orders(&b, corvette).contains(&aim));
    b.state_mut(corvette).aim_target[usize::from(turret_1)] = scout;
    assert!(!mount_orders(&b, corvette).contains(&aim));
}

/// Rules note, Default tactics: the Gunner aims only within the aiming
/// limit, so with `aim.max = 0` (no Aim action before firing) no mount
/// aims. The corvette at Long from the trader: turret-1's beam lasers
/// (Medium) cannot fire, and its Gunner has no order.
#[test]
fn no_mount_aims_when_the_limit_is_zero() {
    let sys = load(&edited(
        &sources(),
        "rules.toml",
        "dm = 2\nmax = 3",
        "dm = 2\nmax = 0",
    ));
    let b = battle_in(&sys, "corvette", "trader", Band::Long);
    let orders = DefaultTactics::default().actions(&sys, &b, S(0));
    assert!(
        !orders
            .iter()
            .any(|o| matches!(o.action, Action::Aim { .. })),
        "{orders:?}"
    );
}

/// Rules note, Default tactics: "one point-defence mount is held back
/// (and aims) when a salvo aimed at the ship arrives this round", a salvo
/// aimed at the ship itself. A = corvette, scout; B = trader at Long, whose
/// missiles take a round to fly there (so a salvo it could launch now
/// would not arrive this round). With the trader's salvo of two arriving at
/// the scout, the corvette's turret-3 (two pulse lasers, its point-defence
/// mount with fewer such weapons than turret-1's three beam lasers) fires
/// at the trader; with the salvo arriving at the corvette, turret-3 waits
/// and aims.
#[test]
fn a_point_defence_mount_waits_for_a_salvo_at_its_own_ship() {
    let (corvette, scout, trader) = (S(0), S(1), S(2));
    let mut b = fleet(&["corvette", "scout"], &["trader"], Band::Long);
    let turret_3 = common::mount(&b, corvette, "turret-3");
    let salvo_at = |target| broadside_crew_2d6::Salvo {
        owner: trader,
        target,
        weapon: common::weapon("missile-rack"),
        missiles: 2,
        rounds_left: 0,
        tl: 11,
        smart: true,
        bane: false,
        dm: 0,
    };
    let fires = |b: &Battle| {
        mount_orders(b, corvette)
            .iter()
            .any(|a| matches!(a, Action::Fire { mount, .. } if *mount == turret_3))
    };
    b.salvos.push(salvo_at(scout));
    assert!(fires(&b));
    b.salvos.clear();
    b.salvos.push(salvo_at(corvette));
    assert!(!fires(&b));
    assert!(mount_orders(&b, corvette).contains(&Action::Aim {
        mount: turret_3,
        target: trader,
    }));
}

/// Rules note, Default tactics: a point-defence mount is also held back
/// when "an enemy within a band its missiles cross in a round can launch":
/// missiles in its magazine and a usable launcher for them. A = corvette;
/// B = trader at Short, where a salvo attacks in the round it is launched.
/// With its two missile racks loaded, the trader can launch, and the
/// corvette's turret-3 (the point-defence mount with fewer such weapons)
/// waits and aims; with the racks' magazine empty (its sandcaster still
/// loaded, which launches nothing), or with both racks destroyed, it
/// cannot, and turret-3 fires.
#[test]
fn a_point_defence_mount_waits_only_for_an_enemy_that_can_launch() {
    let (corvette, trader) = (S(0), S(1));
    let rules = &system().rules;
    let fresh = battle("corvette", "trader", Band::Short);
    let turret_3 = common::mount(&fresh, corvette, "turret-3");
    let rack = common::weapon("missile-rack");
    let fires = |b: &Battle| {
        mount_orders(b, corvette)
            .iter()
            .any(|a| matches!(a, Action::Fire { mount, .. } if *mount == turret_3))
    };
    assert!(!fires(&fresh));
    let mut spent = fresh.clone();
    let magazine = fresh
        .ship(trader)
        .class(rules)
        .magazine(rack)
        .expect("the racks' magazine");
    spent.ship_mut(trader).magazines[magazine] = 0;
    assert!(fires(&spent));
    let mut destroyed = fresh.clone();
    let class = fresh.ship(trader).class(rules);
    for (slot, condition) in class
        .slots
        .iter()
        .zip(&mut destroyed.ship_mut(trader).weapons)
    {
        if slot.weapon == rack {
            *condition = Condition::Destroyed;
        }
    }
    assert!(fires(&destroyed));
}

/// Whether the default tactics overcharge a ship's engines this round.
fn overcharges(b: &Battle, ship: S) -> bool {
    DefaultTactics::default().overcharge(system(), b, ship)
}

/// Rules note, Default tactics, range: "overcharge only with an Engineer
/// whose DM is +1 or better", the Engineer's skill plus the characteristic
/// DM (EDU for Overcharge Engines). Scout against trader at Long, both
/// short of Short: the scout's Engineer has skill 1 and EDU 9 (+1), DM +2;
/// the trader's has Engineer (M-drive) 1 and EDU 8 (+0), DM +1: both
/// overcharge.
#[test]
fn an_engineer_with_a_dm_of_one_or_better_overcharges() {
    let b = battle("scout", "trader", Band::Long);
    assert!(overcharges(&b, S(0)));
    assert!(overcharges(&b, S(1)));
}

/// Rules note, Default tactics: a ship that jumps away does not overcharge.
/// Scout against the trader (80 hull, twice the scout's 40) at Very Long:
/// away from a jump point it overcharges to close (its Engineer's DM is
/// +2); at a jump point it jumps, and does not.
#[test]
fn a_ship_that_jumps_away_does_not_overcharge() {
    let scout = S(0);
    let mut b = battle("scout", "trader", Band::VeryLong);
    assert!(overcharges(&b, scout));
    b.state_mut(scout).at_jump_point = true;
    assert!(jumps(&b, scout));
    assert!(!overcharges(&b, scout));
}

/// Rules note, Default tactics, range: the Engineer's DM that must be +1
/// or better counts the DMs the ship's damage puts on engineering checks.
/// The scout's Engineer, skill 1 and EDU 9 (+1): with damage giving
/// engineering checks -1, 1 + 1 - 1 = +1, and the scout overcharges at
/// Long from the trader; with -2, 1 + 1 - 2 = 0, and it does not.
#[test]
fn damage_to_engineering_counts_against_overcharging() {
    let scout = S(0);
    let engineering = broadside_crew_2d6::model::Group::Engineering
        .bit()
        .trailing_zeros() as usize;
    let mut b = battle("scout", "trader", Band::Long);
    b.ship_mut(scout).standing.dm[engineering] = -1;
    assert!(overcharges(&b, scout));
    b.ship_mut(scout).standing.dm[engineering] = -2;
    assert!(!overcharges(&b, scout));
}

/// Rules note, Default tactics, range: the thrust still needed counts the
/// thrust the target has applied this round, unless the target is
/// grappled, when its thrust moves none of its pairs. A = corvette, scout;
/// B = trader. Corvette-trader at Medium with 3 thrust toward Short
/// already accumulated: 5 - 3 = 2 still needed. The trader has applied 2
/// toward the corvette; while free, that covers the 2, and the corvette
/// makes no Maneuver; grappled with the scout at Adjacent, it moves
/// nothing, and the corvette applies the 2 itself.
#[test]
fn a_grappled_targets_thrust_is_not_counted() {
    let (corvette, scout, trader) = (S(0), S(1), S(2));
    let mut b = fleet(&["corvette", "scout"], &["trader"], Band::Medium);
    b.state_mut(corvette).thrust_left = 4;
    b.pair_mut(corvette, trader).closing = 3;
    b.state_mut(trader).maneuver_target = Some(corvette);
    b.state_mut(trader).applied = 2;
    assert_eq!(maneuver_in(system(), &b, corvette), None);
    b.pair_mut(scout, trader).band = Band::Adjacent;
    b.pair_mut(scout, trader).grappled = true;
    assert_eq!(maneuver_in(system(), &b, corvette), Some(2));
}

/// Rules note, Default tactics: with no mount firing, "the Sensor Operator
/// ... jams the focus target's sensors", when its own sensors reach it.
/// The corvette at Very Long from the trader, beyond every gun: with its
/// sensors reaching Distant it jams the trader; with damage that leaves
/// them reaching only Long, it does not.
#[test]
fn the_sensor_operator_jams_only_a_target_the_sensors_reach() {
    let corvette = S(0);
    let mut b = battle("corvette", "trader", Band::VeryLong);
    let jams = |b: &Battle| {
        DefaultTactics::default()
            .actions(system(), b, corvette)
            .iter()
            .any(|o| o.action == Action::JamSensors { target: S(1) })
    };
    assert!(jams(&b));
    b.ship_mut(corvette).standing.max_band = Band::Long;
    assert!(!jams(&b));
}

/// Rules note, Default tactics, reactions: "within the allowance and
/// burning one more only against a direct-fire hit of Effect 4 or more":
/// against direct fire that would hit, dodge. The trader, with a thrust
/// left for a dodge, under the corvette's beam lasers: 10 against 8,
/// Effect +2. With one reaction left it dodges; with its one reaction
/// used, an Effect of 2 burns none, and it does not.
#[test]
fn a_dodge_takes_a_reaction_left_unless_the_hit_is_serious() {
    let trader = S(1);
    let mut b = battle("corvette", "trader", Band::Short);
    b.state_mut(trader).thrust_left = 1;
    b.state_mut(trader).reactions = 1;
    let incoming = broadside_crew_2d6::Incoming {
        attacker: S(0),
        weapon: common::weapon("beam-laser"),
        missiles: None,
        seen: Some(broadside_crew_2d6::attack::SeenAttack {
            roll: 6,
            dm: 4,
            total: 10,
            target: 8,
        }),
    };
    let dodges = |b: &Battle| {
        DefaultTactics::default()
            .reactions(system(), b, trader, &incoming)
            .dodge
    };
    assert!(dodges(&b));
    b.state_mut(trader).reactions_used = 1;
    assert!(!dodges(&b));
}

/// Rules note, Default tactics, reactions: burning one more reaction than
/// the allowance only against "a salvo of three or more", and only one:
/// against a salvo, point defence first. The corvette, no reaction left,
/// under the trader's salvo: of three missiles, it burns one for point
/// defence with one mount; of two, none; of three with one already
/// burned this turn, none.
#[test]
fn a_salvo_of_three_burns_one_reaction_for_point_defence() {
    let corvette = S(0);
    let mut b = battle("corvette", "trader", Band::Short);
    let salvo = |missiles| broadside_crew_2d6::Incoming {
        attacker: S(1),
        weapon: common::weapon("missile-rack"),
        missiles: Some(missiles),
        seen: None,
    };
    let point_defence = |b: &Battle, missiles| {
        DefaultTactics::default()
            .reactions(system(), b, corvette, &salvo(missiles))
            .point_defence
    };
    b.state_mut(corvette).reactions = 0;
    assert_eq!(point_defence(&b, 3), 1);
    assert_eq!(point_defence(&b, 2), 0);
    b.state_mut(corvette).reactions_used = 1;
    assert_eq!(point_defence(&b, 3), 0);
}

/// Rules note, Default tactics, reactions: against a salvo, "point
/// defence with every free mount, then ECM, then a dodge", within the
/// allowance. The corvette with four reactions and a thrust left, under a
/// salvo of two: point defence with its two point-defence mounts, ECM,
/// and with the fourth reaction a dodge.
#[test]
fn against_a_salvo_a_reaction_left_after_ecm_dodges() {
    let corvette = S(0);
    let mut b = battle("corvette", "trader", Band::Short);
    b.state_mut(corvette).reactions = 4;
    b.state_mut(corvette).thrust_left = 1;
    let salvo = broadside_crew_2d6::Incoming {
        attacker: S(1),
        weapon: common::weapon("missile-rack"),
        missiles: Some(2),
        seen: None,
    };
    let chosen = DefaultTactics::default().reactions(system(), &b, corvette, &salvo);
    assert_eq!(
        (chosen.point_defence, chosen.ecm, chosen.dodge),
        (2, true, true)
    );
}
