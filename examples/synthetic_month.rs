//! A synthetic month of online games for benchmarks at the scale of a
//! Lichess month (87 to 108 million games): writes N games as PGN to
//! stdout, fast enough that the audit reading them is the bottleneck.
//!
//! ```sh
//! cargo build --release --example synthetic_month
//! target/release/examples/synthetic_month --games 1000000 --seed 1 \
//!   | target/release/pgn-arbiter audit --quiet --jsonl /dev/null --report-json /tmp/agg.json -
//! # or, building and running in one:
//! cargo run --release --example synthetic_month -- --games 1000000 --seed 1 | ...
//! ```
//!
//! Options (per mille: out of 1,000 games):
//!
//! * `--games N` games to write (default 1,000,000), repeats included;
//! * `--seed S` the seed (default 1): the same arguments write the same bytes;
//! * `--copies P` per mille written as an exact repeat (tags and moves) of
//!   an earlier game (default 0);
//! * `--respelled P` per mille written as an earlier game as another
//!   database would copy it: its players spelled otherwise ("Given Surname"
//!   for "Surname,Given", a Lichess name with its first letter's case
//!   changed) and without the site's game id (`Site` "lichess.org", no
//!   chess.com `Link`), so that a duplicate finder must compare the moves,
//!   date and names (default 0);
//! * `--otb P` per mille from the titled events on chess.com of
//!   `data/twic-2000.pgn.zst` ("Surname,Given" names, a `Link` tag each),
//!   the others from `data/lichess-2000.pgn` (default 100);
//! * `--players N` players, Lichess's and chess.com's pools together
//!   (default N / 150, so that players meet repeatedly, as in a real month);
//! * `--data DIR` where the two files are (default: the repository's `data/`).
//!
//! Every game is a real game of `data/`, its movetext copied byte for byte
//! (as legal as the original; judged by the Laws of its new date, 2018's),
//! with new tags: players from a pool, the date and time spread over
//! January 2024 in input order, each game its site's own id (a Lichess
//! `Site`, a chess.com `Link`), and events that grow with N (about one
//! tournament per 1,000 games beside the plain "Rated Bullet game" kind).
//!
//! No two games share players, date, round and moves (what a duplicate
//! finder compares where no site id decides) unless `--copies` or
//! `--respelled` asks for it: no two players of a pool have names alike
//! once normalised ([`name_key`]), and a filter of the current day's
//! (moves, White, Black) re-draws any game that could repeat one (16 bits a
//! game of one day: 8 MB at 100 million games). Nothing else is kept per
//! game, so the games stream in bounded memory.

use std::collections::HashMap;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// Days of the month written (January).
const DAYS: u64 = 31;
/// The month, as `Date` and `UTCDate` write it, before the day.
const MONTH: &[u8] = b"2024.01.";
/// Of the Lichess games, per mille played in an arena tournament (a guess:
/// arenas are a large share of Lichess's rated games; the rest are plain
/// "Rated Bullet game" and such, one event per speed).
const ARENA_PERMILLE: u64 = 300;
/// Games per tournament on average, so that tournaments number about one
/// per 1,000 games (arenas are some 30 % of the games).
const GAMES_PER_TOURNAMENT: u64 = 300;
/// Players of a tournament: from 8 to 128, so that some have standings
/// (at most 64 players) and others not, as the report distinguishes.
const TOURNAMENT_PLAYERS: (u64, u64) = (8, 128);
/// Earlier games remembered to be repeated: a uniform sample of all the
/// earlier ones (reservoir sampling), not the last few.
const RESERVOIR: usize = 1 << 16;
/// Bytes gathered before each write: large writes keep the pipe's cost
/// small beside the copying.
const CHUNK: usize = 1 << 18;
/// Lichess's game and tournament ids: 8 of these.
const BASE62: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/// 62^8, the number of 8-character ids.
const IDS: u64 = 218_340_105_584_896;
/// chess.com's live game ids written: the first, and how many (11 digits).
const LIVE_IDS: (u64, u64) = (10_000_000_000, 90_000_000_000);
/// Lichess's speeds, by `TimeControl` (base + 40 x increment, in seconds).
const SPEEDS: [&str; 6] = [
    "UltraBullet",
    "Bullet",
    "Blitz",
    "Rapid",
    "Classical",
    "Correspondence",
];

/// splitmix64: a fast, well-mixed, seedable sequence (no crate needed).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix(self.0)
    }

    /// Uniform in `0..n` (n > 0; the bias of 64-bit multiply-shift is
    /// negligible at these sizes).
    fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next()) * u128::from(n)) >> 64) as u64
    }
}

