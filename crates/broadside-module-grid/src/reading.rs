//! How the rules read their dice: each roll asks only for what the rules go on to look at.
//!
//! Every function here consumes exactly the faces that `Dice::pool` or
//! `Dice::roll` would, one face per die in rolled order, so seeded and
//! scripted play see the same faces as ever and the functions hand them back
//! unchanged (several dice as the `Pool` a plain roll gives). What differs
//! is what the dice are asked for: a die whose faces the rules go on to
//! treat alike in groups is asked only which group it fell in
//! (`Dice::check` for two groups, `Dice::band` for more, `Dice::roll` when
//! every face counts), and dice read together (a check's dice, the
//! allocation, the damage dice, a hull check) are asked only for what the
//! rules take from them as a whole, whatever order they fell in
//! (`Dice::read_pool`). An exact source then branches once per group or
//! reading and hands back a roll of it, which the rules read no further, so
//! exact odds branch on outcomes that differ rather than on faces.

use arrayvec::ArrayVec;
use broadside_core::{Dice, DiceError, Die, Order, Pool, read_pool_as};

/// Faces as the rules' readings work them over (sorted, some taken away).
pub type Faces = ArrayVec<u32, { Pool::CAPACITY }>;

/// Rolls one die of which the rules read only `class_of(face)`. Faces next to
/// each other in the same class are one outcome; classes must not depend on
/// anything but the face and what the rules already know.
pub fn die_by_class<K: PartialEq>(
    dice: &mut dyn Dice,
    die: Die,
    class_of: impl Fn(u32) -> K,
) -> Result<u32, DiceError> {
    // A source that rolls faces rolls the same face whichever call it
    // gets, so the classes are asked for only by an exact source.
    if !dice.enumerates() {
        return dice.roll(die);
    }
    let mut previous = class_of(1);
    die_by_likeness(dice, die, |face| {
        let class = class_of(face + 1);
        let alike = class == previous;
        previous = class;
        alike
    })
}

/// Rolls one die whose faces `alike(face)` says lead to what `face + 1`
/// leads to, asked of each face but the highest in rising order.
fn die_by_likeness(
    dice: &mut dyn Dice,
    die: Die,
    mut alike: impl FnMut(u32) -> bool,
) -> Result<u32, DiceError> {
    // A source that rolls faces rolls the same face whichever call it gets,
    // so working out the runs of alike faces is only for an exact source.
    if !dice.enumerates() {
        return dice.roll(die);
    }
    let sides = die.sides();
    // The highest face of each run of alike faces but the last.
    let mut tops: ArrayVec<u32, 16> = ArrayVec::new();
    let mut many = false;
    for face in 1..sides {
        if !alike(face) {
            many |= tops.try_push(face).is_err();
        }
    }
    if many {
        return dice.roll(die);
    }
    match tops.len() {
        0 => dice.band(die, &[]),
        1 => {
            let top = i32::try_from(tops[0]).unwrap_or(i32::MAX);
            Ok(dice.check(die, top)?.face)
        }
        n if n + 1 == sides as usize => dice.roll(die),
        _ => dice.band(die, &tops),
    }
}

/// Rolls `count` dice of which the rules read only `outcome(faces)`, which
/// must not depend on the order of the faces (a total, the best of them,
/// the faces sorted): an exact source branches once per outcome, whatever
/// order the faces fell in (`Dice::read_pool`).
pub fn dice_by_outcome<K: Ord>(
    dice: &mut dyn Dice,
    count: u32,
    die: Die,
    outcome: impl Fn(&[u32]) -> K,
) -> Result<Pool, DiceError> {
    dice_read(dice, count, die, Order::Ignored, outcome)
}

/// Rolls `count` dice of which the rules read only `reading(faces)`
/// (`Dice::read_pool`), which with `Order::Ignored` must not depend on the
/// order of the faces.
pub fn dice_read<K: Ord>(
    dice: &mut dyn Dice,
    count: u32,
    die: Die,
    order: Order,
    reading: impl Fn(&[u32]) -> K,
) -> Result<Pool, DiceError> {
    check_size(count)?;
    // A source that rolls faces rolls the same faces whichever call it
    // gets, so the reading is set up only for an exact source; the others
    // roll the pool in one call, as plain play always did.
    if !dice.enumerates() {
        return dice.pool(count, die);
    }
    read_pool_as(dice, count, die, order, reading)
}

/// How the rules read one kept die.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Read {
    /// It lands on a module: its face is hull damage, added to that of the
    /// other dice on modules (so only their sum is read), and it breaks the
    /// module when its face is at least this.
    Module(u32),
    /// Only whether its face is at least this.
    AtLeast(u32),
    /// Nothing: it does the same whatever it shows.
    Nothing,
}

/// How the kept dice are read, highest kept first ([`lowest_kept`]).
pub type Ranks = ArrayVec<Read, { Pool::CAPACITY }>;

