//! `watch`: the library's live view ([`pgn_arbiter::watch`]) wired to the
//! terminal, a JSON Lines file and a live page. Files are read again when
//! the operating system says they changed (`notify`), or when polled.

use std::collections::{BTreeSet, HashSet};
use std::ffi::OsString;
use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant, SystemTime};

use pgn_arbiter::text::terminal_safe;
use pgn_arbiter::watch::{may_follow, render_html, rfc3339, Change, Files, Update, Watch};
use pgn_arbiter::Error;

use super::interrupt::on_interrupt;
use super::{Exit, Judging, Named};

/// `watch`: what to follow, what to write, how to judge.
#[derive(clap::Args, Debug)]
pub struct WatchArgs {
    /// Files (rewritten, replaced or appended as games go on), folders
    /// (every *.pgn in them, new ones picked up), or - for stdin (a stream
    /// in which a game's whole PGN is sent again each time it changes).
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<OsString>,
    /// Judge what is there now and exit (stdin: to its end).
    #[arg(long)]
    pub once: bool,
    /// Look at the files every MS milliseconds instead of waiting for the
    /// operating system's notice of a change.
    #[arg(long, value_name = "MS")]
    pub poll: Option<u64>,
    /// Write each event as one JSON object per line to FILE
    /// (docs/watch-event.schema.json).
    #[arg(long, value_name = "FILE")]
    pub jsonl: Option<PathBuf>,
    /// Keep a live page in FILE: each board's state and the latest events;
    /// it reloads itself.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Ring the terminal's bell with each event.
    #[arg(long)]
    pub bell: bool,
    /// No line per event on stdout.
    #[arg(long, short)]
    pub quiet: bool,
    #[command(flatten)]
    pub judging: Judging,
}

/// What wakes the loop.
enum Wake {
    /// The operating system saw a change under a watched folder, to these
    /// paths (none: look at every file).
    Changed(Vec<PathBuf>),
    /// Bytes from stdin.
    Stdin(Vec<u8>),
    /// stdin ended (or failed, with why).
    StdinEnd(Option<io::Error>),
}

/// How often files are looked at when nothing says they changed: with the
/// operating system's notices (in case one is missed), and without them.
const RESCAN_WITH_NOTICES: Duration = Duration::from_secs(2);
const POLL_DEFAULT: Duration = Duration::from_millis(500);
/// How often files are looked at while notices come that name them: the
/// notices work (a network file system gives none for another machine's
/// writes, and is then looked at every [`RESCAN_WITH_NOTICES`]).
const RESCAN_WHILE_NOTICED: Duration = Duration::from_secs(10);
/// How often Ctrl-C is looked for while waiting.
const TICK: Duration = Duration::from_millis(250);
/// How long a file's last game that is not whole (no result token, cut
/// mid-move) waits unchanged before it is judged as it stands: a writer
/// caught mid-write is done long before.
const QUIET: Duration = Duration::from_secs(2);
/// The live page's reload period, in seconds.
const REFRESH: u32 = 2;

/// The outputs: stdout lines, the JSON Lines, the page.
struct Outputs {
    quiet: bool,
    bell: bool,
    jsonl: Option<Named<File>>,
    html: Option<PathBuf>,
    /// JSON lines and lines for people not written yet.
    pending_jsonl: Vec<u8>,
    pending_lines: String,
}

impl Outputs {
    fn open(args: &WatchArgs) -> io::Result<Outputs> {
        let jsonl = match &args.jsonl {
            Some(p) => {
                let f = super::create("--jsonl", p)?;
                Some(Named::new(&format!("--jsonl {}", p.display()), f))
            }
            None => None,
        };
        Ok(Outputs {
            quiet: args.quiet,
            bell: args.bell,
            jsonl,
            html: args.html.clone(),
            pending_jsonl: Vec::new(),
            pending_lines: String::new(),
        })
    }