/// splitmix64's finaliser: also the hash of the per-tournament choices,
/// which are functions of (seed, tournament) rather than draws, so that
/// every game of a tournament sees the same ones.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn hash(parts: &[u64]) -> u64 {
    parts
        .iter()
        .fold(0x2545_F491_4F6C_DD1D, |h, &p| mix(h ^ p).wrapping_add(p))
}

/// One game of `data/`, cut around what every copy writes anew, so that a
/// copy is a few copies of bytes.
struct Template {
    /// A Lichess game (else one of TWIC's).
    online: bool,
    /// Index in [`SPEEDS`] (Lichess games).
    speed: usize,
    /// Its (Event, Site) group (TWIC games).
    group: usize,
    /// Lichess: `[Event "Rated Bullet`.
    event: Vec<u8>,
    /// TWIC: the Round value and `"]\n[White "`.
    round: Vec<u8>,
    /// After Black's name: Lichess `"]\n[Result "1-0"]\n[UTCDate "2024.01.`;
    /// TWIC `"]\n[Result "1-0"]\n`.
    after_black: Vec<u8>,
    /// The tags kept and the movetext; Lichess: after the UTCTime value
    /// and `"]\n`.
    body: Vec<u8>,
}

/// A TWIC event (its Event and Site), of which copies make tournaments.
struct Group {
    /// `[Event "` and the event's name and a space (the number follows).
    event: Vec<u8>,
    /// `"]\n[Site "`, the site, and `"]\n[Date "2024.01.`.
    site: Vec<u8>,
    templates: Vec<u32>,
}

/// A game as written: everything its bytes depend on, so a repeat writes
/// the same bytes again.
#[derive(Clone, Copy)]
struct Game {
    /// Its number among the games written (the Site id's source).
    number: u64,
    template: u32,
    white: u32,
    black: u32,
    day: u64,
    /// Seconds into the day (UTCTime).
    second: u32,
    /// 0: the plain event of its speed; else 1 + the tournament's index
    /// in its day.
    tournament: u32,
}

/// Tags to take out of a copy: those written anew, and FIDE ids and event
/// dates that would tie a renamed player or a moved event to the original.
const REPLACED: [&[u8]; 12] = [
    b"Event",
    b"Site",
    b"Date",
    b"Round",
    b"White",
    b"Black",
    b"Result",
    b"UTCDate",
    b"UTCTime",
    b"WhiteFideId",
    b"BlackFideId",
    b"EventDate",
];

/// A parsed game: its tags as (name, value, line) and its movetext.
type Parsed<'a> = (Vec<(&'a [u8], &'a [u8], &'a [u8])>, &'a [u8]);

/// The games of a PGN text with one tag a line and a blank line after the
/// tags and after the movetext (both files of `data/`).
fn parse(text: &[u8]) -> Vec<Parsed<'_>> {
    let mut games = Vec::new();
    let mut tags = Vec::new();
    let mut moves: Option<(usize, usize)> = None;
    let mut at = 0;
    while at < text.len() {
        let end = memchr::memchr(b'\n', &text[at..]).map_or(text.len(), |i| at + i);
        let line = text[at..end].strip_suffix(b"\r").unwrap_or(&text[at..end]);
        if line.starts_with(b"[") && moves.is_none() {
            let space = line.iter().position(|&c| c == b' ').unwrap_or(line.len());
            let open = line.iter().position(|&c| c == b'"');
            let close = line.iter().rposition(|&c| c == b'"');
            let value = match (open, close) {
                (Some(o), Some(c)) if c > o => &line[o + 1..c],
                _ => &b""[..],
            };
            tags.push((&line[1..space], value, line));
        } else if !line.iter().all(u8::is_ascii_whitespace) {
            moves = Some((moves.map_or(at, |m| m.0), end));
        } else if let Some((from, to)) = moves.take() {
            games.push((std::mem::take(&mut tags), &text[from..to]));
        }
        at = end + 1;
    }
    if let Some((from, to)) = moves {
        games.push((tags, &text[from..to]));
    }
    games
}

