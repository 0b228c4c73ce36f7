//! A rule system's data of record, embedded at build time from `rulesets/<system>/`.

/// The `(name, text)` pairs of a system's data files, read at build time
/// from the workspace's `rulesets/<system>/` folder, for a
/// [`Registration`](broadside_core::Registration)'s `embedded` list:
/// `embedded!("percentile", "weapons.toml", "ships.toml")`.
///
/// The path is built from the calling crate's manifest folder, so the macro
/// serves any crate two folders below the workspace root.
#[macro_export]
macro_rules! embedded {
    ($system:literal $(, $file:literal)+ $(,)?) => {
        &[$((
            $file,
            include_str!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../rulesets/",
                $system,
                "/",
                $file
            )),
        )),+]
    };
}
