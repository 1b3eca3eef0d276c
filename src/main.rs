//! The `pgn-arbiter` binary: parses the command line and maps the run to an
//! exit code. The work is in the library.

use clap::Parser;
use pgn_arbiter::cli::{run_audit, Cli, Command};

fn main() {
    let cli = Cli::parse();
    let code = match &cli.command {
        Command::Audit(args) => run_audit(args),
        Command::Position(args) => pgn_arbiter::positions::run_position(args),
        Command::Diff(args) => pgn_arbiter::diff::run_diff(args),
        Command::Report(args) => pgn_arbiter::cli::run_report(args),
    };
    std::process::exit(code);
}