/// The moves alone (no numbers, results or check marks): games alike here
/// are alike to the duplicate finder, which compares the moves played.
fn moves_key(movetext: &[u8]) -> Vec<u8> {
    let mut key = Vec::new();
    for token in movetext.split(u8::is_ascii_whitespace) {
        let token = token
            .iter()
            .rposition(|&c| !b"+#!?".contains(&c))
            .map_or(&b""[..], |i| &token[..=i]);
        let numbered = token.last() == Some(&b'.');
        let result = matches!(token, b"1-0" | b"0-1" | b"1/2-1/2" | b"*");
        if !token.is_empty() && !numbered && !result {
            key.extend_from_slice(token);
            key.push(b' ');
        }
    }
    key
}

/// Lichess's speed of a `TimeControl` value.
fn speed(time_control: &[u8]) -> usize {
    let text = std::str::from_utf8(time_control).unwrap_or("-");
    let Some((base, increment)) = text.split_once('+') else {
        return 5;
    };
    let (Ok(base), Ok(increment)) = (base.parse::<u64>(), increment.parse::<u64>()) else {
        return 5;
    };
    match base + 40 * increment {
        0..30 => 0,
        30..180 => 1,
        180..480 => 2,
        480..1500 => 3,
        _ => 4,
    }
}

/// Everything read from `data/`, and the pools built from it.
struct Data {
    templates: Vec<Template>,
    /// Lichess templates by speed.
    by_speed: Vec<Vec<u32>>,
    online: Vec<u32>,
    twic: Vec<u32>,
    groups: Vec<Group>,
    /// Per template, the same number for games with the same moves (their
    /// copies with the same players on one day would be the same game to
    /// the duplicate finder); apart from the templates, as every new game
    /// reads it.
    classes: Vec<u16>,
    /// Lichess names, and "Surname,Given" names: players of the pools.
    online_names: Names,
    otb_names: Names,
}

/// Names in one buffer (a pool of a million names is a few megabytes read
/// at random, not a million allocations).
struct Names {
    bytes: Vec<u8>,
    ends: Vec<u32>,
}

impl Names {
    fn len(&self) -> usize {
        self.ends.len()
    }

    fn get(&self, i: u32) -> &[u8] {
        let i = i as usize;
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.bytes[start..self.ends[i] as usize]
    }
}

fn load(dir: &std::path::Path) -> io::Result<(Vec<u8>, Vec<u8>)> {
    let lichess = std::fs::read(dir.join("lichess-2000.pgn"))?;
    let twic = zstd::stream::decode_all(std::fs::File::open(dir.join("twic-2000.pgn.zst"))?)?;
    Ok((lichess, twic))
}

impl Data {
    fn new(lichess: &[u8], twic: &[u8], online_players: usize, otb_players: usize) -> Data {
        let mut classes: HashMap<Vec<u8>, u16> = HashMap::new();
        let mut class_of = Vec::new();
        let mut groups: Vec<Group> = Vec::new();
        let mut templates = Vec::new();
        let mut handles: Vec<&[u8]> = Vec::new();
        let mut surnames: Vec<&[u8]> = Vec::new();
        let mut given: Vec<&[u8]> = Vec::new();
        for (online, text) in [(true, lichess), (false, twic)] {
            for (tags, movetext) in parse(text) {
                let tag = |name: &[u8]| tags.iter().find(|t| t.0 == name).map_or(&b""[..], |t| t.1);
                // Only games a site's own id can tell apart: a month of
                // copies of TWIC's 70 over-the-board games would repeat
                // each on every day, and two records of one long mainline
                // on one day are one game to a duplicate finder that
                // compares moves where no id decides.
                if !online && memchr::memmem::find(tag(b"Site"), b"chess.com").is_none() {
                    continue;
                }
                let next = classes.len() as u16;
                class_of.push(*classes.entry(moves_key(movetext)).or_insert(next));
                let mut body = Vec::new();
                for &(name, _, line) in &tags {
                    if !REPLACED.contains(&name) {
                        body.extend_from_slice(line);
                        body.push(b'\n');
                    }
                }
                body.push(b'\n');
                body.extend_from_slice(movetext);
                body.extend_from_slice(b"\n\n");
                let mut after_black = b"\"]\n[Result \"".to_vec();
                after_black.extend_from_slice(tag(b"Result"));
                after_black.extend_from_slice(b"\"]\n");
                let speed = speed(tag(b"TimeControl"));
                let mut template = Template {
                    online,
                    speed,
                    group: 0,
                    event: [&b"[Event \"Rated "[..], SPEEDS[speed].as_bytes()].concat(),
                    round: [tag(b"Round"), b"\"]\n[White \""].concat(),
                    after_black,
                    body,
                };
                if online {
                    template.after_black.extend_from_slice(b"[UTCDate \"");
                    template.after_black.extend_from_slice(MONTH);
                    template.body.splice(0..0, *b"\"]\n");
                } else {
                    let event = [&b"[Event \""[..], tag(b"Event"), b" "].concat();
                    let site =
                        [&b"\"]\n[Site \""[..], tag(b"Site"), b"\"]\n[Date \"", MONTH].concat();
                    let found = groups
                        .iter()
                        .position(|g| g.event == event && g.site == site);
                    template.group = found.unwrap_or_else(|| {
                        groups.push(Group {
                            event,
                            site,
                            templates: Vec::new(),
                        });
                        groups.len() - 1
                    });
                    groups[template.group]
                        .templates
                        .push(templates.len() as u32);
                }
                for player in [tag(b"White"), tag(b"Black")] {
                    if online {
                        handles.push(player);
                    } else if let Some(comma) = player.iter().position(|&c| c == b',') {
                        surnames.push(&player[..comma]);
                        given.push(&player[comma + 1..]);
                    }
                }
                templates.push(template);
            }
        }
        let mut by_speed = vec![Vec::new(); SPEEDS.len()];
        let (mut online, mut twic) = (Vec::new(), Vec::new());
        for (i, t) in templates.iter().enumerate() {
            if t.online {
                by_speed[t.speed].push(i as u32);
                online.push(i as u32);
            } else {
                twic.push(i as u32);
            }
        }
        let online_names = online_pool(&distinct(handles), online_players);
        let otb_names = otb_pool(&distinct(surnames), &distinct(given), otb_players);
        Data {
            templates,
            classes: class_of,
            by_speed,
            online,
            twic,
            groups,
            online_names,
            otb_names,
        }
    }
}

