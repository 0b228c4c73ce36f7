//! A rule system's data files, embedded at build time from a folder beside its crate.

/// The `(name, text)` pairs of a system's data files, read at build time for
/// [`System::EMBEDDED`](broadside_core::kit::System::EMBEDDED): a folder
/// relative to the calling crate's manifest, then the files' names.
///
/// ```text
/// const EMBEDDED: &'static [(&'static str, &'static str)] =
///     broadside_data::embed!("../../rulesets/percentile": "weapons.toml", "ships.toml");
/// ```
#[macro_export]
macro_rules! embed {
    ($folder:literal: $($name:literal),+ $(,)?) => {
        &[$((
            $name,
            include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/", $folder, "/", $name)),
        )),+]
    };
}
