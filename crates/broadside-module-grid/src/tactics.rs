//! Decisions: the tactics trait every side plays by, and the default policy.
//!
//! The engine asks; tactics answer; the engine checks the answer against the
//! rules. A tactic that answers something illegal is a bug in the tactic,
//! reported as an internal error, never silently corrected.

use arrayvec::ArrayVec;

use crate::ModuleGrid;
use crate::attack::{AllocationView, Reroll, RerollWith, Weapon};
use crate::engagement::{Battle, FireOptions, MAX_SHIPS, Maneuver, ShotChoice};
use crate::model::{
    Function, MAX_SIDE, Mode, ModuleIx, ShipClass, ShipSide, SideSet, Skill, Square,
};
use crate::ship::Ship;
use crate::sight;
use broadside_core::hex;

/// Every decision a side makes in a module-grid engagement.
///
/// # Contract for implementors
/// Answers must be legal: moves within Speed and with turns only when the
/// Helm works and the ship is not tumbling (see
/// [`ModuleGrid::maneuver_allowed`]); shots only at an enemy offered, from
/// the weapons offered against it in its [`FireOptions`], on a side offered,
/// in a mode the rules allow (a working Fusion Node for Fusion, shots left
/// this turn), and a called point only for direct fire and on a module
/// square; scans only on an enemy offered; allocation rerolls of die 0 or 1
/// paid with a scan or Luck the view says is left; repairs only of broken
/// modules.
/// The engine refuses anything else as an internal error. Implementations
/// must be deterministic given the battle, so that a trial replays exactly.
///
/// Required: [`maneuver`](Self::maneuver), [`next_shot`](Self::next_shot),
/// [`allocation_reroll`](Self::allocation_reroll) and
/// [`repair`](Self::repair). Provided: [`scan_target`](Self::scan_target),
/// which scans the first enemy offered, and
/// [`burst_side`](Self::burst_side), the default policy's side.
pub trait ModuleGridTactics: Send + Sync {
    /// How the ship moves this turn.
    fn maneuver(&self, system: &ModuleGrid, battle: &Battle, ship: usize) -> Maneuver;
    /// The ship's next shot this fire phase, or `None` to stop firing. Asked
    /// again after each shot resolves, with one [`FireOptions`] per enemy
    /// still in play, in board order (never empty).
    fn next_shot(
        &self,
        system: &ModuleGrid,
        battle: &Battle,
        ship: usize,
        options: &[FireOptions],
    ) -> Option<ShotChoice>;
    /// The enemy the ship makes this turn's scans on, or `None` to make
    /// none; asked once a turn, when the ship first comes to fire, with the
    /// same options as its first [`next_shot`](Self::next_shot).
    fn scan_target(
        &self,
        _system: &ModuleGrid,
        _battle: &Battle,
        _ship: usize,
        options: &[FireOptions],
    ) -> Option<usize> {
        options.first().map(|o| o.target)
    }
    /// The side the ship's Fusion burst strikes on `struck`, a ship it
    /// reaches beyond its target, when the rules let the firer choose among
    /// `sides` (two at a corner, four in the burst's own hex); the answer
    /// must be one of them. By default the side where the hit is worth most
    /// on an enemy, and least on a friend.
    fn burst_side(
        &self,
        system: &ModuleGrid,
        battle: &Battle,
        ship: usize,
        struck: usize,
        sides: SideSet,
    ) -> ShipSide {
        DefaultTactics::burst_side_for(system, battle, ship, struck, sides)
    }
    /// Whether the firing ship spends a scan or Luck to roll one hit
    /// allocation die again, and which die: asked after the allocation roll
    /// of each of its hits and after each reroll, until it answers `None`.
    /// The answer must follow from what it is shown: exact odds also ask
    /// about rolls that did not fall, to learn which rolls lead alike.
    fn allocation_reroll(
        &self,
        system: &ModuleGrid,
        ship: usize,
        view: &AllocationView<'_>,
    ) -> Option<Reroll>;
    /// The broken module to try to repair, or `None`; asked once per repair
    /// check the ship may make.
    fn repair(&self, system: &ModuleGrid, battle: &Battle, ship: usize) -> Option<ModuleIx>;
}