    /// Takes the events to write (see [`Outputs::write`]) and says the
    /// problems on stderr.
    fn events(&mut self, update: &Update) {
        for p in &update.problems {
            eprintln!("{}", terminal_safe(&format!("pgn-arbiter: watch: {p}")));
        }
        for e in &update.events {
            if self.jsonl.is_some() {
                e.write_json_line(&mut self.pending_jsonl);
            }
            if !self.quiet {
                self.pending_lines.push_str(&terminal_safe(&e.human()));
                if self.bell {
                    self.pending_lines.push('\x07');
                }
                self.pending_lines.push('\n');
            }
        }
    }

    /// Writes the events taken since the last call: the JSON lines in one
    /// write (a reader never sees part of one; one write a batch, not one
    /// an event), the lines for people in another.
    fn write(&mut self) -> io::Result<()> {
        if let Some(out) = &mut self.jsonl {
            if !self.pending_jsonl.is_empty() {
                out.write_all(&self.pending_jsonl)?;
                out.flush()?;
                self.pending_jsonl.clear();
            }
        }
        if !self.pending_lines.is_empty() {
            let mut out = io::stdout().lock();
            out.write_all(self.pending_lines.as_bytes())?;
            out.flush()?;
            self.pending_lines.clear();
        }
        Ok(())
    }

    /// Writes the page whole: to a file beside it, then renamed over it, so
    /// that a browser never reads half a page.
    fn page(&self, watch: &Watch) -> io::Result<()> {
        let Some(path) = &self.html else {
            return Ok(());
        };
        let html = render_html(
            watch.boards(),
            watch.recent(),
            &rfc3339(SystemTime::now()),
            REFRESH,
        );
        write_whole(path, html.as_bytes())
            .map_err(|e| io::Error::new(e.kind(), format!("--html {}: {e}", path.display())))
    }
}

/// Writes `bytes` to a temporary file beside `path` and renames it over
/// `path`.
fn write_whole(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let tmp = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    let mut f = File::create(&tmp)?;
    f.write_all(bytes)?;
    f.sync_data()?;
    drop(f);
    fs::rename(&tmp, path)
}

