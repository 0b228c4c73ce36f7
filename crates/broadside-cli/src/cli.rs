//! The command line: built with clap's builder, because each rule system
//! declares its own options as data and `resolve` and `battle` grow one
//! subcommand per registered system.

use broadside_core::exact::{Prob, to_f64};
use broadside_core::{OptionKind, OptionSpec, OptionValue, Options, Ruleset};
use clap::{Arg, ArgAction, ArgMatches, Command, value_parser};

/// Default number of trials for `battle` and `compare` (also the flag's default below).
pub const DEFAULT_TRIALS: u64 = 10_000;
/// The outcomes `battle --find` looks for.
pub const FIND_OUTCOMES: [&str; 6] = [
    "a-wins",
    "b-wins",
    "draw",
    "undecided",
    "a-escapes",
    "b-escapes",
];

/// Default turn limit for `battle` and `compare`.
pub const DEFAULT_MAX_TURNS: u32 = 50;

fn format_arg(formats: &'static [&'static str]) -> Arg {
    Arg::new("format")
        .short('f')
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
        .help("read the system's data files from DIR over the built-in data of record (a folder with only ships.toml works)")
}

fn seed_arg() -> Arg {
    Arg::new("seed")
        .short('s')
        .long("seed")
        // `--seed -1` is a bad seed, not an unknown flag `-1`.
        .allow_negative_numbers(true)
        .value_name("S")
        .value_parser(whole_number)
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

/// The names an option is also known by, under one naming policy for every
/// system: `defence` and `defense`, `armour` and `armor` are both accepted
/// (the rules notes write the British spelling, some ids the American), and
/// the concept names the other systems use: `--range` for crew-2d6's
/// `--range-band` and `--start-range` for its `--start-band`. An alias is
/// offered only where no option of the system already has that name.
pub fn aliases(name: &str, specs: &[OptionSpec]) -> Vec<String> {
    let spellings = [
        ("defense", "defence"),
        ("defence", "defense"),
        ("armour", "armor"),
        ("armor", "armour"),
    ];
    let concepts = [("range-band", "range"), ("start-band", "start-range")];
    let mut names: Vec<String> = spellings
        .iter()
        .filter(|(from, _)| name.contains(from))
        .map(|(from, to)| name.replace(from, to))
        .chain(
            concepts
                .iter()
                .filter(|(from, _)| name == *from)
                .map(|(_, to)| (*to).to_owned()),
        )
        .collect();
    names.retain(|alias| alias != name && specs.iter().all(|spec| spec.name != alias));
    names
}

/// The option a name means, under [`aliases`]: its spec's own name.
pub fn canonical<'a>(name: &str, specs: &'a [OptionSpec]) -> Option<&'a str> {
    specs
        .iter()
        .find(|spec| spec.name == name || aliases(spec.name, specs).iter().any(|a| a == name))
        .map(|spec| spec.name)
}