/// The default policy, documented in the rules note:
/// - focus: enemies are ranked by their hull check once it can fail (the
///   likeliest to explode first), then by danger (working Cannons times
///   Guns), then by Shields left (lowest first: earlier strikes this turn
///   have stripped them), then by distance, then by board index (see
///   [`DefaultTactics::focus_order`]);
///   movement closes on the first, fire goes to the first that a weapon
///   reaches and the turn's scans to the target of the first shot, so a
///   fleet piles onto one enemy;
/// - movement: close to range 1 of the focus enemy (never into an enemy's
///   hex, where a blast is at full power) and end facing so that as many
///   working Cannons as possible bear on it, while few of the enemies'
///   Cannons bear on us; keep out of the reach of our own ships' explosions;
///   holding still wins ties;
/// - fire: at the focus enemy, every Cannon that bears, each in the mode
///   with the best chance to hit times power (Standard, Long or Multi; Multi
///   wins a tie as it uses no Guns power), or in Fusion when the burst would
///   reach other enemies harder than it reaches us and our own ships (so
///   never against a single ship, where it gains nothing and gives up the
///   called point); then every missile; then a bomb when the teleport
///   succeeds at least one time in three; then the same at the next enemy
///   in focus order;
/// - hit allocation: strike the side, and call the row or column, where a
///   2d6 allocation finds the most valuable modules (working weapons first,
///   then Shields, Engines and Helm);
/// - allocation rerolls: spend a scan to roll again the die whose new face
///   is worth most on average, when that average beats where the dice lie
///   now (see [`DefaultTactics::worth_reroll`]); keep Luck for hull checks
///   (hull checks spend it as the engine's ruling says);
/// - repairs: Cannons, then Engines, Shields, Helm, Missile Bays,
///   Teleporters, Science Bays and Cargo Bay items, one Broken marker before
///   a slagged module, and only a repair the dice can make.
#[derive(Debug, Clone, Copy, Default)]
pub struct DefaultTactics;

/// Ways `n` six-sided dice, keeping the best `keep`, make each total.
const fn best_sums(n: usize, keep: usize) -> [u32; 25] {
    let mut counts = [0u32; 25];
    let mut outcomes = 1usize;
    let mut k = 0;
    while k < n {
        outcomes *= 6;
        k += 1;
    }
    let mut i = 0;
    while i < outcomes {
        let mut faces = [0usize; 4];
        let mut x = i;
        let mut k = 0;
        while k < n {
            faces[k] = x % 6 + 1;
            x /= 6;
            k += 1;
        }
        // Insertion sort, highest first.
        let mut a = 1;
        while a < n {
            let mut b = a;
            while b > 0 && faces[b - 1] < faces[b] {
                let t = faces[b - 1];
                faces[b - 1] = faces[b];
                faces[b] = t;
                b -= 1;
            }
            a += 1;
        }
        let mut sum = 0;
        let mut k = 0;
        while k < keep && k < n {
            sum += faces[k];
            k += 1;
        }
        counts[sum] += 1;
        i += 1;
    }
    counts
}

/// `ODDS[n][keep][total]`: ways for up to four dice; validation keeps the
/// skill dice within this table.
static ODDS: [[[u32; 25]; 5]; 5] = {
    let mut table = [[[0u32; 25]; 5]; 5];
    let mut n = 1;
    while n <= 4 {
        let mut keep = 1;
        while keep <= n {
            table[n][keep] = best_sums(n, keep);
            keep += 1;
        }
        n += 1;
    }
    table
};

/// The Cannon to-hit difficulty at a counted range: base + per hex x range.
/// The range is the battle's, not bounded by the data, so a difficulty past
/// any roll saturates rather than overflows.
fn to_hit_difficulty(c: &crate::model::Constants, counted: i32) -> i32 {
    c.to_hit_base
        .saturating_add(c.to_hit_per_hex.saturating_mul(counted))
}

/// The chance, in parts of 1296 (6^4, so every dice count divides it), that
/// `n` dice keeping the best `keep` total at least `need`.
pub fn chance_at_least(n: u8, keep: u8, need: i32) -> u32 {
    let (n, keep) = (usize::from(n.clamp(1, 4)), usize::from(keep.clamp(1, 4)));
    let keep = keep.min(n);
    let counts = &ODDS[n][keep];
    let from = need.clamp(0, 25) as usize;
    let ways: u32 = counts.iter().skip(from).sum();
    let outcomes = 6u32.pow(n as u32);
    ways * (1296 / outcomes)
}

