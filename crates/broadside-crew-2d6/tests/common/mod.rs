//! Shared `check` helpers for the crew-2d6 tests: one per area, so an API change touches one place.
//!
//! The test files say what the rules do; these helpers say how to ask the
//! code. Snapshot helpers write named snapshots to `tests/snapshots/`, each
//! recording its inputs (`info`) and the published rule it reproduces
//! (`description`), so a reviewer can check every number against the source.

#![allow(
    dead_code,
    reason = "each test file uses the helpers of its own area only"
)]

use std::collections::BTreeMap;
use std::sync::OnceLock;

use broadside_core::exact::ExactAttack;
use broadside_core::kit::System as _;
use broadside_core::{
    Dice, Event, EventLog, EventSink, OptionValue, ResolveError, ScriptedDice, SourceFile,
};
use broadside_crew_2d6::{
    Battle, CombatManeuver, Crew2d6, CrewTactics, Incoming, Maneuver, Order, Orders, REGISTRATION,
    Reactions, ShipId, model::Band,
};
use broadside_data::testing;
#[allow(
    unused_imports,
    reason = "each test file uses a different part of the helpers"
)]
pub use broadside_data::testing::{
    EXACT_ATTACK_PATHS, Resolution, Sampled, assert_all_used, attack_outcome, dice_text,
    duel_request, event_lines, exact_every_path, flag, fleet_request, num, options,
    resolve_request, sample_attack, text,
};
use serde_json::{Value, json};

// ---------------------------------------------------------------------------
// Loading the system
// ---------------------------------------------------------------------------

/// The system, loaded once from its embedded data of record.
pub fn system() -> &'static Crew2d6 {
    static SYSTEM: OnceLock<Crew2d6> = OnceLock::new();
    testing::loaded(&SYSTEM, "crew-2d6", Crew2d6::embedded)
}

/// The embedded data files, for tests that load altered copies.
pub fn sources() -> Vec<SourceFile> {
    REGISTRATION.embedded_sources()
}

/// A copy of the data with the first `from` in `file` replaced by `to`;
/// `from` must be there, so that a change of the data of record cannot
/// silently void a test.
pub fn edited(files: &[SourceFile], file: &str, from: &str, to: &str) -> Vec<SourceFile> {
    testing::edited(files.to_vec(), &[(file, from, to)])
}

/// The data with text appended to one file.
pub fn appended(files: &[SourceFile], file: &str, text: &str) -> Vec<SourceFile> {
    let mut files = files.to_vec();
    testing::file_mut(&mut files, file).text.push_str(text);
    files
}

/// Loads data that must load.
pub fn load(files: &[SourceFile]) -> Crew2d6 {
    Crew2d6::load(files).unwrap_or_else(|e| panic!("the data does not load:\n{e}"))
}

/// Loads data that must not load; every problem as `file: key: message`.
pub fn load_errors(files: &[SourceFile]) -> Vec<String> {
    match Crew2d6::load(files) {
        Ok(_) => panic!("the data loaded, but should not have"),
        Err(errors) => errors.0.iter().map(ToString::to_string).collect(),
    }
}

/// Asserts that some problem mentions every fragment.
pub fn check_data_error(errors: &[String], fragments: &[&str]) {
    assert!(
        errors
            .iter()
            .any(|e| fragments.iter().all(|f| e.contains(f))),
        "no problem mentions all of {fragments:?}; problems:\n{}",
        errors.join("\n")
    );
}

/// A test-only warship of the given system's data: a barbette with a
/// particle beam and a fixed railgun, to exercise mounts no sample carries.
pub const GUNBOAT: &str = r#"
[gunboat]
name = "Gunboat"
source = "authored by the tests: a barbette and a fixed mount"
tons = 200
tl = 12
hull = 80
armour = 3
thrust = 3
jump = 0
sensors = "military"
sensors-dm = 0
mount = [
  { id = "barbette-1", kind = "barbette", weapons = ["particle-beam"] },
  { id = "fixed-1", kind = "fixed", weapons = ["railgun"] },
]

