//! A ship's state during play: boxes marked, systems left, supplies, shields.
//!
//! The state is small, `Clone` without allocation, and `Eq + Hash`, so
//! equal states reached by different rolls compare equal. The structure
//! track is marked from its first box, so one count says which boxes are
//! gone.

use arrayvec::ArrayVec;

use crate::model::{ClassId, Drive, Letter, Mount, Rules, Scanner, ShipClass, System, WeaponKind};

/// The most boxes a structure track may have.
pub const MAX_BOXES: usize = 64;
/// The most weapon mounts one ship may carry.
pub const MAX_MOUNTS: usize = 16;

/// A scanner's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ScannerState {
    /// The class has none.
    Absent,
    /// Working.
    Working,
    /// Disabled by an S box: repairable, and hit again it is destroyed.
    Disabled,
    /// Destroyed.
    Destroyed,
}

impl ScannerState {
    /// Its name in reports.
    pub const fn id(self) -> &'static str {
        match self {
            ScannerState::Absent => "absent",
            ScannerState::Working => "working",
            ScannerState::Disabled => "disabled",
            ScannerState::Destroyed => "destroyed",
        }
    }
}

/// One weapon mount aboard: a single weapon or a bank.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct WeaponMount {
    /// Which weapon.
    pub weapon: crate::model::WeaponId,
    /// Weapons in the bank.
    pub bank: u8,
    /// Destroyed by a damage result.
    pub destroyed: bool,
    /// Charged, for a weapon that needs charging.
    pub charged: bool,
    /// Swarms left, for a weapon with limited shots.
    pub shots: Option<u8>,
}

/// Whether a ship is still in the fight, and if not, why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    /// In the fight.
    Active,
    /// Every structure box marked.
    Destroyed,
    /// Scuttled by its crew.
    Scuttled,
    /// Taken by enemy troops.
    Captured,
    /// Gone into hyperspace.
    Escaped,
}

impl Status {
    /// Its name in reports.
    pub const fn id(self) -> &'static str {
        match self {
            Status::Active => "active",
            Status::Destroyed => "destroyed",
            Status::Scuttled => "scuttled",
            Status::Captured => "captured",
            Status::Escaped => "escaped",
        }
    }
}

/// Something a Repair action can fix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Repairable {
    /// The magazine jam of an M box.
    MagazineJam,
    /// A disabled or destroyed scanner.
    Scanner(Scanner),
    /// A destroyed weapon mount, by index.
    Weapon(u8),
    /// One destroyed system of this kind (not a weapon or scanner).
    System(System),
}

/// A ship in play.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Ship {
    /// Its class.
    pub class: ClassId,
    /// Boxes marked, from the first box of the track.
    pub marked: u8,
    /// Marked boxes of each letter, by [`Letter::index`].
    pub lost: [u8; 8],
    /// Shield points now.
    pub shields: u8,
    /// Cargo points left.
    pub cargo: u16,
    /// Remass burns left.
    pub remass: u16,
    /// Warheads in the magazine.
    pub warheads: u16,
    /// The magazine is jammed: no salvo can be launched.
    pub jammed: bool,
    /// The two scanners, by [`Scanner::index`].
    pub scanners: [ScannerState; 2],
    /// Intact systems of each kind, by [`System::index`]; weapon kinds count
    /// intact mounts and troops count troop units aboard.
    pub intact: [u8; System::COUNT],
    /// Weapon mounts.
    pub weapons: ArrayVec<WeaponMount, MAX_MOUNTS>,
    /// Small craft in the hangar.
    pub small_craft: u8,
    /// Chaff pods left.
    pub chaff_pods: u8,
    /// Antimatter spreads left.
    pub antimatter_spreads: u8,
    /// Troop units readied for boarding.
    pub ready_troops: u8,
    /// Enemy troop units aboard.
    pub boarders: u8,
    /// In the fight or not.
    pub status: Status,
}

impl Ship {
    /// A fresh ship of a class: undamaged, supplied, shields up, weapons
    /// that need charging not yet charged.
    pub fn new(rules: &Rules, class: ClassId) -> Ship {
        let c = rules.class(class);
        let scanner = |s: Scanner| {
            if c.has(s.system()) > 0 {
                ScannerState::Working
            } else {
                ScannerState::Absent
            }
        };
        let mut ship = Ship {
            class,
            marked: 0,
            lost: [0; 8],
            shields: 0,
            cargo: c.cargo,
            remass: c.remass,
            warheads: c.warheads,
            jammed: false,
            scanners: [scanner(Scanner::LongRange), scanner(Scanner::ShortRange)],
            intact: c.systems,
            weapons: c
                .weapons
                .iter()
                .map(|m| WeaponMount {
                    weapon: m.weapon,
                    bank: m.bank,
                    destroyed: false,
                    charged: false,
                    shots: rules.weapon(m.weapon).shots,
                })
                .collect(),
            small_craft: c.small_craft.map_or(0, |s| s.count),
            chaff_pods: c.chaff_pods,
            antimatter_spreads: c.antimatter_spreads,
            ready_troops: 0,
            boarders: 0,
            status: Status::Active,
        };
        ship.shields = ship.max_shields(rules);
        ship
    }

