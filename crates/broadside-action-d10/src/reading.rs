//! How the rules read a die: each roll asks only for the classes of faces the rules go on to tell apart.
//!
//! Every function here consumes exactly the faces `Dice::roll` or
//! `Dice::pool` would, in the same order, and a seeded or scripted source
//! hands back the face it rolled, so play and logs are unchanged. What
//! differs is the question asked: faces next to each other that the rules
//! treat alike (every roll of 1-3 on `1d6-3` loses no remass, every face at
//! or over the target's cargo loses all of it) are asked for as one band, so
//! a source enumerating exact odds branches once per band and hands back the
//! band's highest face, which the rules read no further than its band.

use arrayvec::ArrayVec;
use broadside_core::{Dice, DiceError, DiceExpr, Die, EventSink};

/// The most bands one reading asks for; a die split finer is rolled face by
/// face, which an exact source enumerates the same way.
const MOST_BANDS: usize = 16;

/// Rolls one die of which the rules read only `class(face)`. Runs of
/// neighbouring faces in one class are one band; `class` must depend only on
/// the face and on what the rules already know.
pub(crate) fn die_by_class<K: PartialEq>(
    dice: &mut dyn Dice,
    die: Die,
    class: impl Fn(u32) -> K,
) -> Result<u32, DiceError> {
    if !dice.enumerates() {
        // A plain source rolls the same face whatever the bands: working
        // them out would be wasted.
        return dice.roll(die);
    }
    let sides = die.sides();
    let mut tops: ArrayVec<u32, MOST_BANDS> = ArrayVec::new();
    let mut previous = class(1);
    for face in 1..sides {
        let next = class(face + 1);
        if next != previous && tops.try_push(face).is_err() {
            return dice.roll(die);
        }
        previous = next;
    }
    if tops.len() + 1 == sides as usize {
        // Every face is its own class.
        return dice.roll(die);
    }
    dice.band(die, &tops)
}

/// Rolls one die again and again until `keep(class(face))`, of which the
/// rules read only `class(face)`: a "roll again" asked for as one call
/// (`Dice::band_until`), so an exact source branches once per kept class
/// instead of once per roll. Runs of neighbouring faces in one class are
/// one band, as for [`die_by_class`]; a die split into more bands than it
/// holds is rolled face by face, every face its own band.
pub(crate) fn die_by_class_until<K: PartialEq>(
    dice: &mut dyn Dice,
    die: Die,
    class: impl Fn(u32) -> K,
    keep: impl Fn(&K) -> bool,
) -> Result<u32, DiceError> {
    // Rare (a result the ship cannot take), so the bands may allocate.
    let mut tops = Vec::new();
    let mut kept = Vec::new();
    let mut previous = class(1);
    for face in 1..die.sides() {
        let next = class(face + 1);
        if next != previous {
            tops.push(face);
            kept.push(keep(&previous));
        }
        previous = next;
    }
    kept.push(keep(&previous));
    dice.band_until(die, &tops, &kept)
}

/// What a roll like `1d6-3` came to: the faces (when a log is kept) and the
/// total with the bonus, as rolled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Rolled {
    /// The faces, for the log: every die's face, or only the sum when no
    /// log is kept.
    pub faces: Vec<u32>,
    /// The sum of the faces plus the bonus; may be below zero.
    pub total: i32,
}

/// Rolls dice like `1d10` of which the rules read only `class(total)`,
/// where the total is the faces' sum plus the bonus. One die is read by the
/// classes of its totals; several are read by their sum alone, except when
/// a log is kept, which shows every face.
pub(crate) fn expr_by_class<K: PartialEq>(
    dice: &mut dyn Dice,
    expr: DiceExpr,
    sink: &dyn EventSink,
    class: impl Fn(i32) -> K,
) -> Result<Rolled, DiceError> {
    let with_bonus = |sum: u32| {
        i32::try_from(sum)
            .unwrap_or(i32::MAX)
            .saturating_add(expr.bonus)
    };
    if expr.count == 1 {
        let face = die_by_class(dice, expr.die, |face| class(with_bonus(face)))?;
        return Ok(Rolled {
            faces: vec![face],
            total: with_bonus(face),
        });
    }
    if sink.enabled() {
        let pool = dice.pool(expr.count, expr.die)?;
        return Ok(Rolled {
            faces: pool.to_vec(),
            total: with_bonus(pool.total()),
        });
    }
    let sum = dice.total(expr.count, expr.die)?;
    Ok(Rolled {
        faces: vec![sum],
        total: with_bonus(sum),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use broadside_core::exact::{Prob, enumerate};
    use broadside_core::{NullSink, ScriptedDice};

    #[test]
    fn scripted_faces_come_back_as_rolled() {
        let mut dice = ScriptedDice::new([2, 6, 4, 3, 5]);
        let expr: DiceExpr = "1d6-3".parse().unwrap();
        let sink = NullSink;
        let rolled = expr_by_class(&mut dice, expr, &sink, |t| t.max(0)).unwrap();
        assert_eq!(
            rolled,
            Rolled {
                faces: vec![2],
                total: -1
            }
        );
        assert_eq!(die_by_class(&mut dice, Die::D6, |f| f >= 5).unwrap(), 6);
        let two: DiceExpr = "2d6".parse().unwrap();
        let rolled = expr_by_class(&mut dice, two, &sink, |t| t).unwrap();
        assert_eq!(rolled.total, 7);
        assert_eq!(die_by_class(&mut dice, Die::D10, |f| f).unwrap(), 5);
        assert!(dice.remaining().is_empty());
    }

    #[test]
    fn a_clamped_roll_branches_once_per_value() {
        // 1d6-3, none below zero and at most 2: faces 1-3 lose 0, 4 loses
        // 1, 5-6 lose 2.
        let expr: DiceExpr = "1d6-3".parse().unwrap();
        let (odds, paths) = enumerate(100, |dice| {
            let rolled = expr_by_class(dice, expr, &NullSink, |t| t.clamp(0, 2))?;
            Ok(rolled.total.clamp(0, 2))
        })
        .unwrap();
        assert_eq!(paths, 3);
        assert_eq!(odds[&0], Prob::new(1, 2));
        assert_eq!(odds[&1], Prob::new(1, 6));
        assert_eq!(odds[&2], Prob::new(1, 3));
    }

    #[test]
    fn a_die_split_in_every_face_is_a_plain_roll() {
        let (_, paths) = enumerate(100, |dice| Ok(die_by_class(dice, Die::D10, |f| f)?)).unwrap();
        assert_eq!(paths, 10);
        let (odds, paths) =
            enumerate(100, |dice| Ok(die_by_class(dice, Die::D10, |_| ())?)).unwrap();
        assert_eq!(paths, 1);
        assert_eq!(odds.values().next(), Some(&Prob::new(1, 1)));
    }
}
