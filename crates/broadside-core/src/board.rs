//! The board an attack is resolved on: the ships in play and the names events give them.

use std::sync::Arc;

use crate::error::ResolveError;

/// The ships an attack is resolved among, with the names events use.
///
/// A system's ship type is `S`; its attacks name ships by their index here.
/// The names are shared, so copying a board for a new trial copies no text.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Board<S> {
    /// Every ship in play.
    pub ships: Vec<S>,
    /// How events name each ship, by the same index.
    pub names: Arc<[String]>,
}

impl<S> Board<S> {
    /// The ship at `index`; `what` names the declaration that asked for it
    /// (`"a blast"`) in the error when there is none. Front ends check the
    /// ships a user names, so a missing one is a fault of the caller.
    pub fn ship(&self, index: usize, what: &str) -> Result<&S, ResolveError> {
        self.ships.get(index).ok_or_else(|| missing(what))
    }

    /// The attacker and the target of an attack, as [`Board::ship`] finds
    /// each.
    pub fn pair(
        &self,
        attacker: usize,
        target: usize,
        what: &str,
    ) -> Result<(&S, &S), ResolveError> {
        Ok((self.ship(attacker, what)?, self.ship(target, what)?))
    }
}

fn missing(what: &str) -> ResolveError {
    ResolveError::Internal(format!("{what} names a ship not on the board"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board() -> Board<u8> {
        Board {
            ships: vec![7, 9],
            names: vec!["a".to_owned(), "b".to_owned()].into(),
        }
    }

    #[test]
    fn finds_ships_by_index_and_names_a_missing_one() {
        let board = board();
        assert_eq!(board.pair(1, 0, "attack").ok(), Some((&9, &7)));
        for (attacker, target) in [(2, 0), (0, 2)] {
            match board.pair(attacker, target, "a shot") {
                Err(ResolveError::Internal(text)) => {
                    assert_eq!(text, "a shot names a ship not on the board");
                }
                other => panic!("{attacker} at {target}: {other:?}"),
            }
        }
    }
}
