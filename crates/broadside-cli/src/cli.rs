//! The command line: built with clap's builder, because each rule system
//! declares its own options as data and `resolve` and `battle` grow one
//! subcommand per registered system.

use broadside_core::{OptionKind, OptionSpec, OptionValue, Options, Ruleset};
use clap::{Arg, ArgAction, ArgMatches, Command, value_parser};

/// Default number of trials for `battle` and `compare` (also the flag's default below).
pub const DEFAULT_TRIALS: u64 = 10_000;
/// Default turn limit for `battle` and `compare`.
pub const DEFAULT_MAX_TURNS: u32 = 50;

fn format_arg(formats: &'static [&'static str]) -> Arg {
    Arg::new("format")
        .long("format")
        .value_name("FORMAT")
        .value_parser(formats.to_vec())
        .default_value("text")
        .help("output format")
}

fn rules_arg() -> Arg {
    Arg::new("rules")
        .long("rules")
        .value_name("DIR")
        .help("read the system's data from DIR instead of the built-in data of record")
}

fn seed_arg() -> Arg {
    Arg::new("seed")
        .long("seed")
        .value_name("S")
        .value_parser(value_parser!(u64))
        .help("seed for the dice (printed in every report; random if not given)")
}

fn system_args(specs: &[OptionSpec]) -> Vec<Arg> {
    prefixed_args("", specs, "")
}

/// Side options as flags: `--a-mines` and `--b-mines` for a side option
/// `mines`.
fn side_args(specs: &[OptionSpec]) -> Vec<Arg> {
    let mut args = prefixed_args("a-", specs, "side A: ");
    args.extend(prefixed_args("b-", specs, "side B: "));
    args
}

fn prefixed_args(prefix: &str, specs: &[OptionSpec], help: &str) -> Vec<Arg> {
    specs
        .iter()
        .map(|spec| {
            let name = format!("{prefix}{}", spec.name);
            let arg = Arg::new(name.clone())
                .long(name)
                .help(format!("{help}{}", spec.help))
                // A side's set-up is never required: a side may take the
                // system's default.
                .required(spec.required && prefix.is_empty());
            match spec.kind {
                OptionKind::Flag => arg.action(ArgAction::SetTrue),
                OptionKind::Number { min, max } => arg
                    .value_name(spec.value_name)
                    .allow_negative_numbers(true)
                    .value_parser(value_parser!(i64).range(min..=max)),
                OptionKind::Choice(choices) => arg
                    .value_name(spec.value_name)
                    .value_parser(choices.to_vec()),
                OptionKind::Text => arg.value_name(spec.value_name),
            }
        })
        .collect()
}

/// The system options given on the command line.
pub fn system_options(matches: &ArgMatches, specs: &[OptionSpec]) -> Options {
    prefixed_options(matches, "", specs)
}

/// One side's set-up given on the command line (`--a-mines 2`), by the
/// side option's own name (`mines`).
pub fn side_options(matches: &ArgMatches, prefix: &str, specs: &[OptionSpec]) -> Options {
    prefixed_options(matches, prefix, specs)
}

fn prefixed_options(matches: &ArgMatches, prefix: &str, specs: &[OptionSpec]) -> Options {
    let mut options = Options::new();
    for spec in specs {
        let id = format!("{prefix}{}", spec.name);
        match spec.kind {
            OptionKind::Flag => {
                if matches.get_flag(&id) {
                    options.set(spec.name, OptionValue::Flag);
                }
            }
            OptionKind::Number { .. } => {
                if let Some(&n) = matches.get_one::<i64>(&id) {
                    options.set(spec.name, OptionValue::Number(n));
                }
            }
            OptionKind::Choice(_) | OptionKind::Text => {
                if let Some(text) = matches.get_one::<String>(&id) {
                    options.set(spec.name, OptionValue::Text(text.clone()));
                }
            }
        }
    }
    options
}