/// Values in first-seen order, each once: ASCII ones only (a duplicate
/// finder may fold accents, and [`name_key`] does not), empty ones left out.
fn distinct(values: Vec<&[u8]>) -> Vec<Vec<u8>> {
    let mut seen = std::collections::HashSet::new();
    values
        .into_iter()
        .filter(|v| !v.is_empty() && v.is_ascii() && seen.insert(*v))
        .map(<[u8]>::to_vec)
        .collect()
}

/// A player as a duplicate finder that normalises names may see one: the
/// surname's letters in lowercase (of "Surname,Given"; else the last word,
/// words cut at what is no letter and at camel case) and the first given
/// name's initial. Names alike by this key (`german11` and `German1`;
/// `german11_2` and `german11_3`) could be taken for one player, and games
/// of two such "players" with the same moves on one day for one game; no
/// two names of a pool share a surname so, and none lacks one.
fn name_key(name: &[u8]) -> (Vec<u8>, u8) {
    let lower = |part: &[u8]| -> Vec<u8> {
        part.iter()
            .filter(|c| c.is_ascii_alphabetic())
            .map(u8::to_ascii_lowercase)
            .collect()
    };
    if let Some(comma) = name.iter().position(|&c| c == b',') {
        let given = lower(&name[comma + 1..]);
        return (lower(&name[..comma]), given.first().copied().unwrap_or(0));
    }
    let mut words: Vec<Vec<u8>> = vec![Vec::new()];
    let mut last_lower = false;
    for &c in name {
        if !c.is_ascii_alphabetic() || (c.is_ascii_uppercase() && last_lower) {
            words.push(Vec::new());
        }
        if c.is_ascii_alphabetic() {
            words.last_mut().expect("one word at least").push(c);
        }
        last_lower = c.is_ascii_lowercase();
    }
    words.retain(|w| !w.is_empty());
    match words.as_slice() {
        [] => (Vec::new(), 0),
        [only] => (lower(only), 0),
        [first, .., last] => (lower(last), first[0].to_ascii_lowercase()),
    }
}

/// A number as lowercase letters (bijective base 26: a, ..., z, aa, ...),
/// the part of a name that tells copies apart: digits would not, to a
/// finder that drops them.
fn letters_of(mut n: usize, out: &mut Vec<u8>) {
    let start = out.len();
    loop {
        out.push(b'a' + (n % 26) as u8);
        if n < 26 {
            break;
        }
        n = n / 26 - 1;
    }
    out[start..].reverse();
}

/// `size` Lichess names: the real ones, then each with a code of letters
/// ("german11_bqd", the code unique to the player, so the surname is).
fn online_pool(handles: &[Vec<u8>], size: usize) -> Names {
    pool(size, true, |i| {
        let mut name = handles[i % handles.len()].clone();
        if i >= handles.len() {
            name.push(b'_');
            letters_of(i, &mut name);
        }
        name
    })
}

