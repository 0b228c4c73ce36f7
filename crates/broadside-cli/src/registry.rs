//! The one list of rule systems the binary knows.
//!
//! Adding a system is one line here; the test below checks that every
//! ruleset crate of the workspace is listed and has its data folder.

use broadside_core::Registration;

/// Every registered rule system, in the order `compare` prints them.
pub const RULESETS: &[Registration] = &[
    broadside_percentile::REGISTRATION,
    broadside_action_d10::REGISTRATION,
    broadside_module_grid::REGISTRATION,
    broadside_crew_2d6::REGISTRATION,
];

/// The registration with this id.
pub fn find(id: &str) -> Option<&'static Registration> {
    RULESETS.iter().find(|r| r.id == id)
}

/// The registered ids, comma-separated, for messages.
pub fn known() -> String {
    RULESETS.iter().map(|r| r.id).collect::<Vec<_>>().join(", ")
}

/// The error for a system id that is not registered, suggesting the one
/// most like it.
pub fn unknown(id: &str) -> broadside_core::ResolveError {
    broadside_core::ResolveError::unknown("system", id, RULESETS.iter().map(|r| r.id))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn every_ruleset_crate_is_registered_and_has_its_data() {
        let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let workspace = crates.join("..");
        let mut unregistered = Vec::new();
        for entry in std::fs::read_dir(&crates).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            let Some(id) = name.strip_prefix("broadside-") else {
                continue;
            };
            // The crates every system shares, and the front end.
            if matches!(id, "core" | "data" | "cli") {
                continue;
            }
            if find(id).is_none() {
                unregistered.push(id.to_owned());
            }
        }
        assert!(
            unregistered.is_empty(),
            "ruleset crates not in RULESETS: {unregistered:?}"
        );
        for registration in RULESETS {
            let folder = workspace.join("rulesets").join(registration.id);
            assert!(folder.is_dir(), "rulesets/{} is missing", registration.id);
            for (name, text) in registration.embedded {
                let on_disk = std::fs::read_to_string(folder.join(name)).unwrap();
                assert_eq!(
                    &on_disk, text,
                    "rulesets/{}/{name} differs from the embedded copy",
                    registration.id
                );
            }
            let loaded = registration.load_embedded();
            assert!(
                loaded.is_ok(),
                "{}: {}",
                registration.id,
                loaded.unwrap_err()
            );
            assert_eq!(loaded.unwrap().id(), registration.id);
        }
    }
}