[[gunboat.crew]]
name = "Test Captain"
positions = ["captain", "pilot"]
skills = { pilot = 1, tactics-naval = 1, gunnery-turret = 1 }
characteristics = { str = 7, dex = 7, end = 7, int = 7, edu = 7, soc = 7 }

[[gunboat.crew]]
name = "Test Gunner"
positions = ["sensors", "gunner:barbette-1"]
skills = { electronics-sensors = 1, gunnery-turret = 1 }
characteristics = { str = 7, dex = 7, end = 7, int = 7, edu = 7, soc = 7 }
"#;

/// The system with the test-only [`GUNBOAT`].
pub fn with_gunboat() -> &'static Crew2d6 {
    static SYSTEM: OnceLock<Crew2d6> = OnceLock::new();
    SYSTEM.get_or_init(|| load(&appended(&sources(), "ships.toml", GUNBOAT)))
}

// ---------------------------------------------------------------------------
// Snapshots
// ---------------------------------------------------------------------------

/// Asserts a named snapshot recording its inputs and citing its source.
pub fn check_named(name: &str, source: &str, inputs: &Value, transcript: &str) {
    broadside_data::snapshot!(name, source, inputs, transcript);
}

/// Events as numbered lines.
pub fn numbered(events: &[Event]) -> String {
    let mut out = String::new();
    testing::numbered(&mut out, events);
    out
}

// ---------------------------------------------------------------------------
// Resolving attacks through the object-safe Ruleset
// ---------------------------------------------------------------------------

/// Resolves one attack of `system` with any dice, checking the options
/// against the specs first as the command line does.
pub fn resolve_in(
    system: &Crew2d6,
    attacker: &str,
    target: &str,
    pairs: &[(&str, OptionValue)],
    dice: &mut dyn Dice,
) -> Result<Resolution, ResolveError> {
    testing::resolve(system, attacker, target, pairs, dice)
}

/// Resolves one attack of the data of record with any dice.
pub fn resolve_with(
    attacker: &str,
    target: &str,
    pairs: &[(&str, OptionValue)],
    dice: &mut dyn Dice,
) -> Result<Resolution, ResolveError> {
    resolve_in(system(), attacker, target, pairs, dice)
}

/// Resolves one attack with scripted dice; also returns how many were used.
pub fn resolve(
    attacker: &str,
    target: &str,
    pairs: &[(&str, OptionValue)],
    dice: &[u32],
) -> (Result<Resolution, ResolveError>, usize) {
    let mut scripted = ScriptedDice::new(dice);
    let result = resolve_with(attacker, target, pairs, &mut scripted);
    (result, scripted.used())
}

/// The inputs of a resolution, as snapshots record them.
fn resolve_inputs(
    attacker: &str,
    target: &str,
    pairs: &[(&str, OptionValue)],
    dice: &[u32],
) -> Value {
    let mut opts = serde_json::Map::new();
    for (name, value) in pairs {
        opts.insert(
            (*name).to_owned(),
            match value {
                OptionValue::Flag => json!(true),
                OptionValue::Number(n) => json!(n),
                OptionValue::Text(t) => json!(t),
            },
        );
    }
    json!({"system": "crew-2d6", "attacker": attacker, "target": target, "options": opts, "dice": dice})
}

/// Snapshots one resolution of `system` with scripted dice that must all be used.
pub fn check_resolve_in(
    system: &Crew2d6,
    name: &str,
    source: &str,
    attacker: &str,
    target: &str,
    pairs: &[(&str, OptionValue)],
    dice: &[u32],
) -> Resolution {
    let mut scripted = ScriptedDice::new(dice);
    let resolution = resolve_in(system, attacker, target, pairs, &mut scripted)
        .unwrap_or_else(|e| panic!("{name}: the attack was not resolved: {e}"));
    assert_all_used(&scripted, name);
    let inputs = resolve_inputs(attacker, target, pairs, dice);
    let mut out = format!("{attacker} attacks {target}; dice {}\n", dice_text(dice));
    resolution.write_transcript(&mut out, "lines");
    check_named(name, source, &inputs, &out);
    resolution
}