/// `size` "Surname,Given" names: each surname with given names of each
/// initial in turn (so that the keys differ), then the surnames lengthened
/// by a code of letters ("Sedlakb,Nikola": a hyphen or a space would make
/// "Given Surname" another surname to a finder).
fn otb_pool(surnames: &[Vec<u8>], given: &[Vec<u8>], size: usize) -> Names {
    let mut by_initial: Vec<Vec<&[u8]>> = vec![Vec::new(); 26];
    for g in given {
        if let Some(c) = g.iter().find(|c| c.is_ascii_alphabetic()) {
            by_initial[usize::from(c.to_ascii_lowercase() - b'a')].push(g);
        }
    }
    by_initial.retain(|g| !g.is_empty());
    let round = surnames.len() * by_initial.len();
    pool(size, false, |i| {
        let s = i % surnames.len();
        let given = &by_initial[(i / surnames.len()) % by_initial.len()];
        let mut name = surnames[s].clone();
        if i >= round {
            letters_of(i / round - 1, &mut name);
        }
        name.push(b',');
        name.extend_from_slice(given[s % given.len()]);
        name
    })
}

/// The first `size` of the names `candidate(0)`, `candidate(1)`, ... whose
/// [`name_key`] no earlier one had: by surname alone where a name may have
/// no initial (a finder takes a name without one for any of the surname).
fn pool(size: usize, surname_only: bool, candidate: impl Fn(usize) -> Vec<u8>) -> Names {
    let mut seen = std::collections::HashSet::new();
    let mut names = Names {
        bytes: Vec::new(),
        ends: Vec::with_capacity(size),
    };
    let mut i = 0;
    while names.len() < size {
        let name = candidate(i);
        let (surname, initial) = name_key(&name);
        let initial = if surname_only { 0 } else { initial };
        if !surname.is_empty() && (surname_only || initial != 0) && seen.insert((surname, initial))
        {
            names.bytes.extend_from_slice(&name);
            names.ends.push(names.bytes.len() as u32);
        }
        i += 1;
    }
    names
}

/// The current day's games as (moves, White, Black), to keep each new game
/// unique: one bit per key's hash, emptied each day. A key seen before
/// always finds its bit set, so no game repeats; a new key may find it set
/// by another (at most 1 in 16 at 16 bits a game of the day) and is drawn
/// again, a small cost for a filter that stays in the cache where a set of
/// the keys (64 MB at 100 million games) would miss it at every game.
struct DayFilter {
    bits: Vec<u64>,
    mask: u64,
}

impl DayFilter {
    fn new(per_day: u64) -> DayFilter {
        let bits = (16 * per_day).next_power_of_two().max(1 << 16);
        DayFilter {
            bits: vec![0; (bits / 64) as usize],
            mask: bits - 1,
        }
    }

    /// Adds a key; false if its bit was set.
    fn insert(&mut self, key: u64) -> bool {
        let bit = mix(key) & self.mask;
        let word = &mut self.bits[(bit / 64) as usize];
        let new = *word & (1 << (bit % 64)) == 0;
        *word |= 1 << (bit % 64);
        new
    }

    fn clear(&mut self) {
        self.bits.fill(0);
    }
}

struct Options {
    games: u64,
    seed: u64,
    copies: u64,
    respelled: u64,
    otb: u64,
    players: Option<u64>,
    data: PathBuf,
}