/// An enemy's place in the focus order, compared field by field: the hull
/// check negated, danger subtracted from the most, Shields, distance, board
/// index.
type FocusKey = (i32, u32, u8, u32, usize);

/// 2d6 ways for each total 2..=12, for weighing allocation.
const ALLOCATION_WAYS: [u32; 11] = [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1];

impl DefaultTactics {
    /// The chance (in 1296ths) that a ship's crew passes a check of `skill`
    /// against `difficulty`, with its OOC penalty where OOC hinders.
    fn check_chance(
        system: &ModuleGrid,
        ship: &Ship,
        skill: Skill,
        difficulty: i32,
        ooc: bool,
    ) -> u32 {
        let c = &system.rules.constants;
        let crew = &system.rules.class(ship.class).crew;
        let n = if crew.is_professional(skill) {
            c.professional_dice
        } else {
            c.skill_dice
        };
        let penalty = if ooc {
            i32::from(ship.ooc) * c.ooc_penalty
        } else {
            0
        };
        // The difficulty may have saturated at a far range.
        chance_at_least(
            n,
            c.skill_dice,
            difficulty
                .saturating_sub(i32::from(crew.level(skill)))
                .saturating_add(penalty),
        )
    }

    /// How much a module is worth hitting.
    fn module_value(system: &ModuleGrid, class: &ShipClass, target: &Ship, m: ModuleIx) -> u32 {
        if !target.is_working(m) {
            return 1;
        }
        match system.rules.module_type(class, m).function {
            Function::Cannon | Function::MissileBay | Function::Teleporter => 4,
            Function::Shields | Function::Engine | Function::Helm => 3,
            _ => 2,
        }
    }

    /// The worth of dice landing along `line` from `side`: the first three
    /// modules met, which the kept dice most often reach.
    fn lane_value(
        system: &ModuleGrid,
        class: &ShipClass,
        target: &Ship,
        side: ShipSide,
        line: i32,
    ) -> u32 {
        class
            .lane_modules(side, line)
            .take(3)
            .map(|m| Self::module_value(system, class, target, m))
            .sum()
    }

    /// The worth of each line from `side` (0-based, off the layout worth 0),
    /// and how many lines there are.
    fn line_values(system: &ModuleGrid, target: &Ship, side: ShipSide) -> ([u32; MAX_SIDE], i32) {
        let class = system.rules.class(target.class);
        let lines = class.lines(side).clamp(0, MAX_SIDE as i32);
        let mut values = [0u32; MAX_SIDE];
        for (line, value) in values.iter_mut().enumerate().take(lines as usize) {
            *value = Self::lane_value(system, class, target, side, line as i32);
        }
        (values, lines)
    }

    /// The worth of an allocation centred on `line`, weighed over the 2d6
    /// roll, from precomputed line values.
    fn allocation_worth(
        system: &ModuleGrid,
        values: &[u32; MAX_SIDE],
        lines: i32,
        line: i32,
    ) -> u32 {
        let centre = system.rules.constants.allocation_centre;
        // Total `i + 2` lands on line `line + i + 2 - centre`; only the
        // totals landing on the layout are worth anything, so only they are
        // summed (a narrow ship meets few of the eleven).
        let totals = ALLOCATION_WAYS.len() as i32;
        let from = (centre - 2 - line).clamp(0, totals);
        let to = (lines + centre - 2 - line).clamp(from, totals);
        (from..to)
            .map(|i| ALLOCATION_WAYS[i as usize] * values[(line + i + 2 - centre) as usize])
            .sum()
    }

    /// The default choice of an allocation reroll.
    ///
    /// Where the dice lie now is worth the lane value of its row or column
    /// (0 off the ship). Rolling one die again keeps the other, so it lands
    /// on one of six lines with equal chance: its worth is the sum of those
    /// six lanes' values. The die whose sum is higher (the first rolled on a
    /// tie) is rolled again when that sum beats six times the worth now, that
    /// is when the reroll is worth more on average. A scan pays first, then
    /// Luck if `with_luck` allows it. Nothing is spent on a friend's (or the
    /// firer's own) share of a Fusion burst: what is worth more against an
    /// enemy is worse there.
    pub fn worth_reroll(
        system: &ModuleGrid,
        view: &AllocationView<'_>,
        with_luck: bool,
    ) -> Option<Reroll> {
        if !view.foe {
            return None;
        }
        let with = if view.scans > 0 {
            RerollWith::Scan
        } else if with_luck && view.luck > 0 {
            RerollWith::Luck
        } else {
            return None;
        };
        let (values, lines) = Self::line_values(system, view.target, view.side);
        let worth = |line: i32| {
            if (0..lines).contains(&line) {
                values[line as usize]
            } else {
                0
            }
        };
        let now = worth(view.line);
        // The line moves by the change in the rerolled die's face.
        let after = |die: usize| -> u32 {
            let old = i32::from(view.faces[die]);
            (1..=6).map(|face| worth(view.line + face - old)).sum()
        };
        let (die, best) = if after(1) > after(0) {
            (1, after(1))
        } else {
            (0, after(0))
        };
        (best > 6 * now).then_some(Reroll { die, with })
    }