/// Rolls `count` dice of which the rules keep the lowest `ranks().len()`
/// and read those as the ranks say, highest kept first; the Shields take
/// away the rest. What is read is the sum of the dice on modules and, for
/// each kept die, whether it reaches its number, not which die showed
/// what, so an exact source branches once per distinct reading. The ranks
/// take working out (where each die lands), and only an exact source reads
/// them, so they are asked for only then.
pub fn lowest_kept(
    dice: &mut dyn Dice,
    count: u32,
    die: Die,
    ranks: impl FnOnce() -> Ranks,
) -> Result<Pool, DiceError> {
    if !dice.enumerates() {
        return dice_read(dice, count, die, Order::Ignored, |_| ());
    }
    let ranks = ranks();
    let keep = ranks.len().min(count as usize);
    dice_by_outcome(dice, count, die, |faces| {
        let mut sorted: Faces = faces.iter().copied().collect();
        sorted.sort_unstable();
        sorted.truncate(keep);
        // The hull damage of the dice on modules, and one bit per kept die
        // (highest first) for whether it reaches its number.
        let mut on_modules = 0u32;
        let mut reached = 0u64;
        for (at, (&face, rank)) in sorted.iter().rev().zip(&ranks).enumerate() {
            let number = match *rank {
                Read::Module(breaks_at) => {
                    on_modules += face;
                    breaks_at
                }
                Read::AtLeast(number) => number,
                Read::Nothing => continue,
            };
            if face >= number {
                reached |= 1 << at;
            }
        }
        (on_modules, reached)
    })
}

fn check_size(count: u32) -> Result<(), DiceError> {
    if count as usize > Pool::CAPACITY {
        return Err(DiceError::PoolTooLarge {
            count,
            max: Pool::CAPACITY,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use broadside_core::ScriptedDice;
    use broadside_core::exact::{Prob, enumerate};

    #[test]
    fn scripted_faces_come_back_as_rolled() {
        let mut dice = ScriptedDice::new([6, 1, 4, 4, 2, 5, 3]);
        let faces = lowest_kept(&mut dice, 5, Die::D6, || {
            [Read::Module(4); 2].into_iter().collect()
        })
        .unwrap();
        assert_eq!(faces.to_vec(), [6, 1, 4, 4, 2]);
        let faces = dice_by_outcome(&mut dice, 2, Die::D6, |f| f[0] + f[1] >= 7).unwrap();
        assert_eq!(faces.to_vec(), [5, 3]);
        assert!(dice.remaining().is_empty());
    }

    /// What `ranks` read of a roll, by counting: the lowest kept faces,
    /// highest first; the sum of those on modules, then each as its rank
    /// reads it.
    fn read_as(faces: &[u32], ranks: &[Read]) -> (u32, Vec<Option<bool>>) {
        let mut sorted = faces.to_vec();
        sorted.sort_unstable();
        sorted.truncate(ranks.len());
        sorted.reverse();
        let on_modules = sorted
            .iter()
            .zip(ranks)
            .filter(|(_, rank)| matches!(rank, Read::Module(_)))
            .map(|(&face, _)| face)
            .sum();
        let each = sorted
            .iter()
            .zip(ranks)
            .map(|(&face, rank)| match rank {
                Read::Module(at) | Read::AtLeast(at) => Some(face >= *at),
                Read::Nothing => None,
            })
            .collect();
        (on_modules, each)
    }

    #[test]
    fn the_lowest_kept_weigh_as_every_face_would() {
        use Read::{AtLeast, Module, Nothing};
        const FACE: Read = Module(4);
        // Each case takes one path per distinct reading of the kept dice,
        // whatever order their faces fell in.
        let cases: [(u32, &[Read]); 8] = [
            (5, &[FACE, FACE]),
            (6, &[FACE, FACE, AtLeast(4), AtLeast(4)]),
            (6, &[FACE, AtLeast(4), AtLeast(4)]),
            (6, &[AtLeast(4), AtLeast(4), AtLeast(4)]),
            (5, &[FACE, AtLeast(4), FACE]),
            (4, &[FACE; 4]),
            (6, &[FACE, FACE, FACE]),
            (4, &[Nothing, Nothing]),
        ];
        for (count, ranks) in cases {
            let rolls = 6u32.pow(count);
            let mut counted = std::collections::BTreeMap::new();
            for roll in 0..rolls {
                let faces: Vec<u32> = (0..count).map(|i| roll / 6u32.pow(i) % 6 + 1).collect();
                *counted.entry(read_as(&faces, ranks)).or_insert(0u128) += 1;
            }
            let (exact, paths) = enumerate(u64::from(rolls), |dice| {
                let faces = lowest_kept(dice, count, Die::D6, || ranks.iter().copied().collect())?;
                Ok(read_as(&faces.to_vec(), ranks))
            })
            .unwrap();
            assert_eq!(exact.len(), counted.len(), "{ranks:?}");
            assert_eq!(paths, counted.len() as u64, "{ranks:?}: {paths} paths");
            for (read, ways) in counted {
                assert_eq!(
                    exact[&read],
                    Prob::new(ways, u128::from(rolls)),
                    "{ranks:?}"
                );
            }
        }
    }

    #[test]
    fn a_small_pool_branches_on_its_outcome() {
        // 2d6 at or over 9: 10 of 36.
        let (exact, paths) = enumerate(100, |dice| {
            let faces = dice_by_outcome(dice, 2, Die::D6, |f| f[0] + f[1] >= 9)?;
            Ok(faces.total() >= 9)
        })
        .unwrap();
        assert_eq!(exact[&true], Prob::new(10, 36));
        // One path for each outcome, whatever the faces.
        assert_eq!(paths, 2);
    }
}