fn options() -> Result<Options, String> {
    let mut o = Options {
        games: 1_000_000,
        seed: 1,
        copies: 0,
        respelled: 0,
        otb: 100,
        players: None,
        data: PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/data")),
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or(format!("{flag} needs a value"))?;
        let number = || {
            value
                .replace(['_', ','], "")
                .parse::<u64>()
                .map_err(|e| format!("{flag} {value}: {e}"))
        };
        match flag.as_str() {
            "--games" => o.games = number()?,
            "--seed" => o.seed = number()?,
            "--copies" => o.copies = number()?,
            "--respelled" => o.respelled = number()?,
            "--otb" => o.otb = number()?,
            "--players" => o.players = Some(number()?),
            "--data" => o.data = PathBuf::from(&value),
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    if o.copies + o.respelled > 1000 || o.otb > 1000 {
        return Err("--copies + --respelled and --otb are per mille: at most 1000".into());
    }
    Ok(o)
}

/// What the game loop needs besides the data.
struct Month<'a> {
    data: &'a Data,
    seed: u64,
    games: u64,
    otb: u64,
    /// Tournaments per day, Lichess arenas and TWIC-like events.
    arenas: u64,
    events: u64,
    /// The affine map that makes game and tournament numbers distinct ids.
    scale: u64,
    site_shift: u64,
    tournament_shift: u64,
}

impl Month<'_> {
    /// A number below 62^8 as another, one to one (the ids of consecutive
    /// games look unrelated, as on the site).
    fn scramble(&self, n: u64, shift: u64) -> u64 {
        ((u128::from(n) * u128::from(self.scale) + u128::from(shift)) % u128::from(IDS)) as u64
    }

    /// A game number as a chess.com live game id's offset, one to one:
    /// 7,777,777,777 is coprime with the ids' count, 9 x 10^10 = 2^10 3^2 5^10.
    fn live_id(&self, n: u64) -> u64 {
        ((u128::from(n) * 7_777_777_777 + u128::from(self.site_shift)) % u128::from(LIVE_IDS.1))
            as u64
    }

    /// The first game of a day (days share the games evenly, in order).
    fn day_start(&self, day: u64) -> u64 {
        (u128::from(day) * u128::from(self.games)).div_ceil(u128::from(DAYS)) as u64
    }

    /// A tournament's choices, fixed by (seed, kind, day, index).
    fn tournament(&self, otb: bool, day: u64, index: u64) -> (u64, u64) {
        let h = hash(&[self.seed, u64::from(otb), day, index]);
        let (low, high) = TOURNAMENT_PLAYERS;
        (h, low + mix(h) % (high - low + 1))
    }

    /// A new game: drawn until (moves, White, Black) is new for its day.
    fn draw(&self, rng: &mut Rng, number: u64, day: u64, seen: &mut DayFilter) -> Game {
        let start = self.day_start(day);
        let length = (self.day_start(day + 1) - start).max(1);
        let second = ((number - start) * 86_400 / length) as u32;
        let otb = rng.below(1000) < self.otb;
        // a small tournament can run out of new (moves, White, Black):
        // after this many draws its game goes to another tournament
        const TRIES: u32 = 4096;
        loop {
            if let Some(game) = self.draw_in(rng, otb, number, day, second, seen, TRIES) {
                return game;
            }
        }
    }

    /// [`Month::draw`] in one tournament drawn for the game (or none), at
    /// most `tries` times.
    #[allow(clippy::too_many_arguments)]
    fn draw_in(
        &self,
        rng: &mut Rng,
        otb: bool,
        number: u64,
        day: u64,
        second: u32,
        seen: &mut DayFilter,
        tries: u32,
    ) -> Option<Game> {
        let data = self.data;
        let tournament = if otb {
            1 + rng.below(self.events)
        } else if rng.below(1000) < ARENA_PERMILLE {
            1 + rng.below(self.arenas)
        } else {
            0
        };
        let (h, size) = self.tournament(otb, day, tournament.saturating_sub(1));
        let (choices, pool) = if otb {
            let group =
                data.templates[data.twic[(h % data.twic.len() as u64) as usize] as usize].group;
            (&data.groups[group].templates, data.otb_names.len() as u64)
        } else if tournament > 0 {
            let speed =
                data.templates[data.online[(h % data.online.len() as u64) as usize] as usize].speed;
            (&data.by_speed[speed], data.online_names.len() as u64)
        } else {
            (&data.online, data.online_names.len() as u64)
        };
        for _ in 0..tries {
            let template = choices[rng.below(choices.len() as u64) as usize];
            let (white, black) = if tournament > 0 {
                let a = rng.below(size);
                let b = (a + 1 + rng.below(size - 1)) % size;
                (hash(&[h, a]) % pool, hash(&[h, b]) % pool)
            } else {
                (active(rng, pool), active(rng, pool))
            };
            let class = u64::from(data.classes[template as usize]);
            let key = (u64::from(otb) << 62) | (class << 48) | (white << 24) | black;
            if white != black && seen.insert(key) {
                return Some(Game {
                    number,
                    template,
                    white: white as u32,
                    black: black as u32,
                    day,
                    second,
                    tournament: tournament as u32,
                });
            }
        }
        None
    }

    fn write(&self, out: &mut Vec<u8>, game: &Game, respelled: bool) {
        let t = &self.data.templates[game.template as usize];
        let day = [
            b'0' + (game.day + 1) as u8 / 10,
            b'0' + (game.day + 1) as u8 % 10,
        ];
        let (white, black) = if t.online {
            let names = &self.data.online_names;
            (names.get(game.white), names.get(game.black))
        } else {
            let names = &self.data.otb_names;
            (names.get(game.white), names.get(game.black))
        };
        // the parts of fixed length are filled in place in one array each,
        // and the rest copied whole: a call to memcpy per part of the game
        // cost more than the copying
        if t.online {
            out.extend_from_slice(&t.event);
            if game.tournament == 0 {
                out.extend_from_slice(b" game");
            } else {
                // numbered through the month, so no two share an id
                let n = game.day * self.arenas + u64::from(game.tournament);
                let mut event = *b" tournament https://lichess.org/tournament/XXXXXXXX";
                id(&mut event[43..], self.scramble(n, self.tournament_shift));
                out.extend_from_slice(&event);
            }
            if respelled {
                // another database's copy: the site without the game's id,
                // so that a duplicate finder has to compare the moves
                let mut site = *b"\"]\n[Site \"lichess.org\"]\n[Date \"2024.01.DD\"]\n[Round \"-\"]\n[White \"";
                site[39..41].copy_from_slice(&day);
                out.extend_from_slice(&site);
            } else {
                let mut site = *b"\"]\n[Site \"https://lichess.org/XXXXXXXX\"]\n[Date \"2024.01.DD\"]\n[Round \"-\"]\n[White \"";
                id(
                    &mut site[30..38],
                    self.scramble(game.number, self.site_shift),
                );
                site[56..58].copy_from_slice(&day);
                out.extend_from_slice(&site);
            }
        } else {
            let group = &self.data.groups[t.group];
            out.extend_from_slice(&group.event);
            // numbered through the month, so each copy is its own event
            let n = game.day * self.events + u64::from(game.tournament);
            out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
            out.extend_from_slice(&group.site);
            let mut date = *b"DD\"]\n[Round \"";
            date[..2].copy_from_slice(&day);
            out.extend_from_slice(&date);
            out.extend_from_slice(&t.round);
        }
        name(out, white, respelled, t.online);
        out.extend_from_slice(b"\"]\n[Black \"");
        name(out, black, respelled, t.online);
        out.extend_from_slice(&t.after_black);
        if t.online {
            let mut time = *b"DD\"]\n[UTCTime \"hh:mm:ss";
            time[..2].copy_from_slice(&day);
            let s = game.second;
            for (at, part) in [(15, s / 3600), (18, s / 60 % 60), (21, s % 60)] {
                time[at] = b'0' + (part / 10) as u8;
                time[at + 1] = b'0' + (part % 10) as u8;
            }
            out.extend_from_slice(&time);
        } else if !respelled {
            // chess.com's own id of the game (another database's copy, the
            // respelled one, goes without)
            let mut link = *b"[Link \"https://www.chess.com/game/live/NNNNNNNNNNN\"]\n";
            let mut n = LIVE_IDS.0 + self.live_id(game.number);
            for d in link[39..50].iter_mut().rev() {
                *d = b'0' + (n % 10) as u8;
                n /= 10;
            }
            out.extend_from_slice(&link);
        }
        out.extend_from_slice(&t.body);
    }
}