    /// The best line to call from `side` and its worth weighed over the
    /// allocation roll; lines are those holding a module, as a call must be
    /// a module square.
    fn best_call(system: &ModuleGrid, target: &Ship, side: ShipSide) -> Option<(Square, u32)> {
        let class = system.rules.class(target.class);
        // Each line's worth and its first module from one walk of its lane,
        // as this runs for every shot aimed.
        let lines = class.lines(side).clamp(0, MAX_SIDE as i32);
        let mut values = [0u32; MAX_SIDE];
        let mut firsts: [Option<ModuleIx>; MAX_SIDE] = [None; MAX_SIDE];
        for (line, (value, first)) in values
            .iter_mut()
            .zip(firsts.iter_mut())
            .enumerate()
            .take(lines as usize)
        {
            let mut modules = class.lane_modules(side, line as i32).take(3);
            *first = modules.next();
            *value = (*first)
                .into_iter()
                .chain(modules)
                .map(|m| Self::module_value(system, class, target, m))
                .sum();
        }
        let mut best: Option<(Square, u32)> = None;
        for line in 0..lines {
            let Some(first) = firsts[line as usize] else {
                continue;
            };
            let worth = Self::allocation_worth(system, &values, lines, line);
            if best.is_none_or(|(_, w)| worth > w) {
                best = Some((class.modules[usize::from(first)].at, worth));
            }
        }
        best
    }

    /// The side to strike and the point to call on it.
    fn aim(system: &ModuleGrid, target: &Ship, sides: SideSet) -> (ShipSide, Option<Square>) {
        let mut best = (ShipSide::Fore, None, 0);
        let mut first = true;
        for side in sides.sides() {
            let (call, worth) = match Self::best_call(system, target, side) {
                Some((square, worth)) => (Some(square), worth),
                None => (None, 0),
            };
            if first || worth > best.2 {
                best = (side, call, worth);
                first = false;
            }
        }
        (best.0, best.1)
    }

    /// The side whose indirect hit (on the centre mark's line) is worth most.
    fn indirect_side(system: &ModuleGrid, target: &Ship, sides: SideSet) -> ShipSide {
        Self::indirect_side_by(system, target, sides, |worth, best| worth > best)
    }

    /// The side whose indirect hit is worth most by `better` (the first of
    /// equals, clockwise from the bow).
    fn indirect_side_by(
        system: &ModuleGrid,
        target: &Ship,
        sides: SideSet,
        better: impl Fn(u32, u32) -> bool,
    ) -> ShipSide {
        let class = system.rules.class(target.class);
        let mut best = (ShipSide::Fore, 0, true);
        for side in sides.sides() {
            let (values, lines) = Self::line_values(system, target, side);
            let base = class.centre_line(side, class.centre);
            let worth = Self::allocation_worth(system, &values, lines, base);
            if best.2 || better(worth, best.1) {
                best = (side, worth, false);
            }
        }
        best.0
    }

    /// The default side for a Fusion burst on a ship beyond its target: on
    /// an enemy the side where the hit is worth most, on a friend (or the
    /// firer itself) the side where it is worth least.
    pub fn burst_side_for(
        system: &ModuleGrid,
        battle: &Battle,
        ship: usize,
        struck: usize,
        sides: SideSet,
    ) -> ShipSide {
        let target = &battle.board.ships[struck];
        if battle.sides[struck] == battle.sides[ship] {
            Self::indirect_side_by(system, target, sides, |worth, best| worth < best)
        } else {
            Self::indirect_side(system, target, sides)
        }
    }

