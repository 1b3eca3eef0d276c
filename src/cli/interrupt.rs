//! Ctrl-C (and SIGTERM). The first stops reading: the games already read
//! are audited and written, and the run ends with 130. Should the run then
//! be held by its output (a pipe that nobody reads, where each write waits
//! for ever, or one read so slowly that what was read would take minutes
//! to write: issue 23), the process ends [`GRACE`] after the signal, with
//! 130 and what was written by then; a run that can write goes on to its
//! end (the summaries included), and only a run held by anything else for
//! [`BACKSTOP`] is ended too. A second Ctrl-C ends the process at once.
//! Either way the JSON Lines in a pipe are whole: they go in whole writes
//! of at most `PIPE_BUF` bytes, which a pipe takes all or nothing (see
//! `WholeWrites`).

use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use super::Exit;

/// How long a run held by its output is given after the first Ctrl-C:
/// time to write the findings of the games read when a slow reader takes
/// them, short enough that Ctrl-C feels obeyed.
const GRACE: Duration = Duration::from_millis(800);
/// How often the watchdog looks at the flag: a signal handler can only set it.
const POLL: Duration = Duration::from_millis(50);
/// A run is held by its output when, after the signal, it has waited in
/// writes for a quarter of [`GRACE`] in all, or for this long in one.
const STUCK: Duration = Duration::from_millis(100);
/// The longest a run may take to end after the first Ctrl-C, whatever it
/// waits on (a stdin that sends nothing before its first bytes).
const BACKSTOP: Duration = Duration::from_secs(5);

/// Time spent in output writes, for the watchdog: nanoseconds since
/// [`epoch`], in all and since the start of the write under way (0: none).
static WRITING: AtomicU64 = AtomicU64::new(0);
static WRITTEN: AtomicU64 = AtomicU64::new(0);

fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

fn now_ns() -> u64 {
    // never 0, which means no write under way
    (epoch().elapsed().as_nanos() as u64).max(1)
}

/// Runs a write to an output, timed for the watchdog.
pub(super) fn timed<T>(write: impl FnOnce() -> T) -> T {
    let start = now_ns();
    WRITING.store(start, Ordering::Relaxed);
    let result = write();
    WRITING.store(0, Ordering::Relaxed);
    WRITTEN.fetch_add(now_ns() - start, Ordering::Relaxed);
    result
}

/// Whether the output holds the run: the time in writes since `before`
/// (the total then), or the write under way, is over the limits.
fn held_by_output(before: u64) -> bool {
    let in_writes = WRITTEN.load(Ordering::Relaxed).saturating_sub(before);
    let writing = WRITING.load(Ordering::Relaxed);
    let this_one = if writing == 0 {
        0
    } else {
        now_ns().saturating_sub(writing)
    };
    Duration::from_nanos(in_writes) >= GRACE / 4 || Duration::from_nanos(this_one) >= STUCK
}

/// Registers the handlers; the flag they set, which stops reading.
pub(super) fn on_interrupt() -> Arc<AtomicBool> {
    let interrupt = Arc::new(AtomicBool::new(false));
    let terminal = io::stderr().is_terminal();
    for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        let second = interrupt.clone();
        // The second signal ends the process at once; the progress bar's
        // line is cleared first, or the shell's prompt would follow it.
        // SAFETY: the action only loads an atomic, writes to fd 2 (one
        // write(2), no allocation) and _exits: all async-signal-safe.
        let _ = unsafe {
            signal_hook::low_level::register(sig, move || {
                if second.load(Ordering::Relaxed) {
                    if terminal {
                        use std::os::fd::FromRawFd;
                        let mut err = std::mem::ManuallyDrop::new(std::fs::File::from_raw_fd(2));
                        let _ = err.write_all(b"\r\x1b[2K");
                    }
                    signal_hook::low_level::exit(Exit::Interrupted.code());
                }
            })
        };
        let _ = signal_hook::flag::register(sig, interrupt.clone());
    }
    let flag = interrupt.clone();
    // Should it not start, a first Ctrl-C waits for the outputs as it did.
    let _ = std::thread::Builder::new()
        .name("ctrl-c-watchdog".into())
        .spawn(move || watchdog(&flag));
    interrupt
}

/// Waits for the flag; then ends the process once it is held by its
/// output and [`GRACE`] has passed, or at [`BACKSTOP`], saying so.
fn watchdog(flag: &AtomicBool) {
    epoch();
    while !flag.load(Ordering::Relaxed) {
        std::thread::sleep(POLL);
    }
    let signal = Instant::now();
    let before = WRITTEN.load(Ordering::Relaxed);
    let why = loop {
        std::thread::sleep(POLL);
        let after = signal.elapsed();
        if after >= GRACE && held_by_output(before) {
            break "its output took too long to take what was read (nobody reading it?)"
                .to_string();
        }
        if after >= BACKSTOP {
            break format!(
                "the run had not ended {} s after it (an input that sends nothing?)",
                BACKSTOP.as_secs()
            );
        }
    };
    // stderr may block too (a pipe nobody reads): the words get a moment,
    // the end does not wait for them
    let said = std::thread::spawn(move || {
        super::progress::clear_shown();
        let mut err = io::stderr();
        // the progress bar's line is cleared first
        let clear = if err.is_terminal() { "\r\x1b[2K" } else { "" };
        let _ = writeln!(
            err,
            "{clear}pgn-arbiter: interrupted: after Ctrl-C {why}: ended without waiting; findings and summaries not written by then are missing"
        );
    });
    let deadline = Instant::now() + Duration::from_millis(100);
    while !said.is_finished() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
    // _exit: no flush of stdout's buffer, which would block again
    signal_hook::low_level::exit(Exit::Interrupted.code());
}