/// A player of a pool of `n`, the low numbers more active than the high
/// (density as 1/sqrt): online activity is heavy-tailed, yet even the least
/// active of the pool plays about half the average.
fn active(rng: &mut Rng, n: u64) -> u64 {
    let u = (rng.next() >> 11) as f64 / (1u64 << 53) as f64;
    ((u * u * n as f64) as u64).min(n - 1)
}

/// An 8-character Lichess id of a number below 62^8, into `digits`.
fn id(digits: &mut [u8], mut n: u64) {
    for d in digits.iter_mut().rev() {
        *d = BASE62[(n % 62) as usize];
        n /= 62;
    }
}

/// A player's name, or its other spelling: "Surname,Given" as "Given
/// Surname"; a Lichess name (case-insensitive on the site) with its first
/// letter's case changed.
fn name(out: &mut Vec<u8>, name: &[u8], respelled: bool, online: bool) {
    if !respelled {
        out.extend_from_slice(name);
    } else if online {
        let start = out.len();
        out.extend_from_slice(name);
        match out[start..].iter_mut().find(|c| c.is_ascii_alphabetic()) {
            Some(c) => *c ^= 0x20,
            None => out.push(b'_'),
        }
    } else if let Some(comma) = name.iter().position(|&c| c == b',') {
        out.extend_from_slice(&name[comma + 1..]);
        out.push(b' ');
        out.extend_from_slice(&name[..comma]);
    } else {
        out.extend_from_slice(name);
    }
}