/// Snapshots one resolution of the data of record.
pub fn check_resolve(
    name: &str,
    source: &str,
    attacker: &str,
    target: &str,
    pairs: &[(&str, OptionValue)],
    dice: &[u32],
) -> Resolution {
    check_resolve_in(system(), name, source, attacker, target, pairs, dice)
}

/// Asserts that a resolution is refused with a message containing
/// `fragment`, having rolled nothing.
pub fn check_refused(attacker: &str, target: &str, pairs: &[(&str, OptionValue)], fragment: &str) {
    let (result, used) = resolve(attacker, target, pairs, &[3, 3, 3, 3, 3, 3, 3, 3, 3, 3]);
    match result {
        Err(ResolveError::Refused(message)) => assert!(
            message.contains(fragment),
            "refusal '{message}' lacks '{fragment}'"
        ),
        other => panic!("expected a refusal mentioning '{fragment}', got {other:?}"),
    }
    assert_eq!(used, 0, "a refused attack rolls nothing");
}

// ---------------------------------------------------------------------------
// Battles and engagement steps
// ---------------------------------------------------------------------------

/// The ship of side A in a duel.
pub const A: ShipId = ShipId(0);
/// The ship of side B in a duel.
pub const B: ShipId = ShipId(1);

/// A battle between two fresh ships of the data of record, sides shown.
pub fn battle(a: &str, b: &str, band: Band) -> Battle {
    battle_in(system(), a, b, band)
}

/// A battle between two fresh ships of a system.
pub fn battle_in(system: &Crew2d6, a: &str, b: &str, band: Band) -> Battle {
    let rules = &system.rules;
    Battle::duel(rules, class_of(system, a), class_of(system, b), band, true)
}

fn class_of(system: &Crew2d6, id: &str) -> broadside_crew_2d6::model::ClassId {
    system
        .rules
        .class_id(id)
        .unwrap_or_else(|| panic!("no ship class '{id}'"))
}

/// A battle between two fleets of fresh ships of the data of record, every
/// pair of enemies at one band; ships are numbered in roster order (side
/// A's, then side B's).
pub fn fleet(a: &[&str], b: &[&str], band: Band) -> Battle {
    let sys = system();
    let classes = |ids: &[&str]| ids.iter().map(|id| class_of(sys, id)).collect::<Vec<_>>();
    Battle::new(&sys.rules, [&classes(a), &classes(b)], band)
}

/// The index of a mount by id on a ship.
pub fn mount(battle: &Battle, ship: ShipId, id: &str) -> u8 {
    let class = battle.ship(ship).class(&system().rules);
    class
        .mounts
        .iter()
        .position(|m| m.id == id)
        .unwrap_or_else(|| panic!("no mount '{id}'")) as u8
}

/// The index of a weapon by id.
pub fn weapon(id: &str) -> u8 {
    system()
        .rules
        .weapon_id(id)
        .unwrap_or_else(|| panic!("no weapon '{id}'"))
}

/// The index of a critical hit location by id.
pub fn location(id: &str) -> usize {
    system()
        .rules
        .criticals
        .locations
        .iter()
        .position(|l| l.id == id)
        .unwrap_or_else(|| panic!("no location '{id}'"))
}

/// Scripted dice and a full log, for a transcript of several steps.
pub struct Script {
    /// The dice.
    pub dice: ScriptedDice,
    /// Every event so far.
    pub log: EventLog,
    /// The dice given, for the snapshot's inputs.
    pub given: Vec<u32>,
}

impl Script {
    /// A script of these dice.
    pub fn new(dice: &[u32]) -> Script {
        Script {
            dice: ScriptedDice::new(dice),
            log: EventLog::default(),
            given: dice.to_vec(),
        }
    }

    /// The dice and sink, to pass to rules code.
    pub fn parts(&mut self) -> (&mut dyn Dice, &mut dyn EventSink) {
        (&mut self.dice, &mut self.log)
    }