    /// The best mode for a Cannon that has fired `fired` shots this turn, and
    /// its worth (chance in 1296ths times power); `None` if no mode is worth
    /// a shot.
    fn cannon_mode(system: &ModuleGrid, me: &Ship, range: u32, fired: u8) -> Option<(Mode, u32)> {
        let rules = &system.rules;
        let c = &rules.constants;
        let mut best: Option<(Mode, u32)> = None;
        for mode in [Mode::Multi, Mode::Standard, Mode::Long] {
            let rule = rules.mode(mode);
            // A shot at power 0 is worth 0 below, so Guns 0 rules out
            // Standard and Long without a test of its own.
            if fired >= rule.shots_per_turn {
                continue;
            }
            let power = system.cannon_power(mode, me.guns);
            let counted = i32::try_from(system.counted_range(mode, range)).unwrap_or(i32::MAX / 4);
            let difficulty = to_hit_difficulty(c, counted);
            let worth =
                Self::check_chance(system, me, c.to_hit_skill, difficulty, true) * u32::from(power);
            // Multi is weighed first, so it wins a tie: it costs no Guns.
            if worth > 0 && best.is_none_or(|(_, w)| worth > w) {
                best = Some((mode, worth));
            }
        }
        best
    }

    /// For each set of sides (by its bits), how many of a ship's working
    /// Cannons face one of them: a lookup that spares scoring every move
    /// from walking the modules.
    fn bearing_table(system: &ModuleGrid, ship: &Ship) -> [u8; 16] {
        let class = system.rules.class(ship.class);
        let cannons = ship.working_of(class, Function::Cannon);
        let mut table = [0u8; 16];
        let mut left = cannons;
        while left != 0 {
            let i = left.trailing_zeros() as usize;
            left &= left - 1;
            let exposed = class.modules.get(i).map_or(0, |m| m.exposed.0);
            for (set, count) in table.iter_mut().enumerate() {
                if exposed & set as u8 != 0 {
                    *count += 1;
                }
            }
        }
        table
    }

    /// The enemies still in play in the order this policy attends to them:
    /// first the one whose hull check is highest once it can fail at all
    /// (chart less Size above 2: the ship a hit is likeliest to explode;
    /// every check of 2 or less ranks alike), then the most dangerous (its
    /// working Cannons times its Guns rating), then the lowest Shields
    /// (stripped by this turn's strikes), then the nearest, then the lowest
    /// board index.
    ///
    /// Danger before size matters: ranking fresh ships by their hull check
    /// alone would put the smallest (the least Size off the chart) first,
    /// and a fleet that spends its fire on a scout while a cruiser shoots
    /// back loses most mirror battles to one that does the opposite.
    pub fn focus_order(
        system: &ModuleGrid,
        battle: &Battle,
        ship: usize,
    ) -> ArrayVec<usize, MAX_SHIPS> {
        // Filled in place rather than collected: an `ArrayVec` built by
        // `collect` is copied whole on its way out, and this runs for every
        // move and shot.
        let mut ranked: ArrayVec<FocusKey, MAX_SHIPS> = ArrayVec::new();
        ranked.extend(
            battle
                .enemies(ship)
                .take(MAX_SHIPS)
                .map(|i| Self::focus_key(system, battle, ship, i)),
        );
        ranked.sort_unstable();
        let mut order = ArrayVec::new();
        order.extend(ranked.iter().map(|&(_, _, _, _, i)| i));
        order
    }

    /// The first enemy of [`DefaultTactics::focus_order`], or `None` with
    /// none left. A lone enemy is the focus without being ranked, which
    /// keeps a duel's decisions as cheap as before fleets.
    fn focus(system: &ModuleGrid, battle: &Battle, ship: usize) -> Option<usize> {
        let mut enemies = battle.enemies(ship);
        let first = enemies.next()?;
        if enemies.next().is_none() {
            return Some(first);
        }
        // Keys end in the board index, so they are distinct and the least
        // is the one the sort would put first.
        battle
            .enemies(ship)
            .take(MAX_SHIPS)
            .map(|i| Self::focus_key(system, battle, ship, i))
            .min()
            .map(|(_, _, _, _, i)| i)
    }

    /// An enemy's rank in [`DefaultTactics::focus_order`]: lower first.
    fn focus_key(system: &ModuleGrid, battle: &Battle, ship: usize, i: usize) -> FocusKey {
        let s = &battle.board.ships[i];
        let class = system.rules.class(s.class);
        let check = system.rules.hull_check(s.damage(), class.size);
        let danger = s.working_of(class, Function::Cannon).count_ones() * u32::from(class.guns);
        (
            -check.max(2),
            u32::MAX - danger,
            s.shields,
            battle.poses[ship].hex.distance(battle.poses[i].hex),
            i,
        )
    }

