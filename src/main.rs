//! The `pgn-arbiter` binary: the command line ([`cli`]) over the library.
//!
//! The process starts at the C `main` below, not at Rust's: the standard
//! library's start (`lang_start`) finds the main thread's stack by reading
//! `/proc/self/maps` and maps an alternate signal stack for its
//! stack-overflow message, some 0.13 ms a run here (1.3 % of
//! the run on a 1 MB file). What else it does that the tool relies on is
//! done here: SIGPIPE ignored (a closed pipe is an error to report, see
//! `Error::is_broken_pipe`) and closed standard descriptors opened on
//! `/dev/null`, so that no output file is opened as fd 1 and written to as
//! stdout. The arguments are read from `argv` here (`std::env::args` has
//! them only where the C library hands them to the standard library's
//! initialiser, as glibc does and musl does not), and `std::process::exit`
//! flushes stdout as a return from Rust's `main` would. What is lost: a
//! stack overflow on the main thread ends the process with SIGSEGV without
//! Rust's message.
#![cfg_attr(not(test), no_main)]

mod cli;

/// The process's entry (see the module's documentation).
#[cfg(not(test))]
#[no_mangle]
pub extern "C" fn main(argc: libc::c_int, argv: *const *const libc::c_char) -> libc::c_int {
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
    std::process::exit(cli::main(args(argc, argv)));
}

/// The arguments, from C's `argc` and `argv`.
#[cfg(not(test))]
fn args(argc: libc::c_int, argv: *const *const libc::c_char) -> Vec<std::ffi::OsString> {
    use std::os::unix::ffi::OsStrExt;
    (0..usize::try_from(argc).unwrap_or(0))
        .map(|i| {
            // SAFETY: the C runtime passes `argc` pointers to strings that
            // end with a NUL and live as long as the process.
            let arg = unsafe { std::ffi::CStr::from_ptr(*argv.add(i)) };
            std::ffi::OsStr::from_bytes(arg.to_bytes()).to_owned()
        })
        .collect()
}

/// The unit tests' build has the test harness's `main`: the command line
/// is still reached from here, as the real entry reaches it.
#[cfg(test)]
const _: fn(Vec<std::ffi::OsString>) -> i32 = cli::main;
