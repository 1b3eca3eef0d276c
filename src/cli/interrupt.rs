//! Ctrl-C (and SIGTERM). The first stops reading: the games already read
//! are audited and written, and the run ends with 130. Should the run then
//! be held by its output (a pipe that nobody reads, where each write waits
//! for ever, or one read so slowly that what was read would take minutes
//! to write), the process ends [`GRACE`] after the signal, with
//! 130 and what was written by then; a run that can write goes on to its
//! end (the summaries included), and only a run held by anything else for
//! [`BACKSTOP`] is ended too. A second Ctrl-C ends the process at once.
//! Either way the JSON Lines in a pipe are whole: they go in whole writes
//! of at most `PIPE_BUF` bytes, which a pipe takes all or nothing (see
//! `WholeWrites`).

use std::io::{self, IsTerminal};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use super::Exit;

/// How long a run held by its output is given after the first Ctrl-C:
/// time to write the findings of the games read when a slow reader takes
/// them, short enough that Ctrl-C feels obeyed.
const GRACE: Duration = Duration::from_millis(800);
/// How often the watchdog looks at the run after the first signal.
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

/// Nanoseconds since [`epoch`] at the first signal (0: none yet), and the
/// time in writes then: what the watchdog measures from.
static SIGNALLED: AtomicU64 = AtomicU64::new(0);
static WRITTEN_BEFORE: AtomicU64 = AtomicU64::new(0);

/// The watchdog's last words; `say_and_end` writes them as one line.
macro_rules! ended {
    ($why:literal) => {
        concat!(
            "pgn-arbiter: interrupted: after Ctrl-C ",
            $why,
            ": ended without waiting; findings and summaries not written by then are missing\n"
        )
    };
}
const HELD: &str = ended!("its output took too long to take what was read (nobody reading it?)");
/// Says [`BACKSTOP`] in seconds (a test holds them together).
const STALLED: &str = ended!("the run had not ended 5 s after it (an input that sends nothing?)");
/// Takes the progress bar's line off a terminal.
const CLEAR: &str = "\r\x1b[2K";

/// Registers the handlers; the flag they set, which stops reading.
///
/// The watchdog is not a thread of its own (a thread's start and end cost
/// about 0.1 ms a run here): the first signal starts a timer,
/// and SIGALRM's handler looks at the run every [`POLL`]. Everything the
/// handlers do is async-signal-safe: atomics, the clock, `setitimer`,
/// `poll`, `write` and `_exit`.
pub(super) fn on_interrupt() -> Arc<AtomicBool> {
    // made now: the handlers only read it
    epoch();
    let interrupt = Arc::new(AtomicBool::new(false));
    let terminal = io::stderr().is_terminal();
    // SAFETY: `watch` is async-signal-safe (see above).
    let watching = unsafe {
        signal_hook::low_level::register(signal_hook::consts::SIGALRM, move || watch(terminal))
    }
    .is_ok();
    for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        let second = interrupt.clone();
        // The second signal ends the process at once; the progress bar's
        // line is cleared first, or the shell's prompt would follow it.
        // The first starts the watchdog's timer (should SIGALRM have no
        // handler, a first Ctrl-C waits for the outputs as it did).
        // SAFETY: the action loads and stores atomics, reads the clock,
        // calls setitimer, writes to fd 2 (one write(2), no allocation)
        // and _exits: all async-signal-safe.
        let _ = unsafe {
            signal_hook::low_level::register(sig, move || {
                if second.load(Ordering::Relaxed) {
                    if terminal {
                        write_stderr(CLEAR.as_bytes());
                    }
                    signal_hook::low_level::exit(Exit::Interrupted.code());
                }
                if watching && SIGNALLED.load(Ordering::Relaxed) == 0 {
                    WRITTEN_BEFORE.store(WRITTEN.load(Ordering::Relaxed), Ordering::Relaxed);
                    SIGNALLED.store(now_ns(), Ordering::Relaxed);
                    every(POLL);
                }
            })
        };
        let _ = signal_hook::flag::register(sig, interrupt.clone());
    }
    interrupt
}

/// SIGALRM every `period` from now.
fn every(period: Duration) {
    // SAFETY: a timeval is plain integers; all zero is valid.
    let mut t: libc::timeval = unsafe { std::mem::zeroed() };
    t.tv_sec = period.as_secs().try_into().unwrap_or(1);
    t.tv_usec = period.subsec_micros().into();
    let timer = libc::itimerval {
        it_interval: t,
        it_value: t,
    };
    // SAFETY: a valid itimerval; the old value is not asked for.
    unsafe { libc::setitimer(libc::ITIMER_REAL, &timer, std::ptr::null_mut()) };
}

/// The watchdog's look, at each SIGALRM after the first signal: ends the
/// process once it is held by its output and [`GRACE`] has passed, or at
/// [`BACKSTOP`], saying so.
fn watch(terminal: bool) {
    let signal = SIGNALLED.load(Ordering::Relaxed);
    if signal == 0 {
        return;
    }
    let after = Duration::from_nanos(now_ns().saturating_sub(signal));
    if after >= GRACE && held_by_output(WRITTEN_BEFORE.load(Ordering::Relaxed)) {
        say_and_end(terminal, HELD);
    }
    if after >= BACKSTOP {
        say_and_end(terminal, STALLED);
    }
}

/// Writes `words` (after the progress bar's clearing on a terminal) as one
/// write and ends the process with 130. stderr may be held too (a pipe
/// nobody reads): the words get a moment, the end does not wait for them;
/// `_exit`, so that no flush of stdout's buffer blocks again.
fn say_and_end(terminal: bool, words: &str) -> ! {
    let mut line = [0u8; 512];
    let mut n = 0;
    let clear = if terminal { CLEAR } else { "" };
    for &b in clear.as_bytes().iter().chain(words.as_bytes()) {
        if let Some(slot) = line.get_mut(n) {
            *slot = b;
            n += 1;
        }
    }
    let mut fd = libc::pollfd {
        fd: 2,
        events: libc::POLLOUT,
        revents: 0,
    };
    // SAFETY: one valid pollfd.
    if unsafe { libc::poll(&mut fd, 1, 100) } == 1 && fd.revents & libc::POLLOUT != 0 {
        write_stderr(&line[..n]);
    }
    signal_hook::low_level::exit(Exit::Interrupted.code());
}

/// One write(2) of `bytes` to fd 2, whatever it takes of them.
fn write_stderr(bytes: &[u8]) {
    // SAFETY: a valid buffer of its length.
    let _ = unsafe { libc::write(2, bytes.as_ptr().cast(), bytes.len()) };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_words_say_the_backstop() {
        let secs = format!("had not ended {} s after it", BACKSTOP.as_secs());
        assert!(STALLED.contains(&secs), "{STALLED}");
        assert!(CLEAR.len() + STALLED.len() <= 512 && CLEAR.len() + HELD.len() <= 512);
    }
}