    /// Snapshots the transcript: notes, then every event; the dice must all
    /// have been used.
    pub fn check(&self, name: &str, source: &str, setup: Value, notes: &str) {
        assert_all_used(&self.dice, name);
        let inputs = json!({"system": "crew-2d6", "setup": setup, "dice": self.given});
        let mut out = format!("{notes}\ndice {}\n", dice_text(&self.given));
        out.push_str(&numbered(&self.log.events));
        check_named(name, source, &inputs, &out);
    }
}

/// Tactics that give the same answers every time, for scripted steps.
#[derive(Debug, Clone, Default)]
pub struct ScriptedTactics {
    /// Overcharge each round.
    pub overcharge: bool,
    /// The Maneuver each round.
    pub maneuver: Option<Maneuver>,
    /// The combat maneuver each round.
    pub combat: Option<CombatManeuver>,
    /// The crew's orders each attack step.
    pub actions: Vec<Order>,
    /// Reactions to every attack.
    pub reactions: Reactions,
}

impl CrewTactics for ScriptedTactics {
    fn overcharge(&self, _: &Crew2d6, _: &Battle, _: ShipId) -> bool {
        self.overcharge
    }
    fn maneuver(&self, _: &Crew2d6, _: &Battle, _: ShipId) -> Option<Maneuver> {
        self.maneuver
    }
    fn combat_maneuver(&self, _: &Crew2d6, _: &Battle, _: ShipId) -> CombatManeuver {
        self.combat.unwrap_or(CombatManeuver::None)
    }
    fn actions(&self, _: &Crew2d6, _: &Battle, _: ShipId) -> Orders {
        self.actions.iter().copied().collect()
    }
    fn reactions(&self, _: &Crew2d6, _: &Battle, _: ShipId, _: &Incoming) -> Reactions {
        self.reactions
    }
}

/// Scripted answers ship by ship, indexed by roster number (a `Vec`, so
/// nothing depends on a hash order); a ship without an entry does nothing.
/// The same value serves both sides.
#[derive(Debug, Clone, Default)]
pub struct PerShip(pub Vec<ScriptedTactics>);

impl PerShip {
    fn of(&self, ship: ShipId) -> ScriptedTactics {
        self.0.get(ship.index()).cloned().unwrap_or_default()
    }
}

impl CrewTactics for PerShip {
    fn overcharge(&self, s: &Crew2d6, b: &Battle, ship: ShipId) -> bool {
        self.of(ship).overcharge(s, b, ship)
    }
    fn maneuver(&self, s: &Crew2d6, b: &Battle, ship: ShipId) -> Option<Maneuver> {
        self.of(ship).maneuver(s, b, ship)
    }
    fn combat_maneuver(&self, s: &Crew2d6, b: &Battle, ship: ShipId) -> CombatManeuver {
        self.of(ship).combat_maneuver(s, b, ship)
    }
    fn actions(&self, s: &Crew2d6, b: &Battle, ship: ShipId) -> Orders {
        self.of(ship).actions(s, b, ship)
    }
    fn reactions(&self, s: &Crew2d6, b: &Battle, ship: ShipId, i: &Incoming) -> Reactions {
        self.of(ship).reactions(s, b, ship, i)
    }
}

// ---------------------------------------------------------------------------
// Exact odds
// ---------------------------------------------------------------------------

/// The data of record with critical hits switched off: no Effect reaches
/// 30, and only the whole hull lost is the next "10%" (a wrecked ship takes
/// no critical hit). Attacks on it are the attack and damage arithmetic
/// alone, which a test can reckon by hand.
pub fn without_criticals() -> &'static Crew2d6 {
    static SYSTEM: OnceLock<Crew2d6> = OnceLock::new();
    SYSTEM.get_or_init(|| {
        let files = edited(&sources(), "criticals.toml", "effect = 6 ", "effect = 30 ");
        load(&edited(
            &files,
            "criticals.toml",
            "sustained-percent = 10 ",
            "sustained-percent = 100 ",
        ))
    })
}