/// The whole command, with one `resolve` and `battle` subcommand per system.
pub fn command(systems: &[Box<dyn Ruleset>]) -> Command {
    let mut resolve = Command::new("resolve")
        .about("Resolve one attack exactly as the rulebook does, every roll shown")
        .subcommand_required(true);
    let mut battle = Command::new("battle")
        .visible_alias("duel")
        .about("Play a battle between two fleets many times and report the odds")
        .subcommand_required(true);
    let system_ids: Vec<&'static str> = systems.iter().map(|s| s.id()).collect();
    for system in systems {
        resolve = resolve.subcommand(
            Command::new(system.id())
                .about(system.title())
                .arg(
                    Arg::new("attacker")
                        .long("attacker")
                        .value_name("A")
                        .required(true)
                        .help("the attacking ship"),
                )
                .arg(
                    Arg::new("target")
                        .long("target")
                        .value_name("T")
                        .required(true)
                        .help("the target ship"),
                )
                .args(system_args(system.resolve_options()))
                .arg(seed_arg().conflicts_with_all(["dice", "exact"]))
                .arg(
                    Arg::new("exact")
                        .long("exact")
                        .action(ArgAction::SetTrue)
                        .conflicts_with_all(["dice", "explain"])
                        .help("print the exact distribution of the attack's outcomes, over every roll of its dice"),
                )
                .arg(
                    Arg::new("dice")
                        .long("dice")
                        .value_name("D,D,...")
                        .value_delimiter(',')
                        .value_parser(value_parser!(u32))
                        .help("scripted dice, in the order the rules roll them"),
                )
                .arg(
                    Arg::new("explain")
                        .long("explain")
                        .action(ArgAction::SetTrue)
                        .help("print every roll, modifier and table row"),
                )
                .arg(format_arg(&["text", "json"]))
                .arg(rules_arg()),
        );
        battle = battle.subcommand(
            Command::new(system.id())
                .about(system.title())
                .arg(
                    Arg::new("a")
                        .value_name("SIDE-A")
                        .required_unless_present("scenario")
                        .help("side A: ship ids separated by commas, each with an optional count (3xfrigate,destroyer)"),
                )
                .arg(
                    Arg::new("b")
                        .value_name("SIDE-B")
                        .required_unless_present("scenario")
                        .help("side B, written as side A"),
                )
                .arg(
                    Arg::new("scenario")
                        .long("scenario")
                        .value_name("FILE")
                        .conflicts_with_all(["a", "b"])
                        .help("take the sides and set-up from this system's section of a scenario file"),
                )
                .args(system_args(system.battle_options()))
                .args(side_args(system.side_options()))
                .arg(trials_arg())
                .arg(seed_arg())
                .arg(max_turns_arg())
                .arg(
                    Arg::new("replay")
                        .long("replay")
                        .value_name("K")
                        .value_parser(value_parser!(u64))
                        .help("print the full event log of trial K of the run instead of the odds"),
                )
                .arg(
                    Arg::new("exact")
                        .long("exact")
                        .action(ArgAction::SetTrue)
                        .conflicts_with_all(["replay", "seed"])
                        .help("compute the exact odds over every roll of the dice, merging equal states, instead of sampling trials"),
                )
                .arg(
                    Arg::new("max-states")
                        .long("max-states")
                        .value_name("N")
                        .value_parser(value_parser!(u64).range(1..=10_000_000))
                        .default_value("200000")
                        .requires("exact")
                        .help("with --exact: the most distinct states kept between phases; the least likely beyond it are dropped and their mass reported"),
                )
                .arg(format_arg(&["text", "json", "csv", "markdown", "html"]))
                .arg(rules_arg()),
        );
    }
    Command::new("broadside")
        .about("Resolve tabletop starship combat under several published rule systems")
        .version(env!("CARGO_PKG_VERSION"))
        .subcommand_required(true)
        .arg_required_else_help(true)
        .subcommand(
            Command::new("systems")
                .about("List the rule systems")
                .arg(format_arg(&["text", "json"])),
        )
        .subcommand(
            Command::new("ships")
                .about("List a system's ships and their statistics")
                .arg(
                    Arg::new("system")
                        .required(true)
                        .value_parser(system_ids.clone()),
                )
                .arg(format_arg(&["text", "json"]))
                .arg(rules_arg()),
        )
        .subcommand(
            Command::new("table")
                .about("Print a table of a system's data, or one cell of it")
                .arg(Arg::new("system").required(true).value_parser(system_ids))
                .arg(Arg::new("table").help("the table's id; all tables are listed if omitted"))
                .arg(
                    Arg::new("row")
                        .allow_negative_numbers(true)
                        .help("a row label, or a roll that falls in a row's range"),
                )
                .arg(Arg::new("column").help("a column header"))
                .arg(format_arg(&["text", "json"]))
                .arg(rules_arg()),
        )
        .subcommand(resolve)
        .subcommand(battle)
        .subcommand(
            Command::new("compare")
                .about("Play one battle under every system and print a row for each")
                .arg(
                    Arg::new("scenario")
                        .value_name("SCENARIO")
                        .help("a scenario file (TOML); the built-in default if omitted"),
                )
                .arg(trials_arg())
                .arg(seed_arg())
                .arg(max_turns_arg())
                .arg(format_arg(&["text", "json", "csv", "markdown", "html"])),
        )
}

fn trials_arg() -> Arg {
    Arg::new("trials")
        .long("trials")
        .value_name("N")
        .value_parser(value_parser!(u64).range(1..=100_000_000))
        .default_value("10000")
        .help("trials to play")
}

fn max_turns_arg() -> Arg {
    Arg::new("max-turns")
        .long("max-turns")
        .value_name("T")
        .value_parser(value_parser!(u32).range(1..=10_000))
        .default_value("50")
        .help("game turns after which an engagement is undecided")
}
