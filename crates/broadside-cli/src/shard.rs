//! Shards of a run: `--shard I/N` plays every N-th trial of a run from trial I and writes its tallies as JSON; `merge` adds the shards' tallies and reports them exactly as the whole run would.
//!
//! A shard file records the command that made it (without `--shard`, the
//! output format and the thread count), so
//! `merge` sets the battles up again from the same arguments and renders
//! the report through the same code as an unsharded run.

use broadside_core::{Shard, Tally};
use serde::{Deserialize, Serialize};

use crate::Failure;

/// The layout of a shard file; bumped when it changes.
const SHARD_SCHEMA: u32 = 1;

/// What a shard file holds.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShardFile {
    /// Always `broadside-shard`, so another JSON file is told apart.
    kind: String,
    /// [`SHARD_SCHEMA`] when written.
    schema_version: u32,
    /// The program that played it: shards of different versions may play
    /// the same trial differently, so they are not merged.
    broadside_version: String,
    /// The command's arguments after the program name, as `merge` replays
    /// them.
    pub args: Vec<String>,
    /// Which share of the trials this is.
    pub shard: Shard,
    /// One tally per battle of the command, in the order it plays them.
    pub tallies: Vec<Tally>,
}

/// The options that change how a run is carried out or printed, not what it
/// plays: left out of a shard's recorded command.
const NOT_RECORDED: [(&str, Option<&str>); 3] = [
    ("--shard", None),
    ("--format", Some("-f")),
    ("--threads", Some("-j")),
];

/// The command line of this process as a shard records it: without the
/// options that do not change what is played. Every shard is given its seed
/// (on the command line or in its scenario), so none is added.
pub fn recorded_args() -> Vec<String> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut kept = Vec::with_capacity(args.len());
    let mut drained = args.drain(..);
    while let Some(arg) = drained.next() {
        let takes_value = NOT_RECORDED.iter().find_map(|&(long, short)| {
            if arg == long || Some(arg.as_str()) == short {
                Some(true)
            } else if arg.starts_with(&format!("{long}="))
                || short.is_some_and(|s| arg.starts_with(s) && arg.len() > s.len())
            {
                Some(false)
            } else {
                None
            }
        });
        match takes_value {
            Some(true) => {
                drained.next();
            }
            Some(false) => {}
            None => kept.push(arg),
        }
    }
    kept
}

/// A shard's file contents, as pretty JSON.
pub fn to_json(args: Vec<String>, shard: Shard, tallies: Vec<Tally>) -> Result<String, Failure> {
    let file = ShardFile {
        kind: "broadside-shard".into(),
        schema_version: SHARD_SCHEMA,
        broadside_version: env!("CARGO_PKG_VERSION").into(),
        args,
        shard,
        tallies,
    };
    serde_json::to_string_pretty(&file).map_err(|e| Failure::Internal(e.to_string()))
}

/// Reads shard files and checks they are the shards of one run: the same
/// command, version and shard count, each shard once, none missing. Returns
/// the command and each battle's tally summed over the shards.
pub fn read_all(paths: &[String]) -> Result<(Vec<String>, Vec<Tally>), Failure> {
    let mut files: Vec<(String, ShardFile)> = Vec::with_capacity(paths.len());
    for path in paths {
        let text = std::fs::read_to_string(path)
            .map_err(|e| Failure::Input(format!("cannot read shard {path}: {e}")))?;
        let file: ShardFile = serde_json::from_str(&text).map_err(|e| {
            Failure::Input(crate::one_line(&format!(
                "shard {path}: not a shard file: {e}"
            )))
        })?;
        if file.kind != "broadside-shard" || file.schema_version != SHARD_SCHEMA {
            return Err(Failure::Input(format!(
                "shard {path}: not a shard file of this layout (kind broadside-shard, schema {SHARD_SCHEMA})"
            )));
        }
        for tally in &file.tallies {
            tally
                .check_counts()
                .map_err(|e| Failure::Input(format!("shard {path}: its tally is broken: {e}")))?;
        }
        files.push((path.clone(), file));
    }
    let Some((first_path, first)) = files.first() else {
        return Err(Failure::Input("merge needs at least one shard file".into()));
    };
    let count = first.shard.count;
    let mut seen = vec![None::<&str>; usize::try_from(count).unwrap_or(usize::MAX).min(1 << 20)];
    for (path, file) in &files {
        let differs = |what: &str| {
            Failure::Input(format!(
                "shard {path} is not of the same run as {first_path}: its {what} differs"
            ))
        };
        if file.args != first.args {
            return Err(differs("command"));
        }
        if file.broadside_version != first.broadside_version {
            return Err(differs("program version"));
        }
        if file.shard.count != count || Shard::new(file.shard.index, count).is_none() {
            return Err(differs("shard count"));
        }
        if file.tallies.len() != first.tallies.len() {
            return Err(differs("number of battles"));
        }
        let slot = usize::try_from(file.shard.index)
            .ok()
            .and_then(|i| seen.get_mut(i))
            .ok_or_else(|| Failure::Input(format!("shard {path}: {count} shards is too many")))?;
        if let Some(other) = slot.replace(path.as_str()) {
            return Err(Failure::Input(format!(
                "shard {} of {count} is given twice: {other} and {path}",
                file.shard.index
            )));
        }
    }
    let missing: Vec<String> = seen
        .iter()
        .enumerate()
        .filter(|(_, path)| path.is_none())
        .map(|(i, _)| i.to_string())
        .collect();
    if !missing.is_empty() {
        return Err(Failure::Input(format!(
            "the run has {count} shards and these are missing: {}",
            missing.join(", ")
        )));
    }
    let args = first.args.clone();
    let battles = first.tallies.len();
    let mut merged = vec![Tally::default(); battles];
    for (_, file) in files {
        for (sum, tally) in merged.iter_mut().zip(file.tallies) {
            *sum = std::mem::take(sum).merge(tally);
        }
    }
    Ok((args, merged))
}

/// `I/N` as a shard: I from 0, below N.
pub fn parse(text: &str) -> Result<Shard, String> {
    let bad = || format!("'{text}' is not I/N with I from 0 to N-1 (for example 0/4)");
    let (index, count) = text.split_once('/').ok_or_else(bad)?;
    let index: u64 = index.trim().parse().map_err(|_| bad())?;
    let count: u64 = count.trim().parse().map_err(|_| bad())?;
    if count > 1 << 20 {
        return Err(format!("{count} shards is too many (at most {})", 1 << 20));
    }
    Shard::new(index, count).ok_or_else(bad)
}