    /// The burst's reach on the enemies beyond the target, less its reach on
    /// the firer and its own ships: the power a Fusion burst of `power` in
    /// the target's hex would bring to each, summed. Asteroids are not
    /// weighed (the engine still stops a burst at them).
    fn burst_gain(
        system: &ModuleGrid,
        battle: &Battle,
        ship: usize,
        target: usize,
        power: u8,
    ) -> i64 {
        let at = battle.poses[target].hex;
        let reach =
            |i: usize| i64::from(system.burst_power(power, at.distance(battle.poses[i].hex)));
        let theirs: i64 = battle
            .enemies(ship)
            .filter(|&i| i != target)
            .map(reach)
            .sum();
        let ours: i64 = reach(ship) + battle.allies(ship).map(reach).sum::<i64>();
        theirs - ours
    }

    /// Whether a Cannon that has fired `fired` shots this turn may fire in
    /// Fusion now, and that shot's worth (chance in 1296ths times power plus
    /// the burst's gain); `None` when the mode is not open to it.
    fn fusion_worth(
        system: &ModuleGrid,
        battle: &Battle,
        ship: usize,
        target: &FireOptions,
        fired: u8,
    ) -> Option<i64> {
        let rules = &system.rules;
        let c = &rules.constants;
        let me = &battle.board.ships[ship];
        let class = rules.class(me.class);
        let rule = rules.mode(Mode::Fusion);
        if fired >= rule.shots_per_turn || rule.needs.is_some_and(|f| !me.has_working(class, f)) {
            return None;
        }
        let power = system.cannon_power(Mode::Fusion, me.guns);
        let counted =
            i32::try_from(system.counted_range(Mode::Fusion, target.range)).unwrap_or(i32::MAX / 4);
        let difficulty = to_hit_difficulty(c, counted);
        let chance = Self::check_chance(system, me, c.to_hit_skill, difficulty, true);
        let gain = Self::burst_gain(system, battle, ship, target.target, power);
        Some(i64::from(chance) * (i64::from(power) + gain))
    }

    /// The shot this policy takes at one enemy, if any: a Cannon that bears
    /// (in its best mode, or Fusion when the burst gains more), then a
    /// missile, then a bomb worth the teleport.
    fn shot_at(
        system: &ModuleGrid,
        battle: &Battle,
        ship: usize,
        options: &FireOptions,
    ) -> Option<ShotChoice> {
        let me = &battle.board.ships[ship];
        let class = system.rules.class(me.class);
        let target = &battle.board.ships[options.target];
        let c = &system.rules.constants;
        // Only a battle with a third ship can make a burst worth more than
        // the shot itself, so a duel never weighs Fusion.
        let crowded = battle.board.ships.len() > 2;
        for m in 0..class.modules.len() as ModuleIx {
            let bit = 1u64 << m;
            if options.cannons & bit != 0 {
                let fired = Ship::cannon_order(class, m)
                    .and_then(|o| me.shots.get(o).copied())
                    .unwrap_or(u8::MAX);
                let best = Self::cannon_mode(system, me, options.range, fired);
                let fusion = if crowded {
                    Self::fusion_worth(system, battle, ship, options, fired)
                } else {
                    None
                };
                let best_worth = best.map_or(0, |(_, w)| i64::from(w));
                if let Some(worth) = fusion
                    && worth > best_worth
                {
                    return Some(ShotChoice {
                        target: options.target,
                        weapon: Weapon::Cannon {
                            module: m,
                            mode: Mode::Fusion,
                        },
                        side: Self::indirect_side(system, target, options.struck),
                        call: None,
                    });
                }
                if let Some((mode, _)) = best {
                    let (side, call) = Self::aim(system, target, options.struck);
                    return Some(ShotChoice {
                        target: options.target,
                        weapon: Weapon::Cannon { module: m, mode },
                        side,
                        call,
                    });
                }
            }
        }
        for m in 0..class.modules.len() as ModuleIx {
            if options.missile_bays & (1u64 << m) != 0 {
                return Some(ShotChoice {
                    target: options.target,
                    weapon: Weapon::Missile { module: m },
                    side: Self::indirect_side(system, target, options.struck),
                    call: None,
                });
            }
        }
        for m in 0..class.modules.len() as ModuleIx {
            if options.teleporters & (1u64 << m) != 0 {
                let range = i32::try_from(options.range).unwrap_or(i32::MAX / 4);
                // The range is the battle's, not bounded by the data.
                let difficulty =
                    (c.teleport_base + i32::from(me.shields) + i32::from(target.shields))
                        .saturating_add(range);
                let chance = Self::check_chance(system, me, c.teleport_skill, difficulty, false);
                if chance * 3 >= 1296 {
                    let (side, call) = Self::aim(system, target, options.struck);
                    return Some(ShotChoice {
                        target: options.target,
                        weapon: Weapon::Teleporter { module: m },
                        side,
                        call,
                    });
                }
            }
        }
        None
    }