fn main() -> ExitCode {
    let o = match options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("synthetic_month: {e}");
            return ExitCode::from(2);
        }
    };
    let (lichess, twic) = match load(&o.data) {
        Ok(files) => files,
        Err(e) => {
            eprintln!("synthetic_month: {}: {e}", o.data.display());
            return ExitCode::from(2);
        }
    };
    let online_games = o.games * (1000 - o.otb) / 1000;
    let players = o.players.unwrap_or(o.games / 150).max(64);
    // the pools share the players as the games do, at least 32 each
    let online_players = (players * (1000 - o.otb) / 1000).max(32);
    let otb_players = (players * o.otb / 1000).max(32);
    if online_players.max(otb_players) >= 1 << 24 {
        eprintln!("synthetic_month: at most 16,777,215 players in a pool");
        return ExitCode::from(2);
    }
    let data = Data::new(
        &lichess,
        &twic,
        online_players as usize,
        otb_players as usize,
    );
    assert!(data.templates.len() < 1 << 14, "moves classes fit 14 bits");
    let seed = mix(o.seed ^ 0x6A09_E667_F3BC_C908);
    let per_day = |games: u64| (games / GAMES_PER_TOURNAMENT / DAYS).max(1);
    // a multiplier coprime with 62^8 (odd, not a multiple of 31) makes the
    // map from game numbers to Site ids one to one
    let mut scale = (seed % IDS) | 1;
    while scale.is_multiple_of(31) {
        scale += 2;
    }
    let month = Month {
        data: &data,
        seed,
        games: o.games,
        otb: o.otb,
        arenas: per_day(online_games * ARENA_PERMILLE / 1000),
        events: per_day(o.games - online_games),
        scale,
        site_shift: mix(seed) % IDS,
        tournament_shift: mix(seed ^ 1) % IDS,
    };
    let mut rng = Rng(seed);
    let mut seen = DayFilter::new(o.games.div_ceil(DAYS) + 1);
    let mut sample: Vec<Game> = Vec::with_capacity(RESERVOIR);
    let mut drawn = 0u64;
    let (mut copies, mut respelled) = (0u64, 0u64);
    let mut day = 0;
    let mut out = Vec::with_capacity(CHUNK + (1 << 16));
    let mut stdout = io::stdout().lock();
    let mut written = 0u64;
    let started = std::time::Instant::now();
    for number in 0..o.games {
        if number >= month.day_start(day + 1) {
            day += 1;
            seen.clear();
        }
        let pick = rng.below(1000);
        if pick < o.copies + o.respelled && !sample.is_empty() {
            let game = sample[rng.below(sample.len() as u64) as usize];
            let respell = pick >= o.copies;
            month.write(&mut out, &game, respell);
            copies += u64::from(!respell);
            respelled += u64::from(respell);
        } else {
            let game = month.draw(&mut rng, number, day, &mut seen);
            month.write(&mut out, &game, false);
            // reservoir sampling: each earlier game equally likely kept
            if sample.len() < RESERVOIR {
                sample.push(game);
            } else {
                let slot = rng.below(drawn + 1) as usize;
                if slot < RESERVOIR {
                    sample[slot] = game;
                }
            }
            drawn += 1;
        }
        if out.len() >= CHUNK {
            if let Err(e) = stdout.write_all(&out) {
                return broken(e);
            }
            written += out.len() as u64;
            out.clear();
        }
    }
    if let Err(e) = stdout.write_all(&out).and_then(|()| stdout.flush()) {
        return broken(e);
    }
    written += out.len() as u64;
    let seconds = started.elapsed().as_secs_f64();
    eprintln!(
        "synthetic_month: {} games ({drawn} new, {copies} copies, {respelled} respelled), {} bytes, {} + {} players in the pools, {} + {} tournaments a day, {seconds:.2} s, {:.0} MB/s",
        o.games,
        written,
        data.online_names.len(),
        data.otb_names.len(),
        month.arenas,
        month.events,
        written as f64 / seconds / 1e6,
    );
    ExitCode::SUCCESS
}

/// A reader that stopped reading (`| head`) is no error.
fn broken(e: io::Error) -> ExitCode {
    if e.kind() == io::ErrorKind::BrokenPipe {
        ExitCode::SUCCESS
    } else {
        eprintln!("synthetic_month: {e}");
        ExitCode::FAILURE
    }
}