    /// The ship with its first `boxes` boxes already marked, as a record
    /// sheet shows damage taken earlier: the boxes count as lost (A boxes
    /// take their actions with them) but their effects are not rolled.
    /// For setting up examples and scenarios.
    pub fn with_boxes_marked(mut self, rules: &Rules, boxes: u8) -> Ship {
        let track = &rules.class(self.class).track;
        let boxes = boxes.min(track.len() as u8);
        self.marked = boxes;
        self.lost = [0; 8];
        for letter in &track[..usize::from(boxes)] {
            self.lost[letter.index()] += 1;
        }
        if usize::from(boxes) >= track.len() {
            self.status = Status::Destroyed;
        }
        self
    }

    /// The ship's class.
    pub fn class<'r>(&self, rules: &'r Rules) -> &'r ShipClass {
        rules.class(self.class)
    }

    /// Boxes on the track.
    pub fn boxes(&self, rules: &Rules) -> u8 {
        self.class(rules).track.len() as u8
    }

    /// Boxes not yet marked.
    pub fn boxes_left(&self, rules: &Rules) -> u8 {
        self.boxes(rules).saturating_sub(self.marked)
    }

    /// Boxes of a letter still unmarked.
    pub fn letters_left(&self, rules: &Rules, letter: Letter) -> u8 {
        self.class(rules).letters[letter.index()].saturating_sub(self.lost[letter.index()])
    }

    /// Actions per turn: the A boxes left.
    pub fn actions_per_turn(&self, rules: &Rules) -> u8 {
        self.letters_left(rules, Letter::Action)
    }

    /// Whether the ship is still in the fight.
    pub fn is_active(&self) -> bool {
        self.status == Status::Active
    }

    /// Whether every box of a letter the class has is marked.
    pub fn all_lost(&self, rules: &Rules, letter: Letter) -> bool {
        self.class(rules).letters[letter.index()] > 0 && self.letters_left(rules, letter) == 0
    }

    /// How many of a system are intact.
    pub fn intact(&self, system: System) -> u8 {
        self.intact[system.index()]
    }

    /// The FCS rating that counts now: the class's, while fire control and
    /// at least one sensor are intact; 0 otherwise.
    pub fn fcs(&self, rules: &Rules) -> u8 {
        if self.intact(System::FireControl) > 0 && self.intact(System::Sensors) > 0 {
            self.class(rules).fcs
        } else {
            0
        }
    }

    /// Hexes of thrust a Move action may use: intact thrusters times the
    /// class's thrust per thruster, and for a reaction drive no more than
    /// the remass left.
    pub fn thrust(&self, rules: &Rules) -> u32 {
        let class = self.class(rules);
        let thrust =
            u32::from(self.intact(System::Thruster)) * u32::from(class.thrust_per_thruster);
        match class.drive {
            Drive::Reaction => thrust.min(u32::from(self.remass)),
            Drive::Reactionless => thrust,
        }
    }

    /// Whether the ship can change its facing: it needs a maneuvering jet.
    pub fn can_turn(&self) -> bool {
        self.intact(System::ManeuveringJets) > 0
    }

    /// Whether the power plant works: needed to charge weapons and to raise shields.
    pub fn has_power(&self) -> bool {
        self.intact(System::PowerPlant) > 0
    }

    /// The most shield points the ship can raise now: intact emitters times
    /// the points per emitter, while the generator and power plant work.
    pub fn max_shields(&self, rules: &Rules) -> u8 {
        if self.intact(System::ShieldGenerator) == 0 || !self.has_power() {
            return 0;
        }
        self.intact(System::ShieldEmitter)
            .saturating_mul(self.class(rules).shield_per_emitter)
    }

    /// Whether the hyperdrive can take the ship out: the hyperdrive and
    /// every impeller intact.
    pub fn hyperdrive_ready(&self, rules: &Rules) -> bool {
        self.intact(System::Hyperdrive) > 0
            && self.intact(System::HyperdriveImpeller)
                == self.class(rules).has(System::HyperdriveImpeller)
    }

    /// Whether the hangar can launch or recover small craft: its door
    /// intact, and not every H box marked.
    pub fn hangar_usable(&self, rules: &Rules) -> bool {
        self.intact(System::HangarDoor) > 0 && !self.all_lost(rules, Letter::Hangar)
    }

    /// Command Points the ship receives each turn: none once the flag
    /// bridge is lost.
    pub fn command_points(&self, rules: &Rules) -> u8 {
        if self.intact(System::FlagBridge) > 0 {
            self.class(rules).command_points
        } else {
            0
        }
    }

    /// Whether a mount could fire now, apart from range, arc and lock:
    /// intact, charged if it must be, with shots and warheads, and for a
    /// launcher an unjammed magazine.
    pub fn can_fire(&self, rules: &Rules, mount: usize) -> bool {
        self.why_cannot_fire(rules, mount).is_none()
    }

    /// Why the mount cannot fire now, or `None` when it can.
    pub fn why_cannot_fire(&self, rules: &Rules, mount: usize) -> Option<&'static str> {
        let Some(m) = self.weapons.get(mount) else {
            return Some("no such mount");
        };
        let w = rules.weapon(m.weapon);
        if m.destroyed {
            return Some("the weapon is destroyed");
        }
        if w.charge && !m.charged {
            return Some("the weapon is not charged");
        }
        if m.shots == Some(0) {
            return Some("the weapon has no shots left");
        }
        if w.kind.is_salvo() {
            if self.jammed {
                return Some("the magazine is jammed");
            }
            if self.warheads < self.salvo_warheads(rules, mount) {
                return Some("the magazine holds too few warheads for the salvo");
            }
        }
        None
    }

    /// Warheads a salvo from a mount takes from the magazine: the weapon's
    /// warheads for each launcher of the bank, since every launcher used
    /// fires its own missile.
    pub fn salvo_warheads(&self, rules: &Rules, mount: usize) -> u16 {
        self.weapons.get(mount).map_or(0, |m| {
            rules
                .weapon(m.weapon)
                .warheads
                .saturating_mul(u16::from(m.bank))
        })
    }

    /// Whether the ship still has a weapon that can fight: an intact mount
    /// with shots left, and for a launcher warheads in the magazine (a jam
    /// can be cleared, so it does not disarm).
    pub fn is_armed(&self, rules: &Rules) -> bool {
        self.weapons.iter().enumerate().any(|(i, m)| {
            let w = rules.weapon(m.weapon);
            !m.destroyed
                && m.shots != Some(0)
                && (!w.kind.is_salvo() || self.warheads >= self.salvo_warheads(rules, i))
        })
    }

    /// Whether the ship can still fight: in play, with an action each turn
    /// and a weapon.
    pub fn can_fight(&self, rules: &Rules) -> bool {
        self.is_active() && self.actions_per_turn(rules) > 0 && self.is_armed(rules)
    }

    /// The first intact mount of a mount type.
    pub fn intact_mount(&self, rules: &Rules, mount: Mount) -> Option<usize> {
        self.weapons
            .iter()
            .position(|m| !m.destroyed && rules.weapon(m.weapon).mount == mount)
    }

    /// Whether the ship has a point defence weapon it can fire.
    pub fn has_point_defense(&self, rules: &Rules) -> bool {
        (0..self.weapons.len())
            .any(|i| rules.weapon(self.weapons[i].weapon).point_defense && self.can_fire(rules, i))
    }

    /// Whether a system of this kind can be hit: the class has one and it
    /// is not all gone.
    pub fn can_lose(&self, system: System) -> bool {
        match system.scanner() {
            Some(s) => matches!(
                self.scanners[s.index()],
                ScannerState::Working | ScannerState::Disabled
            ),
            None => self.intact(system) > 0,
        }
    }

    /// Everything a Repair action could fix now, whatever its difficulty.
    pub fn damaged(&self, rules: &Rules) -> ArrayVec<Repairable, 40> {
        let mut out = ArrayVec::new();
        if self.jammed {
            out.push(Repairable::MagazineJam);
        }
        for s in Scanner::ALL {
            if matches!(
                self.scanners[s.index()],
                ScannerState::Disabled | ScannerState::Destroyed
            ) {
                out.push(Repairable::Scanner(s));
            }
        }
        for (i, m) in self.weapons.iter().enumerate() {
            if m.destroyed {
                out.push(Repairable::Weapon(i as u8));
            }
        }
        let class = self.class(rules);
        for s in System::ALL {
            if s.mount().is_none()
                && s.scanner().is_none()
                && s != System::Troops
                && self.intact(s) < class.has(s)
                && !out.is_full()
            {
                out.push(Repairable::System(s));
            }
        }
        out
    }

    /// Whether the ship carries a launcher of salvos.
    pub fn has_launcher(&self, rules: &Rules) -> bool {
        self.weapons
            .iter()
            .any(|m| rules.weapon(m.weapon).kind.is_salvo())
    }

    /// Whether a mount is a swarm weapon.
    pub fn is_swarm(&self, rules: &Rules, mount: usize) -> bool {
        self.weapons
            .get(mount)
            .is_some_and(|m| rules.weapon(m.weapon).kind == WeaponKind::Swarm)
    }
}