    /// How soon a broken module should be repaired: lower first.
    fn repair_rank(function: Function) -> Option<u8> {
        match function {
            Function::Cannon => Some(0),
            Function::Engine => Some(1),
            Function::Shields => Some(2),
            Function::Helm => Some(3),
            Function::MissileBay => Some(4),
            Function::Teleporter => Some(5),
            Function::Science => Some(6),
            Function::HullStabilizer | Function::FusionNode => Some(7),
            Function::None => None,
        }
    }
}

impl ModuleGridTactics for DefaultTactics {
    fn maneuver(&self, system: &ModuleGrid, battle: &Battle, ship: usize) -> Maneuver {
        let me = &battle.board.ships[ship];
        let class = system.rules.class(me.class);
        let speed = if me.has_working(class, Function::Engine) {
            class.speed
        } else {
            0
        };
        let can_turn = me.has_working(class, Function::Helm) && !system.tumbling(battle, ship);
        let turns: &[i8] = if can_turn { &[0, -1, 1] } else { &[0] };
        let Some(focus) = Self::focus(system, battle, ship) else {
            return Maneuver::default();
        };
        let target = battle.poses[focus];
        let mine = Self::bearing_table(system, me);
        // Filled in place: collected, these would be copied whole.
        let mut threats: ArrayVec<(hex::Hex, hex::Direction, [u8; 16]), MAX_SHIPS> =
            ArrayVec::new();
        threats.extend(battle.enemies(ship).take(MAX_SHIPS).map(|e| {
            let pose = battle.poses[e];
            let table = Self::bearing_table(system, &battle.board.ships[e]);
            (pose.hex, pose.facing, table)
        }));
        let mut friends: ArrayVec<(hex::Hex, u8), MAX_SHIPS> = ArrayVec::new();
        friends.extend(battle.allies(ship).take(MAX_SHIPS).map(|a| {
            let size = system.rules.class(battle.board.ships[a].class).size;
            (battle.poses[a].hex, size)
        }));
        let pose = battle.poses[ship];
        // A move is scored by its end: 10 a hex away from range 1 of the
        // focus enemy, 12 more in any enemy's own hex, 6 for each of our
        // Cannons that bears on the focus enemy, -2 for each enemy Cannon
        // that bears on us, and -4 for each point of explosion power that
        // would pass between us and each of our own ships (theirs reaching
        // us and ours reaching them). Holding still is weighed first, so it
        // wins every tie.
        // What a move's end is worth before its final facing: the score so
        // far, the hexside of our hex the focus enemy lies beyond (only our
        // final facing changes it) and the enemy Cannons bearing on it.
        let weigh_end = |end: hex::Hex| -> (i64, hex::Entry, i64) {
            let d = end.distance(target.hex);
            let mut base = -10 * i64::from(d.abs_diff(1));
            let toward_enemy = hex::entry_side(target.hex, end);
            let mut threatened = 0i64;
            for &(at, facing, theirs) in &threats {
                if at == end {
                    base -= 12;
                }
                // The hexside of their hex we lie beyond.
                let toward_us = hex::entry_side(end, at).relative_to(facing);
                threatened += i64::from(theirs[usize::from(sight::sides_of_entry(toward_us).0)]);
            }
            for &(at, size) in &friends {
                let apart = end.distance(at);
                let blast =
                    system.explosion_power(size, apart) + system.explosion_power(class.size, apart);
                base -= 4 * i64::from(blast);
            }
            (base, toward_enemy, threatened)
        };
        // Every heading's move of no hexes ends where we are: weighed once.
        let still = weigh_end(pose.hex);
        let mut best = Maneuver::default();
        let mut best_score = i64::MIN;
        for &turn_before in turns {
            let heading = pose.facing.turn(i32::from(turn_before));
            for steps in 0..=speed {
                let (base, toward_enemy, threatened) = if steps == 0 {
                    still
                } else {
                    weigh_end(pose.hex.step(heading, i32::from(steps)))
                };
                for &turn_after in turns {
                    let facing = heading.turn(i32::from(turn_after));
                    let sides = sight::sides_of_entry(toward_enemy.relative_to(facing));
                    let score = base + 6 * i64::from(mine[usize::from(sides.0)]) - 2 * threatened;
                    if score > best_score {
                        best_score = score;
                        best = Maneuver {
                            turn_before,
                            steps,
                            turn_after,
                        };
                    }
                }
            }
        }
        best
    }