fn prefixed_args(prefix: &str, specs: &[OptionSpec], help: &str) -> Vec<Arg> {
    specs
        .iter()
        .map(|spec| {
            let name = format!("{prefix}{}", spec.name);
            let also: Vec<String> = aliases(spec.name, specs)
                .into_iter()
                .map(|alias| format!("{prefix}{alias}"))
                .collect();
            let arg = Arg::new(name.clone())
                .long(name)
                .visible_aliases(also)
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

/// How `resolve` and `battle` present their one subcommand per system: as
/// systems, not commands, and with no `help` among them.
trait SystemsAsSubcommands {
    fn systems_as_subcommands(self) -> Self;
}

impl SystemsAsSubcommands for Command {
    fn systems_as_subcommands(self) -> Command {
        self.subcommand_required(true)
            .arg_required_else_help(true)
            .subcommand_value_name("SYSTEM")
            .subcommand_help_heading("Systems")
            .disable_help_subcommand(true)
    }
}

/// The whole command, with one `resolve` and `battle` subcommand per system.
pub fn command(systems: &[Box<dyn Ruleset>]) -> Command {
    let mut resolve = Command::new("resolve")
        .about("Resolve one attack exactly as the rulebook does, every roll shown")
        .systems_as_subcommands();
    let mut battle = Command::new("battle")
        .visible_alias("duel")
        .about("Play a battle between two fleets many times and report the odds")
        .systems_as_subcommands()
        // `battle --scenario FILE` plays every system's battle of the file.
        .subcommand_required(false)
        .args_conflicts_with_subcommands(true)
        .arg(
            Arg::new("scenario")
                .long("scenario")
                .value_name("FILE")
                .help("play every system's battle of a scenario file (- reads standard input), as compare does"),
        )
        .args(run_args());
    let system_ids: Vec<&'static str> = systems.iter().map(|s| s.id()).collect();
    let system_ids_for_rules = system_ids.clone();
    let mut sweep = Command::new("sweep")
        .about("Play every ship against every ship, or one battle over a range of an option, as a table")
        .systems_as_subcommands();
    for system in systems {
        // The ids a newcomer would otherwise look up with `ships` first.
        let ids: Vec<String> = system.ships().iter().map(|s| s.id().to_owned()).collect();
        let ship_list = format!("Ships: {}", ids.join(", "));
        let numbers: Vec<&'static str> = system
            .battle_options()
            .iter()
            .filter(|spec| matches!(spec.kind, OptionKind::Number { .. }))
            .map(|spec| spec.name)
            .collect();
        let vary_help = if numbers.is_empty() {
            "NAME=FROM..TO: play A against B with a number option at each value from FROM to TO (this system has none)".to_owned()
        } else {
            format!(
                "NAME=FROM..TO: play A against B with a number option at each value from FROM to TO ({})",
                numbers.join(", ")
            )
        };
        sweep = sweep.subcommand(
            Command::new(system.id())
                .about(system.title())
                .after_help(ship_list.clone())
                .arg(
                    Arg::new("a")
                        .value_name("SIDE-A")
                        .requires("b")
                        .help("side A, with --vary"),
                )
                .arg(Arg::new("b").value_name("SIDE-B").help("side B, with --vary"))
                .arg(
                    Arg::new("ships")
                        .long("ships")
                        .value_name("IDS")
                        .value_delimiter(',')
                        .conflicts_with_all(["vary", "a"])
                        .help("the ships to play against each other, separated by commas (default: every ship)"),
                )
                .arg(
                    Arg::new("vary")
                        .long("vary")
                        .value_name("NAME=FROM..TO")
                        .requires("a")
                        .help(vary_help),
                )
                .args(system_args(system.battle_options()))
                .arg(trials_arg().default_value("1000"))
                .arg(threads_arg())
                .arg(quiet_arg())
                .arg(seed_arg())
                .arg(max_turns_arg())
                .arg(format_arg(&["text", "json", "csv", "markdown", "html"]))
                .arg(rules_arg()),
        );
        resolve = resolve.subcommand(
            Command::new(system.id())
                .about(system.title())
                .after_help(ship_list.clone())
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
                    Arg::new("min-probability")
                        .long("min-probability")
                        .value_name("P")
                        .value_parser(min_probability)
                        .requires("exact")
                        .help(format!(
                            "with --exact: drop the states of the attack less likely than P, reporting their mass; 0 drops none (by default {:e}, and only when the attack is too big to follow whole)",
                            to_f64(&crate::commands::DEFAULT_MIN_PROBABILITY)
                        )),
                )
                .arg(
                    Arg::new("dice")
                        .long("dice")
                        .allow_negative_numbers(true)
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
                .after_help(ship_list.clone())
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
                .arg(threads_arg())
                .arg(quiet_arg())
                .arg(shard_arg().conflicts_with_all(["replay", "find", "exact"]))
                .arg(seed_arg())
                .arg(max_turns_arg())
                .arg(
                    Arg::new("replay")
                        .long("replay")
                        .allow_negative_numbers(true)
                        .value_name("K")
                        .value_parser(whole_number)
                        .help("print the full event log of trial K of the run instead of the odds"),
                )
                .arg(
                    Arg::new("find")
                        .long("find")
                        .value_name("OUTCOME")
                        .value_parser(FIND_OUTCOMES.to_vec())
                        .conflicts_with("replay")
                        .help("print the full event log of the first trial of the run that ends in OUTCOME"),
                )
                .arg(
                    Arg::new("exact")
                        .long("exact")
                        .action(ArgAction::SetTrue)
                        .conflicts_with_all(["replay", "seed", "find"])
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
                .about("List a system's ships and their statistics, or one ship's")
                .arg(
                    Arg::new("system")
                        .value_name("SYSTEM")
                        .required(true)
                        .value_parser(system_ids.clone())
                        .help("the rule system"),
                )
                .arg(
                    Arg::new("ship")
                        .value_name("SHIP")
                        .help("one ship's id, for its sheet alone"),
                )
                .arg(format_arg(&["text", "json"]))
                .arg(rules_arg()),
        )
        .subcommand(
            Command::new("table")
                .about("Print a table of a system's data, or one cell of it")
                .arg(
                    Arg::new("system")
                        .value_name("SYSTEM")
                        .required(true)
                        .value_parser(system_ids)
                        .help("the rule system"),
                )
                .arg(
                    Arg::new("table")
                        .value_name("TABLE")
                        .help("the table's id; all tables are listed if omitted"),
                )
                .arg(
                    Arg::new("row")
                        .value_name("ROW")
                        // A row label may start with '-' (`-20-10`).
                        .allow_hyphen_values(true)
                        .help("a row label, or a roll that falls in a row's range"),
                )
                .arg(
                    Arg::new("column")
                        .value_name("COLUMN")
                        .allow_hyphen_values(true)
                        .help("a column header"),
                )
                .arg(format_arg(&["text", "json"]))
                .arg(rules_arg()),
        )
        .subcommand(resolve)
        .subcommand(battle)
        .subcommand(sweep)
        .subcommand(
            Command::new("compare")
                .about("Play one battle under every system and print a row for each")
                .arg(
                    Arg::new("scenario")
                        .value_name("SCENARIO")
                        .help("a scenario file (TOML); the built-in default if omitted"),
                )
                .args(run_args()),
        )
        .subcommand(
            Command::new("serve")
                .about("Serve a local web page for the whole tool, and its JSON API")
                .after_help("Prints the page's address and serves until Ctrl-C. Binds 127.0.0.1 unless --bind says otherwise.")
                .arg(
                    Arg::new("port")
                        .long("port")
                        .value_name("N")
                        .value_parser(value_parser!(u16))
                        .default_value("7878")
                        .help("the port to listen on; 0 takes a free one"),
                )
                .arg(
                    Arg::new("bind")
                        .long("bind")
                        .value_name("ADDR")
                        .value_parser(value_parser!(std::net::IpAddr))
                        .default_value("127.0.0.1")
                        .help("the address to listen on; another than 127.0.0.1 lets other machines in, with a warning"),
                )
                .arg(
                    Arg::new("rules")
                        .long("rules")
                        .value_name("SYSTEM=DIR")
                        .action(ArgAction::Append)
                        .help("read SYSTEM's data from DIR over its built-in data (repeatable)"),
                ),
        )
        .subcommand(
            Command::new("rules")
                .about("Work with a system's data files")
                .subcommand_required(true)
                .arg_required_else_help(true)
                .disable_help_subcommand(true)
                .subcommand(
                    Command::new("export")
                        .about("Write a system's built-in data files into DIR, to edit and use with --rules DIR")
                        .after_help("Keep only the files you change: --rules DIR reads the rest from the built-in data.")
                        .arg(
                            Arg::new("system")
                                .value_name("SYSTEM")
                                .required(true)
                                .value_parser(system_ids_for_rules.clone()),
                        )
                        .arg(Arg::new("dir").value_name("DIR").required(true).help(
                            "the folder to write to; created if missing, and no file in it is overwritten",
                        )),
                ),
        )
        .subcommand(
            Command::new("merge")
                .about("Add the tallies of a run's shards (--shard I/N) and print the run's report")
                .after_help("Run merge from the folder the shards ran in: their command is read again, with its paths.")
                .arg(
                    Arg::new("files")
                        .value_name("FILE")
                        .required(true)
                        .num_args(1..)
                        .help("the shard files, one for each shard of the run"),
                )
                .arg(format_arg(&["text", "json", "csv", "markdown", "html"])),
        )
        .subcommand(
            Command::new("completions")
                .about("Print the shell completion script for SHELL")
                .after_help("bash: broadside completions bash > ~/.local/share/bash-completion/completions/broadside")
                .arg(
                    Arg::new("shell")
                        .value_name("SHELL")
                        .required(true)
                        .value_parser(value_parser!(clap_complete::Shell)),
                ),
        )
        .subcommand(
            Command::new("man")
                .about("Print the manual page (roff)")
                .after_help("man <(broadside man), or broadside man > broadside.1"),
        )
}

/// The most trials one run plays.
pub const MAX_TRIALS: u64 = 100_000_000;

/// The options of a run of every system's battle: `compare`, and `battle
/// --scenario FILE` without a system.
fn run_args() -> Vec<Arg> {
    vec![
        trials_arg(),
        threads_arg(),
        quiet_arg(),
        shard_arg(),
        seed_arg(),
        max_turns_arg(),
        format_arg(&["text", "json", "csv", "markdown", "html"]),
        Arg::new("rules")
            .long("rules")
            .value_name("SYSTEM=DIR")
            .action(ArgAction::Append)
            .help("read SYSTEM's data from DIR over its built-in data (repeatable; over a scenario's own rules key)"),
    ]
}

fn trials_arg() -> Arg {
    Arg::new("trials")
        .short('n')
        .long("trials")
        .allow_negative_numbers(true)
        .value_name("N")
        .value_parser(trial_count)
        .default_value("10000")
        .help("trials to play (1000000, 1_000_000 and 1e6 are the same)")
}

/// A count of trials as people write large numbers: digits with `_` or `,`
/// between them, or a mantissa and a power of ten (`1e6`, `2.5e5`).
pub fn trial_count(text: &str) -> Result<u64, String> {
    let bad =
        || format!("'{text}' is not a whole number of trials (write 1000000, 1_000_000 or 1e6)");
    let digits: String = text.chars().filter(|c| !matches!(c, '_' | ',')).collect();
    let count = match digits.split_once(['e', 'E']) {
        None => digits.parse::<u64>().map_err(|_| bad())?,
        Some((mantissa, exponent)) => {
            let exponent: u32 = exponent.parse().map_err(|_| bad())?;
            let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
            // The mantissa's fraction must be used up by the exponent, so
            // the count stays whole: 2.5e5 is 250000, 2.5e0 is refused.
            let shift = exponent
                .checked_sub(u32::try_from(fraction.len()).map_err(|_| bad())?)
                .ok_or_else(bad)?;
            if whole.is_empty()
                || !(whole.bytes().chain(fraction.bytes())).all(|b| b.is_ascii_digit())
            {
                return Err(bad());
            }
            let significand: u64 = format!("{whole}{fraction}").parse().map_err(|_| bad())?;
            10u64
                .checked_pow(shift)
                .and_then(|scale| significand.checked_mul(scale))
                .ok_or_else(|| format!("'{text}' is more than {MAX_TRIALS} trials"))?
        }
    };
    if !(1..=MAX_TRIALS).contains(&count) {
        return Err(format!("{count} is not in 1..={MAX_TRIALS}"));
    }
    Ok(count)
}

fn shard_arg() -> Arg {
    Arg::new("shard")
        .long("shard")
        .value_name("I/N")
        .value_parser(crate::shard::parse)
        .help("play only trials I, I+N, I+2N, ... of the run and print their tally as JSON, for broadside merge")
}

/// A seed or a trial number: a whole number from 0, said so when it is not.
fn whole_number(text: &str) -> Result<u64, String> {
    text.parse()
        .map_err(|_| format!("'{text}' is not a whole number from 0 to {}", u64::MAX))
}

fn quiet_arg() -> Arg {
    Arg::new("quiet")
        .short('q')
        .long("quiet")
        .action(ArgAction::SetTrue)
        .help("no progress bar, even on a terminal")
}

fn threads_arg() -> Arg {
    Arg::new("threads")
        .short('j')
        .long("threads")
        .value_name("N")
        .value_parser(value_parser!(u16).range(1..=1024))
        .help("threads to play trials on (default: one per core); the results are the same for any number")
}

fn max_turns_arg() -> Arg {
    Arg::new("max-turns")
        .long("max-turns")
        .allow_negative_numbers(true)
        .value_name("T")
        .value_parser(value_parser!(u32).range(1..=10_000))
        .default_value("50")
        .help("game turns after which an engagement is undecided")
}

/// `--min-probability`: a probability from 0 to 1, as a decimal (`1e-7`,
/// `0.0001`), taken as the nearest multiple of 10^-18.
fn min_probability(text: &str) -> Result<Prob, String> {
    let value: f64 = text
        .parse()
        .map_err(|_| format!("expected a probability such as 1e-7, not {text:?}"))?;
    if !(0.0..=1.0).contains(&value) {
        return Err(format!("expected a probability from 0 to 1, not {text}"));
    }
    const DEN: u128 = 1_000_000_000_000_000_000;
    Ok(Prob::new((value * DEN as f64).round() as u128, DEN))
}