/// Reads stdin in a thread of its own (a read blocks; the loop must still
/// see Ctrl-C), sending what comes.
fn read_stdin(tx: Sender<Wake>) {
    std::thread::spawn(move || {
        let mut stdin = io::stdin().lock();
        let mut buf = vec![0u8; 1 << 16];
        loop {
            match stdin.read(&mut buf) {
                Ok(0) => {
                    let _ = tx.send(Wake::StdinEnd(None));
                    return;
                }
                Ok(n) => {
                    if tx.send(Wake::Stdin(buf[..n].to_vec())).is_err() {
                        return;
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    let _ = tx.send(Wake::StdinEnd(Some(e)));
                    return;
                }
            }
        }
    });
}

/// Notices are gathered for this long after the first one, then handled
/// together: a board replaced by a rename is several notices, the boards
/// of a round change within moments of each other, and each file changed
/// is then read once. An event waits this long at most for it.
const GATHER: Duration = Duration::from_millis(250);

/// The folders whose notices are asked for: each folder given, and each
/// file's own folder (a file replaced by a rename is a new file).
fn notice_folders(roots: &[PathBuf]) -> Vec<PathBuf> {
    let mut folders = BTreeSet::new();
    for root in roots {
        folders.insert(if root.is_dir() {
            root.clone()
        } else {
            match root.parent() {
                Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
                _ => PathBuf::from("."),
            }
        });
    }
    folders.into_iter().collect()
}

/// What keeps the notices coming (dropped: they stop).
#[cfg(target_os = "linux")]
struct Notices;

/// The operating system's notices of changes in the folders of `roots`,
/// read by a thread of their own a batch at a time: it sleeps until a
/// notice comes, gathers what follows for [`GATHER`], and wakes the loop
/// once with every path named. Or why there are none.
#[cfg(target_os = "linux")]
fn notices(roots: &[PathBuf], tx: Sender<Wake>) -> Result<Notices, String> {
    use inotify::{Inotify, WatchMask};
    let mut inotify = Inotify::init().map_err(|e| e.to_string())?;
    // Not the opens, reads and closes without writing: the watch's own
    // reads are those, and would wake it again, for ever.
    let mask = WatchMask::CLOSE_WRITE
        | WatchMask::MODIFY
        | WatchMask::ATTRIB
        | WatchMask::CREATE
        | WatchMask::DELETE
        | WatchMask::MOVE
        | WatchMask::DELETE_SELF
        | WatchMask::MOVE_SELF;
    let mut folders = Vec::new();
    for folder in notice_folders(roots) {
        let wd = inotify
            .watches()
            .add(&folder, mask)
            .map_err(|e| format!("{}: {e}", folder.display()))?;
        folders.push((wd, folder));
    }
    let roots = roots.to_vec();
    std::thread::spawn(move || {
        let mut buffer = vec![0u8; 64 * 1024];
        loop {
            let mut batch = Batch::default();
            match inotify.read_events_blocking(&mut buffer) {
                Ok(events) => batch.add(events, &folders, &roots),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    eprintln!(
                        "pgn-arbiter: watch: change notices stopped ({e}): every file is looked at every {} s",
                        RESCAN_WITH_NOTICES.as_secs()
                    );
                    return;
                }
            }
            std::thread::sleep(GATHER);
            loop {
                match inotify.read_events(&mut buffer) {
                    Ok(events) => batch.add(events, &folders, &roots),
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                    Err(_) => {
                        batch.all = true;
                        break;
                    }
                }
            }
            let paths = if batch.all {
                Vec::new()
            } else {
                let paths = batch.paths(&folders);
                // only other files' notices (a writer's temporary file):
                // nothing to look at
                if paths.is_empty() {
                    continue;
                }
                paths
            };
            if tx.send(Wake::Changed(paths)).is_err() {
                return;
            }
        }
    });
    Ok(Notices)
}

/// The paths a batch of notices named that may be followed, each once; or
/// that every file must be looked at (notices were lost, a folder moved).
#[cfg(target_os = "linux")]
#[derive(Default)]
struct Batch {
    /// The names each folder's notices gave.
    names: Vec<BTreeSet<OsString>>,
    all: bool,
}

#[cfg(target_os = "linux")]
impl Batch {
    fn add(
        &mut self,
        events: inotify::Events<'_>,
        folders: &[(inotify::WatchDescriptor, PathBuf)],
        roots: &[PathBuf],
    ) {
        use inotify::EventMask;
        for event in events {
            let lost = EventMask::Q_OVERFLOW | EventMask::DELETE_SELF | EventMask::MOVE_SELF;
            if event.mask.intersects(lost) {
                self.all = true;
                continue;
            }
            let folder = folders.iter().position(|(wd, _)| *wd == event.wd);
            match (folder, event.name) {
                // another file (a writer's temporary file): dropped here,
                // not carried to the loop
                (Some(_), Some(name)) if !may_follow(name, roots) => {}
                (Some(i), Some(name)) => {
                    if self.names.len() <= i {
                        self.names.resize_with(i + 1, BTreeSet::new);
                    }
                    // a board's write is several notices of one name
                    if !self.names[i].contains(name) {
                        self.names[i].insert(name.to_os_string());
                    }
                }
                _ => self.all = true,
            }
        }
    }

    /// The paths named, each once.
    fn paths(self, folders: &[(inotify::WatchDescriptor, PathBuf)]) -> Vec<PathBuf> {
        let mut paths = Vec::new();
        for ((_, folder), names) in folders.iter().zip(self.names) {
            paths.extend(names.iter().map(|name| folder.join(name)));
        }
        paths
    }
}

/// What keeps the notices coming (dropped: they stop).
#[cfg(not(target_os = "linux"))]
type Notices = notify::RecommendedWatcher;