    fn next_shot(
        &self,
        system: &ModuleGrid,
        battle: &Battle,
        ship: usize,
        options: &[FireOptions],
    ) -> Option<ShotChoice> {
        // Options come one per enemy in play, so a lone option is the whole
        // focus order.
        if let [only] = options {
            return Self::shot_at(system, battle, ship, only);
        }
        Self::focus_order(system, battle, ship)
            .into_iter()
            .filter_map(|target| options.iter().find(|o| o.target == target))
            .find_map(|o| Self::shot_at(system, battle, ship, o))
    }

    fn scan_target(
        &self,
        system: &ModuleGrid,
        battle: &Battle,
        ship: usize,
        options: &[FireOptions],
    ) -> Option<usize> {
        // The enemy its first shot will go to; with no shot to take, the
        // one it focuses on, should a weapon come to bear later in the turn.
        // Either way a lone enemy, found without weighing the shot.
        if let [only] = options {
            return Some(only.target);
        }
        self.next_shot(system, battle, ship, options)
            .map(|choice| choice.target)
            .or_else(|| {
                Self::focus_order(system, battle, ship)
                    .into_iter()
                    .find(|&target| options.iter().any(|o| o.target == target))
            })
    }

    fn allocation_reroll(
        &self,
        system: &ModuleGrid,
        _ship: usize,
        view: &AllocationView<'_>,
    ) -> Option<Reroll> {
        Self::worth_reroll(system, view, false)
    }

    fn repair(&self, system: &ModuleGrid, battle: &Battle, ship: usize) -> Option<ModuleIx> {
        let me = &battle.board.ships[ship];
        let class = system.rules.class(me.class);
        let c = &system.rules.constants;
        let mut best: Option<((u8, u8), ModuleIx)> = None;
        for m in 0..class.modules.len() as ModuleIx {
            let markers = me.markers(m);
            if markers == 0 {
                continue;
            }
            let Some(rank) = Self::repair_rank(system.rules.module_type(class, m).function) else {
                continue;
            };
            let difficulty = c.repair_difficulty + if markers >= 2 { c.slagged_penalty } else { 0 };
            if Self::check_chance(system, me, c.repair_skill, difficulty, false) == 0 {
                continue;
            }
            let key = (markers, rank);
            if best.is_none_or(|(k, _)| key < k) {
                best = Some((key, m));
            }
        }
        best.map(|(_, m)| m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use broadside_core::kit::System as _;

    #[test]
    fn dice_odds_match_counting() {
        // Two dice reach 7 or more on 21 of 36 rolls; 21/36 of 1296 is 756.
        assert_eq!(chance_at_least(2, 2, 7), 756);
        assert_eq!(chance_at_least(2, 2, 2), 1296);
        assert_eq!(chance_at_least(2, 2, 13), 0);
        // The best two of three dice reach 12 on 16 of 216 rolls.
        assert_eq!(chance_at_least(3, 2, 12), 16 * 6);
    }

    #[test]
    fn a_far_range_saturates_the_to_hit_difficulty() {
        let system = ModuleGrid::embedded().expect("the data of record loads");
        let mut c = system.rules.constants.clone();
        // The most the data allows per hex, at the far range a failed
        // conversion stands for: the product is past i32.
        c.to_hit_per_hex = 20;
        assert_eq!(to_hit_difficulty(&c, i32::MAX / 4), i32::MAX);
        assert_eq!(to_hit_difficulty(&c, 3), c.to_hit_base + 60);
    }
}
