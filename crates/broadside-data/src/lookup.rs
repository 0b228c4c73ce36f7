//! Finding a rule system's entries (weapons, ship classes) by their ids.

/// The index of the entry whose id (given by `id_of`) is `id`, as the
/// system's small index type; `None` when no entry has it, or when the
/// index does not fit (validation refuses data that long).
pub fn index_of<T, I: TryFrom<usize>>(
    entries: &[T],
    id: &str,
    id_of: impl Fn(&T) -> &str,
) -> Option<I> {
    entries
        .iter()
        .position(|entry| id_of(entry) == id)
        .and_then(|i| I::try_from(i).ok())
}

/// The look-ups of a system's validated rules, for each list of entries
/// with an `id` field: a method from an id (`"laser"`) to the entry's
/// small index type, and one from that index to the entry.
///
/// ```text
/// broadside_data::lookups!(Rules {
///     weapons[WeaponId] -> Weapon: weapon_id, weapon;
///     ships[ClassId] -> ShipClass: class_id, class;
/// });
/// ```
#[macro_export]
macro_rules! lookups {
    ($rules:ty { $($field:ident[$index:ty] -> $entry:ty: $by_id:ident, $at:ident;)+ }) => {
        impl $rules {
            $(
                #[doc = concat!("The index of the entry of `", stringify!($field), "` with this id.")]
                pub fn $by_id(&self, id: &str) -> Option<$index> {
                    $crate::index_of(&self.$field, id, |entry| entry.id.as_str())
                }

                #[doc = concat!("The entry of `", stringify!($field), "` at this index.")]
                pub fn $at(&self, index: $index) -> &$entry {
                    &self.$field[usize::from(index)]
                }
            )+
        }
    };
}

#[cfg(test)]
mod tests {
    use super::index_of;

    struct Entry {
        id: String,
    }

    struct Rules {
        entries: Vec<Entry>,
    }

    crate::lookups!(Rules {
        entries[u8] -> Entry: entry_id, entry;
    });

    #[test]
    fn an_entry_is_found_by_its_id_and_index() {
        let rules = Rules {
            entries: vec![
                Entry { id: "laser".into() },
                Entry {
                    id: "torpedo".into(),
                },
            ],
        };
        assert_eq!(rules.entry_id("torpedo"), Some(1));
        assert_eq!(rules.entry_id("lazer"), None);
        assert_eq!(rules.entry(1).id, "torpedo");
        // An index past the index type's range is no entry.
        let ids: Vec<String> = (0..300).map(|i| i.to_string()).collect();
        assert_eq!(index_of::<_, u8>(&ids, "255", |id| id.as_str()), Some(255));
        assert_eq!(index_of::<_, u8>(&ids, "256", |id| id.as_str()), None);
    }
}