/// The operating system's notices of changes in the folders of `roots`,
/// or why there are none.
#[cfg(not(target_os = "linux"))]
fn notices(roots: &[PathBuf], tx: Sender<Wake>) -> Result<Notices, String> {
    use notify::event::{AccessKind, AccessMode, EventKind};
    use notify::Watcher;
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        // Not the reads: the scan's own reading of a folder is one, and
        // would wake the scan again, for ever. A file closed after writing
        // is a change.
        let Ok(event) = event else {
            let _ = tx.send(Wake::Changed(Vec::new()));
            return;
        };
        let change = match event.kind {
            EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
            EventKind::Access(_) => false,
            _ => true,
        };
        if change {
            let _ = tx.send(Wake::Changed(event.paths));
        }
    })
    .map_err(|e| e.to_string())?;
    for folder in notice_folders(roots) {
        watcher
            .watch(&folder, notify::RecursiveMode::NonRecursive)
            .map_err(|e| format!("{}: {e}", folder.display()))?;
    }
    Ok(watcher)
}

/// How files are looked at: every `rescan`, and between those the paths
/// the notices named.
struct Looks {
    files: Files,
    rescan: Duration,
    next: Instant,
    /// Look at every file at the next turn.
    all: bool,
    /// The paths the notices named since the last look.
    touched: HashSet<PathBuf>,
    /// Notices named files since the last look at every file.
    noticed: bool,
}

impl Looks {
    /// Looks at the files due, judges what changed and writes its events;
    /// whether a game was judged.
    fn look(&mut self, watch: &mut Watch, out: &mut Outputs) -> io::Result<bool> {
        if self.files.roots().is_empty() {
            return Ok(false);
        }
        let changes = if self.all || Instant::now() >= self.next {
            self.all = false;
            let period = if std::mem::take(&mut self.noticed) {
                RESCAN_WHILE_NOTICED.max(self.rescan)
            } else {
                self.rescan
            };
            self.next = Instant::now() + period;
            self.touched.clear();
            self.files.scan()
        } else if !self.touched.is_empty() {
            // in a fixed order; compared as bytes, cheaper than a path's
            // own order, component by component
            let mut touched: Vec<PathBuf> = self.touched.drain().collect();
            touched.sort_unstable_by(|a, b| a.as_os_str().cmp(b.as_os_str()));
            self.files.scan_paths(touched.iter().map(PathBuf::as_path))
        } else {
            return Ok(false);
        };
        let mut judged = false;
        for change in changes {
            let update = match change {
                Change::Read(path, bytes) => {
                    watch.read(&path.to_string_lossy(), &bytes, SystemTime::now())
                }
                Change::Gone(path) => Update {
                    problems: vec![watch.gone(&path.display().to_string())],
                    ..Update::default()
                },
                Change::Unreadable(path, e) => Update {
                    problems: vec![format!("{}: cannot read: {e}", path.display())],
                    ..Update::default()
                },
            };
            judged |= update.judged > 0;
            out.events(&update);
        }
        out.write()?;
        Ok(judged)
    }
}

/// stdin as a stream: what came and is not yet a whole game.
struct Stream {
    open: bool,
    buffer: Vec<u8>,
}

