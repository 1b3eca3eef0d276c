//! The library's error: what went wrong, typed, so that the command line
//! maps it to an exit code in one place and Python to an exception.

use std::fmt;
use std::io;

/// An error of the library.
#[derive(Debug)]
pub enum Error {
    /// What was asked cannot be done: a value that cannot be read, options
    /// that cannot go together.
    Usage(String),
    /// A file is not what it should be: a findings file with a line that is
    /// no finding, an aggregate that cannot be merged. The message names the
    /// file and the place.
    Data(String),
    /// Reading or writing failed (the message names the file where known).
    Io(io::Error),
}

impl Error {
    /// Whether it is a closed pipe on output (`| head`): the run ends
    /// quietly, as other tools do.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, Error::Io(e) if e.kind() == io::ErrorKind::BrokenPipe)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Usage(m) | Error::Data(m) => f.write_str(m),
            Error::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<io::Error> for Error {
    fn from(e: io::Error) -> Error {
        Error::Io(e)
    }
}

/// A `Result` with this crate's [`Error`].
pub type Result<T> = std::result::Result<T, Error>;