/// The data of record where every hit that does damage is a critical hit
/// (at Effect 1 or more) and no tenth of the hull lost is: one attack sets
/// off one chain, of a severity its damage gives (damage / 10, rounded
/// up), so a salvo's reaches the rows that roll armour off and disable
/// weapons, and every path can still be followed.
pub fn every_hit_critical() -> &'static Crew2d6 {
    static SYSTEM: OnceLock<Crew2d6> = OnceLock::new();
    SYSTEM.get_or_init(|| {
        let files = edited(&sources(), "criticals.toml", "effect = 6 ", "effect = 1 ");
        load(&edited(
            &files,
            "criticals.toml",
            "sustained-percent = 10 ",
            "sustained-percent = 100 ",
        ))
    })
}

/// The data of record with only the critical hit of a high Effect: a
/// tenth of the hull lost is no critical hit, so one attack takes at most
/// one chain of critical hits and every attack can be enumerated quickly.
pub fn attack_criticals_only() -> &'static Crew2d6 {
    static SYSTEM: OnceLock<Crew2d6> = OnceLock::new();
    SYSTEM.get_or_init(|| {
        load(&edited(
            &sources(),
            "criticals.toml",
            "sustained-percent = 10 ",
            "sustained-percent = 100 ",
        ))
    })
}

/// The exact distribution of one attack of `system`, path by path: the
/// rules code run over every path of its dice to the end, reading each
/// report's shared outcome (`resolve --exact` plays it in steps instead).
pub fn exact_in(
    system: &Crew2d6,
    attacker: &str,
    target: &str,
    pairs: &[(&str, OptionValue)],
) -> Result<ExactAttack, ResolveError> {
    let request = resolve_request(system, attacker, target, pairs)?;
    exact_every_path(system, &request, EXACT_ATTACK_PATHS).map_err(ResolveError::from)
}

/// Asserts that an exact distribution matches one reckoned in the test:
/// the chance of a hit and of each hull damage, out of `ways` equally
/// likely rolls of every die, and no critical hit.
pub fn check_exact_against(exact: &ExactAttack, hits: u64, damage: &BTreeMap<i32, u64>, ways: u64) {
    let close = |a: f64, b: f64, what: &str| {
        assert!((a - b).abs() < 1e-12, "{what}: exact {a}, reckoned {b}");
    };
    let ways_f = ways as f64;
    close(exact.p_hit, hits as f64 / ways_f, "P(hit)");
    assert_eq!(
        damage.values().sum::<u64>(),
        ways,
        "the reckoning covers every roll"
    );
    let mean: f64 = damage
        .iter()
        .map(|(&d, &n)| f64::from(d) * n as f64)
        .sum::<f64>()
        / ways_f;
    close(exact.mean_hull_damage, mean, "mean hull damage");
    let shown: BTreeMap<i32, f64> = exact.hull_damage.iter().copied().collect();
    assert_eq!(
        shown.keys().collect::<Vec<_>>(),
        damage.keys().collect::<Vec<_>>(),
        "the hull damages that can happen"
    );
    for (d, &n) in damage {
        close(shown[d], n as f64 / ways_f, &format!("P(damage {d})"));
    }
    assert!(
        exact.results.is_empty(),
        "no critical hit: {:?}",
        exact.results
    );
    let total: f64 = exact.hull_damage.iter().map(|(_, p)| p).sum();
    close(total, 1.0, "the damages' probabilities");
}

/// Every way `count` d6 can fall, as lists of faces: a small independent
/// enumeration for reckoning odds by hand.
pub fn every_roll(count: usize) -> Vec<Vec<i32>> {
    let mut rolls = vec![Vec::new()];
    for _ in 0..count {
        rolls = rolls
            .into_iter()
            .flat_map(|r| {
                (1..=6).map(move |f| {
                    let mut next = r.clone();
                    next.push(f);
                    next
                })
            })
            .collect();
    }
    rolls
}

/// How many ways `count` d6 sum to each total.
pub fn sums(count: usize) -> BTreeMap<i32, u64> {
    let mut ways = BTreeMap::new();
    for roll in every_roll(count) {
        *ways.entry(roll.iter().sum()).or_insert(0) += 1;
    }
    ways
}
