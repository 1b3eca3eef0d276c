//! The games an aggregate carries for merging ([`InputIds`]), kept beside
//! its JSON in a binary file (`AGG.json.ids`) so that the JSON stays small
//! whatever the number of games: about 90 bytes a game there (what the
//! duplicate finder compares, and the game's share of the counts), a third
//! more in base64 inside the JSON. An aggregate written to a file has its ids
//! beside it (`duplicates.ids_beside`); one written to a stream or handed
//! over in memory (the Python package) keeps them inline.
//!
//! The file: the line `pgn-arbiter ids 3`, then per input its name's
//! length (4 bytes, little-endian), the name (UTF-8), its games' length (8
//! bytes) and the games as [`super::packed`] packs them.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use super::duplicates::InputIds;
use super::model::{read_aggregate, Aggregate};

use super::spool::{Framing, Inputs, MAGIC};

/// The file beside the aggregate `json` that holds its ids.
pub fn ids_path(json: &Path) -> PathBuf {
    let mut p = json.as_os_str().to_owned();
    p.push(".ids");
    PathBuf::from(p)
}

/// Writes `ids` to `path`.
pub fn write_ids(path: &Path, ids: &[InputIds]) -> io::Result<()> {
    let named = |e: io::Error| io::Error::new(e.kind(), format!("{}: {e}", path.display()));
    let mut out = BufWriter::with_capacity(1 << 20, File::create(path).map_err(named)?);
    out.write_all(MAGIC).map_err(named)?;
    for input in ids {
        out.write_all(&(input.file.len() as u32).to_le_bytes())
            .map_err(named)?;
        out.write_all(input.file.as_bytes()).map_err(named)?;
        out.write_all(&(input.games.len() as u64).to_le_bytes())
            .map_err(named)?;
        out.write_all(&input.games).map_err(named)?;
    }
    out.flush().map_err(named)
}

/// Reads the ids written by [`write_ids`]; errors name the file.
pub fn read_ids(path: &Path) -> Result<Vec<InputIds>, String> {
    let name = path.display();
    let file = File::open(path).map_err(|e| format!("{name}: {e}"))?;
    let bad = |what: &str| format!("{name}: not the ids of an aggregate ({what})");
    let framing = |f: Framing| match f {
        Framing::TooShort => bad("too short"),
        Framing::OtherFormat => bad("it does not start with `pgn-arbiter ids 3`"),
        Framing::CutShort => bad("cut short"),
        Framing::Io(e) => format!("{name}: {e}"),
    };
    let mut inputs = Inputs::open(BufReader::with_capacity(1 << 20, file)).map_err(framing)?;
    let mut ids = Vec::new();
    while let Some((file, n)) = inputs.next_input().map_err(framing)? {
        let mut games = Vec::new();
        let read = inputs
            .games()
            .take(n)
            .read_to_end(&mut games)
            .map_err(|e| format!("{name}: {e}"))?;
        if read as u64 != n {
            return Err(bad("cut short"));
        }
        let file = String::from_utf8(file).map_err(|_| bad("a name that is not UTF-8"))?;
        ids.push(InputIds { file, games });
    }
    Ok(ids)
}

/// Reads the aggregate in the file `p`, with its ids from beside it.
pub fn read_aggregate_file(p: &str) -> Result<Aggregate, String> {
    let bytes = std::fs::read(p).map_err(|e| format!("{p}: {e}"))?;
    let mut a = read_aggregate(p, &bytes)?;
    if a.duplicates.ids_beside {
        a.duplicates.ids = read_ids(&ids_path(Path::new(p)))?;
        a.duplicates.ids_beside = false;
    }
    Ok(a)
}

/// Writes `a` as one line of JSON to `out`; where `json` names the regular
/// file `out` writes (not `-`, not `/dev/null`), its ids go beside it
/// ([`ids_path`]): they are taken out of `a` while its JSON is written, and
/// put back. An aggregate whose ids were written beside it while the run
/// went on (`ids_beside` and no ids) is written as it is.
pub fn write_aggregate(out: &mut dyn Write, json: &str, a: &mut Aggregate) -> io::Result<()> {
    // written beside it already, while the run went on ([`IdsWriter`])
    let spooled = a.duplicates.ids_beside && a.duplicates.ids.is_empty();
    let regular = json != "-" && std::fs::metadata(json).is_ok_and(|m| m.is_file());
    let beside = !spooled && regular && !a.duplicates.ids.is_empty();
    if beside {
        write_ids(&ids_path(Path::new(json)), &a.duplicates.ids)?;
    }
    let ids = if beside {
        std::mem::take(&mut a.duplicates.ids)
    } else {
        Vec::new()
    };
    a.duplicates.ids_beside = spooled || beside;
    let line = serde_json::to_vec(&*a);
    if beside {
        a.duplicates.ids = ids;
        a.duplicates.ids_beside = false;
    }
    out.write_all(&line.map_err(io::Error::other)?)?;
    out.write_all(b"\n")?;
    out.flush()
}