/// Waits for a notice, stdin, the next look or a look at Ctrl-C, and takes
/// every wake that came; whether stdin brought anything.
fn wait(rx: &Receiver<Wake>, looks: &mut Looks, stream: &mut Stream) -> bool {
    let wait = TICK.min(looks.next.saturating_duration_since(Instant::now()));
    let first = match rx.recv_timeout(wait) {
        Ok(w) => Some(w),
        Err(RecvTimeoutError::Timeout) => None,
        Err(RecvTimeoutError::Disconnected) => {
            std::thread::sleep(wait);
            None
        }
    };
    // notify wakes the loop at each notice: gathered here as the Linux
    // thread gathers them
    #[cfg(not(target_os = "linux"))]
    if matches!(first, Some(Wake::Changed(_))) {
        std::thread::sleep(GATHER);
    }
    let mut stdin = false;
    for wake in first
        .into_iter()
        .chain(std::iter::from_fn(|| rx.try_recv().ok()))
    {
        match wake {
            // a notice without paths: look at everything
            Wake::Changed(paths) if paths.is_empty() => looks.all = true,
            Wake::Changed(paths) => {
                looks.noticed = true;
                looks.touched.extend(paths);
            }
            Wake::Stdin(bytes) => {
                stream.buffer.extend_from_slice(&bytes);
                stdin = true;
            }
            Wake::StdinEnd(error) => {
                if let Some(e) = error {
                    eprintln!("pgn-arbiter: watch: stdin: {e}");
                }
                stream.open = false;
                stdin = true;
            }
        }
    }
    stdin
}

/// How often files are looked at in all, and the notices that wake the
/// watch between (kept alive by the caller), or polling where there are
/// none.
fn how_to_look(
    args: &WatchArgs,
    roots: &[PathBuf],
    tx: Sender<Wake>,
) -> (Duration, Option<Notices>) {
    match args.poll {
        Some(ms) => (Duration::from_millis(ms.max(1)), None),
        None if args.once || roots.is_empty() => (POLL_DEFAULT, None),
        None => match notices(roots, tx) {
            Ok(w) => (RESCAN_WITH_NOTICES, Some(w)),
            Err(why) => {
                eprintln!(
                    "{}",
                    terminal_safe(&format!(
                        "pgn-arbiter: watch: no change notices ({why}): polling every {} ms",
                        POLL_DEFAULT.as_millis()
                    ))
                );
                (POLL_DEFAULT, None)
            }
        },
    }
}

/// Runs `watch`.
pub fn run(args: &WatchArgs) -> Result<Exit, Error> {
    let interrupt = on_interrupt();
    let mut out = Outputs::open(args)?;
    // the latest events are the page's
    let mut watch = Watch::new(args.judging.laws, args.judging.dead, args.judging.site)
        .keep_recent(args.html.is_some());
    let roots: Vec<PathBuf> = args
        .paths
        .iter()
        .filter(|p| *p != "-")
        .map(PathBuf::from)
        .collect();
    let (tx, rx) = mpsc::channel::<Wake>();
    let mut stream = Stream {
        open: args.paths.iter().any(|p| p == "-"),
        buffer: Vec::new(),
    };
    if stream.open {
        read_stdin(tx.clone());
    }
    let (rescan, _notices) = how_to_look(args, &roots, tx);
    let mut looks = Looks {
        files: Files::new(roots.clone()),
        rescan,
        next: Instant::now(),
        all: true,
        touched: HashSet::new(),
        noticed: false,
    };
    out.page(&watch)?;
    loop {
        if interrupt.load(Ordering::Relaxed) {
            out.page(&watch)?;
            return Ok(Exit::Interrupted);
        }
        let mut judged = looks.look(&mut watch, &mut out)?;
        // a file's unfinished last game, once the file is quiet (--once:
        // now): judged as it stands
        let now = SystemTime::now();
        let quiet = if args.once {
            now
        } else {
            now.checked_sub(QUIET).unwrap_or(now)
        };
        let update = watch.settle(quiet, now);
        if update.judged > 0 {
            out.events(&update);
            out.write()?;
            judged = true;
        }
        if judged {
            out.page(&watch)?;
        }
        if !stream.open && (args.once || roots.is_empty()) {
            // --once: what is there was judged; or the stream was all
            // there was to follow
            out.page(&watch)?;
            return Ok(Exit::Ok);
        }
        if wait(&rx, &mut looks, &mut stream) {
            let update =
                watch.read_stream("-", &mut stream.buffer, !stream.open, SystemTime::now());
            out.events(&update);
            out.write()?;
            if update.judged > 0 {
                out.page(&watch)?;
            }
        }
    }
}
