//! How the rules read their dice: each roll asks only for what the rules go on to look at.
//!
//! Every function here consumes exactly the faces that `Dice::pool` or
//! `Dice::roll` would, one face per die in rolled order, so seeded and
//! scripted play see the same faces as ever and the functions hand them back
//! unchanged. What differs is what each die is asked for: a die whose faces
//! the rules go on to treat alike in groups is asked only which group it
//! fell in (`Dice::check` for two groups, `Dice::band` for more, `Dice::roll`
//! when every face counts). An exact source then branches once per group and
//! hands back a face of the group, which the rules read no further than the
//! group, so exact odds branch on outcomes that differ rather than on faces.

use arrayvec::ArrayVec;
use broadside_core::{Dice, DiceError, Die, Pool};

/// The faces one reading hands back, in rolled order.
pub type Faces = ArrayVec<u32, { Pool::CAPACITY }>;

/// The most completions a small pool is read through: a pool whose later
/// dice can fall more ways than this is rolled face by face instead.
const MOST_COMPLETIONS: u64 = 216;

/// Rolls one die of which the rules read only `class_of(face)`. Faces next to
/// each other in the same class are one outcome; classes must not depend on
/// anything but the face and what the rules already know.
pub fn die_by_class<K: PartialEq>(
    dice: &mut dyn Dice,
    die: Die,
    class_of: impl Fn(u32) -> K,
) -> Result<u32, DiceError> {
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

/// Rolls `count` dice of which the rules read only `outcome(faces)`, one die
/// at a time: each die is asked only which class of futures its face leads
/// to, found by trying every way the later dice can fall. A pool too big to
/// try so is rolled face by face.
pub fn dice_by_outcome<K: PartialEq>(
    dice: &mut dyn Dice,
    count: u32,
    die: Die,
    outcome: impl Fn(&[u32]) -> K,
) -> Result<Faces, DiceError> {
    check_size(count)?;
    let sides = die.sides();
    let completions = u64::from(sides).checked_pow(count.saturating_sub(1));
    let mut faces = Faces::new();
    if completions.is_none_or(|n| n > MOST_COMPLETIONS) {
        for _ in 0..count {
            faces.push(dice.roll(die)?);
        }
        return Ok(faces);
    }
    let count = count as usize;
    for at in 0..count {
        // Two faces are alike when every way the later dice can fall gives
        // the same outcome after either.
        let mut low = faces.clone();
        low.extend(std::iter::repeat_n(1, count - at));
        let mut high = low.clone();
        let alike = |face: u32| -> bool {
            low[at] = face;
            high[at] = face + 1;
            for i in at + 1..count {
                low[i] = 1;
                high[i] = 1;
            }
            loop {
                if outcome(&low) != outcome(&high) {
                    return false;
                }
                // The next way the later dice can fall, like an odometer.
                let mut i = count;
                loop {
                    if i == at + 1 {
                        return true;
                    }
                    i -= 1;
                    if low[i] < sides {
                        low[i] += 1;
                        high[i] += 1;
                        break;
                    }
                    low[i] = 1;
                    high[i] = 1;
                }
            }
        };
        faces.push(die_by_likeness(dice, die, alike)?);
    }
    Ok(faces)
}

/// Rolls `count` dice of which the rules keep the lowest `keep` and read
/// only those, not which die showed them: the Shields take away the rest.
///
/// Dice are read in rolled order. Until `keep` dice have been rolled every
/// face may be kept, so each counts; after that a face at or over the
/// highest kept so far changes nothing that is kept (it is taken away, or
/// replaces an equal face), so those faces are one outcome.
pub fn lowest_kept(
    dice: &mut dyn Dice,
    count: u32,
    die: Die,
    keep: u32,
) -> Result<Faces, DiceError> {
    check_size(count)?;
    let mut faces = Faces::new();
    // The lowest `keep` faces so far, ascending.
    let mut kept = Faces::new();
    for _ in 0..count {
        let face = if kept.len() < keep as usize {
            dice.roll(die)?
        } else {
            // With nothing kept, no face matters: every face is one outcome.
            let top = kept.last().copied().unwrap_or(1);
            die_by_class(dice, die, |face| face.min(top))?
        };
        faces.push(face);
        if keep > 0 {
            let at = kept.partition_point(|&k| k <= face);
            if kept.len() < keep as usize {
                kept.insert(at, face);
            } else if at < kept.len() {
                kept.pop();
                kept.insert(at, face);
            }
        }
    }
    Ok(faces)
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
        let faces = lowest_kept(&mut dice, 5, Die::D6, 2).unwrap();
        assert_eq!(faces.as_slice(), [6, 1, 4, 4, 2]);
        let faces = dice_by_outcome(&mut dice, 2, Die::D6, |f| f[0] + f[1] >= 7).unwrap();
        assert_eq!(faces.as_slice(), [5, 3]);
        assert!(dice.remaining().is_empty());
    }

    #[test]
    fn the_lowest_kept_weigh_as_every_face_would() {
        // Five dice keeping the lowest two, against counting all 7776 rolls.
        let mut counted = std::collections::BTreeMap::new();
        for roll in 0..6u32.pow(5) {
            let mut faces: Vec<u32> = (0..5).map(|i| roll / 6u32.pow(i) % 6 + 1).collect();
            faces.sort_unstable();
            *counted.entry([faces[0], faces[1]]).or_insert(0u128) += 1;
        }
        let (exact, paths) = enumerate(1_000_000, |dice| {
            let mut kept = lowest_kept(dice, 5, Die::D6, 2)?;
            kept.sort_unstable();
            Ok([kept[0], kept[1]])
        })
        .unwrap();
        assert!(paths < 7776 / 4, "{paths} paths");
        assert_eq!(exact.len(), counted.len());
        for (kept, ways) in counted {
            assert_eq!(exact[&kept], Prob::new(ways, 7776), "{kept:?}");
        }
    }

    #[test]
    fn a_small_pool_branches_on_its_outcome() {
        // 2d6 at or over 9: 10 of 36.
        let (exact, paths) = enumerate(100, |dice| {
            let faces = dice_by_outcome(dice, 2, Die::D6, |f| f[0] + f[1] >= 9)?;
            Ok(faces[0] + faces[1] >= 9)
        })
        .unwrap();
        assert_eq!(exact[&true], Prob::new(10, 36));
        // The first die: 1-2 never reach 9 and each of 3-6 its own way.
        assert_eq!(paths, 1 + 4 * 2);
    }
}
