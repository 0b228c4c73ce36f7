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

/// The most dice a small pool has.
const SMALL: usize = 8;

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
    if !dice.enumerates()
        || count as usize > SMALL
        || completions.is_none_or(|n| n > MOST_COMPLETIONS)
    {
        for _ in 0..count {
            faces.push(dice.roll(die)?);
        }
        return Ok(faces);
    }
    let count = count as usize;
    let (mut low, mut high) = ([1u32; SMALL], [1u32; SMALL]);
    for at in 0..count {
        low[..at].copy_from_slice(&faces);
        high[..at].copy_from_slice(&faces);
        // Two faces are alike when every way the later dice can fall gives
        // the same outcome after either.
        let alike = |face: u32| -> bool {
            low[at] = face;
            high[at] = face + 1;
            low[at + 1..count].fill(1);
            high[at + 1..count].fill(1);
            loop {
                if outcome(&low[..count]) != outcome(&high[..count]) {
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

/// How the rules read one kept die.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Read {
    /// Its face.
    Face,
    /// Only whether its face is at least this.
    AtLeast(u32),
    /// Nothing: it does the same whatever it shows.
    Nothing,
}

/// Rolls `count` dice of which the rules keep the lowest `ranks.len()` and
/// read those as `ranks` says, highest kept first; the Shields take away
/// the rest. What is read is what was kept, not which die showed it.
///
/// Dice are read in rolled order, each only as far as it can still change
/// what is read. When the highest kept dice are read as faces and the rest
/// only against one number (a lane of modules shorter than the dice kept),
/// what is read is the faces in the window of the highest kept, and how many
/// dice in all fall under the number (up to the number of lower kept dice).
/// So the state that counts after each die is that count and the lowest
/// dice so far that may still end in the window: a die at a place from
/// which the dice still to come cannot lift it into the window counts only
/// towards the number under, and a face at or over the highest kept so far
/// changes nothing kept. Any other pattern of ranks is read as faces
/// throughout, which is exact if coarser than need be.
pub fn lowest_kept(
    dice: &mut dyn Dice,
    count: u32,
    die: Die,
    ranks: &[Read],
) -> Result<Faces, DiceError> {
    check_size(count)?;
    let keep = ranks.len().min(count as usize);
    let mut faces = Faces::new();
    if !dice.enumerates() {
        // Faces rolled one by one are the faces any reading would consume.
        for _ in 0..count {
            faces.push(dice.roll(die)?);
        }
        return Ok(faces);
    }
    if ranks.iter().all(|&r| r == Read::Nothing) {
        for _ in 0..count {
            faces.push(die_by_class(dice, die, |_| ())?);
        }
        return Ok(faces);
    }
    // The window of dice read as faces (the highest kept), the number the
    // lower kept dice are read against, and how many lower kept dice there
    // are.
    let window = ranks.iter().take_while(|&&r| r == Read::Face).count();
    let (window, under, bottom) = match ranks.get(window) {
        Some(&Read::AtLeast(at_least))
            if ranks[window..]
                .iter()
                .all(|&r| r == Read::AtLeast(at_least)) =>
        {
            (window.min(keep), at_least, keep - window.min(keep))
        }
        None => (keep, 0, 0),
        Some(_) => (keep, 0, 0),
    };
    if die.sides() > u32::from(u8::MAX) {
        for _ in 0..count {
            faces.push(dice.roll(die)?);
        }
        return Ok(faces);
    }
    // The lowest `keep` faces so far, ascending (they fit a byte: the die
    // has at most 255 faces), and how many dice in all fell under the
    // number.
    let mut kept: ArrayVec<u8, { Pool::CAPACITY }> = ArrayVec::new();
    let mut low = 0usize;
    let with = |kept: &mut ArrayVec<u8, { Pool::CAPACITY }>, face: u8| {
        let at = kept.partition_point(|&k| k <= face);
        if kept.len() < keep {
            kept.insert(at, face);
        } else if at < kept.len() {
            kept.pop();
            kept.insert(at, face);
        }
    };
    for rolled in 0..count as usize {
        let later = count as usize - rolled - 1;
        let after = |face: u32| -> (usize, ArrayVec<u8, { Pool::CAPACITY }>) {
            let mut next = kept.clone();
            with(&mut next, face as u8);
            let low = (low + usize::from(face < under)).min(bottom);
            // Only the dice at places the dice to come can still lift into
            // the window keep their faces.
            let from = if window == 0 {
                next.len()
            } else {
                bottom.saturating_sub(later).min(next.len())
            };
            next.drain(..from);
            (low, next)
        };
        let face = die_by_class(dice, die, after)?;
        faces.push(face);
        with(&mut kept, face as u8);
        low += usize::from(face < under);
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
        let faces = lowest_kept(&mut dice, 5, Die::D6, &[Read::Face; 2]).unwrap();
        assert_eq!(faces.as_slice(), [6, 1, 4, 4, 2]);
        let faces = dice_by_outcome(&mut dice, 2, Die::D6, |f| f[0] + f[1] >= 7).unwrap();
        assert_eq!(faces.as_slice(), [5, 3]);
        assert!(dice.remaining().is_empty());
    }

    /// What `ranks` read of a roll, by counting: the lowest kept faces,
    /// highest first, each as its rank reads it.
    fn read_as(faces: &[u32], ranks: &[Read]) -> Vec<Option<u32>> {
        let mut sorted = faces.to_vec();
        sorted.sort_unstable();
        sorted.truncate(ranks.len());
        sorted.reverse();
        sorted
            .iter()
            .zip(ranks)
            .map(|(&face, rank)| match rank {
                Read::Face => Some(face),
                Read::AtLeast(at) => Some(u32::from(face >= *at)),
                Read::Nothing => None,
            })
            .collect()
    }

    #[test]
    fn the_lowest_kept_weigh_as_every_face_would() {
        use Read::{AtLeast, Face, Nothing};
        // Each case with the most paths its reading may take: every roll
        // when all dice are kept as faces, far fewer otherwise.
        let cases: [(u32, &[Read], u64); 8] = [
            (5, &[Face, Face], 1792),
            (6, &[Face, Face, AtLeast(4), AtLeast(4)], 19293),
            (6, &[Face, AtLeast(4), AtLeast(4)], 8618),
            (6, &[AtLeast(4), AtLeast(4), AtLeast(4)], 42),
            (5, &[Face, AtLeast(4), Face], 4480),
            (4, &[Face; 4], 1296),
            (6, &[Face, Face, Face], 16359),
            (4, &[Nothing, Nothing], 1),
        ];
        for (count, ranks, most) in cases {
            let rolls = 6u32.pow(count);
            let mut counted = std::collections::BTreeMap::new();
            for roll in 0..rolls {
                let faces: Vec<u32> = (0..count).map(|i| roll / 6u32.pow(i) % 6 + 1).collect();
                *counted.entry(read_as(&faces, ranks)).or_insert(0u128) += 1;
            }
            let (exact, paths) = enumerate(u64::from(rolls), |dice| {
                let faces = lowest_kept(dice, count, Die::D6, ranks)?;
                Ok(read_as(&faces, ranks))
            })
            .unwrap();
            assert!(paths <= most, "{ranks:?}: {paths} paths");
            assert_eq!(exact.len(), counted.len(), "{ranks:?}");
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
            Ok(faces[0] + faces[1] >= 9)
        })
        .unwrap();
        assert_eq!(exact[&true], Prob::new(10, 36));
        // The first die: 1-2 never reach 9 and each of 3-6 its own way.
        assert_eq!(paths, 1 + 4 * 2);
    }
}
