//! The `pgn-arbiter` binary: the command line ([`cli`]) over the library.

mod cli;

fn main() {
    std::process::exit(cli::main());
}
