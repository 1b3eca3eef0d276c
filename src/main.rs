//! The `pgn-arbiter` binary: the command line ([`cli`]) over the library.
//!
//! The process starts at the C `main` below, not at Rust's: the standard
//! library's start (`lang_start`) finds the main thread's stack by reading
//! `/proc/self/maps` and maps an alternate signal stack for its
//! stack-overflow message, some 0.13 ms a run here (issue 26: a tenth of
//! the gap on a 1 MB file). What else it does that the tool relies on is
//! done here: SIGPIPE ignored (a closed pipe is an error to report, see
//! `Error::is_broken_pipe`) and closed standard descriptors opened on
//! `/dev/null`, so that no output file is opened as fd 1 and written to as
//! stdout. Arguments reach `std::env::args` as before (glibc passes them to
//! the standard library's initialiser), and `std::process::exit` flushes
//! stdout as a return from Rust's `main` would. What is lost: a stack
//! overflow on the main thread ends the process with SIGSEGV without
//! Rust's message.
#![cfg_attr(not(test), no_main)]

mod cli;

/// The process's entry (see the module's documentation).
#[cfg(not(test))]
#[no_mangle]
pub extern "C" fn main(_argc: libc::c_int, _argv: *const *const libc::c_char) -> libc::c_int {
    // SAFETY: at the start of the process, before any other thread or
    // handler exists: fcntl and open on descriptors 0 to 2, signal.
    unsafe {
        for fd in 0..3 {
            if libc::fcntl(fd, libc::F_GETFD) == -1
                && *libc::__errno_location() == libc::EBADF
                && libc::open(c"/dev/null".as_ptr(), libc::O_RDWR) == -1
            {
                libc::abort();
            }
        }
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
    std::process::exit(cli::main());
}

/// The unit tests' build has the test harness's `main`: the command line
/// is still reached from here, as the real entry reaches it.
#[cfg(test)]
const _: fn() -> i32 = cli::main;
