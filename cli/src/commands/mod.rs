//! The subcommands, one file each, and the one place their results become exit codes
//! ([`exit_code`]): 0 done; 1 scored but some entries could not be scored; 2 usage error,
//! unreadable input or a failed write.

pub(crate) mod combine;
pub(crate) mod import;
pub(crate) mod leaderboard;
pub(crate) mod report;
pub(crate) mod score;
pub(crate) mod touch;
pub(crate) mod trajectory;

use std::process::ExitCode;

/// How a command that ran to its end finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Done {
    /// Everything asked for was done (exit 0).
    All,
    /// Scored, but some entries could not be scored; they were listed on stderr (exit 1).
    SomeUnscored,
}

/// The stops that are not plain errors, carried in the `anyhow::Error` a command returns (exit 2
/// like any error; any other error prints as `refscore CMD: error: ...`).
#[derive(Debug)]
pub(crate) enum CliError {
    /// The arguments do not make a command: `refscore CMD: MESSAGE`.
    Usage(String),
    /// Already explained on stderr (the scores printed to stdout instead of the unwritable
    /// report): nothing more to say.
    Reported,
}

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CliError::Usage(msg) => f.write_str(msg),
            CliError::Reported => f.write_str("already reported"),
        }
    }
}

impl std::error::Error for CliError {}

/// A command's result.
pub(crate) type Outcome = anyhow::Result<Done>;

/// Says why command `name` stopped, if it did, and gives the process's exit code.
pub(crate) fn exit_code(name: &str, outcome: Outcome) -> ExitCode {
    match outcome {
        Ok(Done::All) => ExitCode::SUCCESS,
        Ok(Done::SomeUnscored) => ExitCode::from(1),
        Err(e) => {
            match e.downcast_ref::<CliError>() {
                Some(CliError::Usage(msg)) => eprintln!("refscore {name}: {msg}"),
                Some(CliError::Reported) => {}
                None => eprintln!("refscore {name}: error: {e:#}"),
            }
            ExitCode::from(2)
        }
    }
}
