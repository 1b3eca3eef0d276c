//! The reader thread: reads (and decompresses) a stream ahead of the
//! workers, in regions that each end at the last chunk boundary read so
//! far; the bytes after it begin the next region.

use std::io::{self, Read};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};

use super::{bom_len, read_some};
use crate::split;

/// What the reader thread sends, in order.
pub(crate) enum Region {
    Bytes {
        bytes: Recycled,
        base: u64,
    },
    /// The stream ended early; `total` uncompressed bytes were read.
    Error {
        total: u64,
        error: io::Error,
    },
    End {
        total: u64,
    },
}

/// A region's bytes, which go back to the reader thread when dropped.
pub(crate) struct Recycled {
    bytes: Vec<u8>,
    back: SyncSender<Vec<u8>>,
}

impl AsRef<[u8]> for Recycled {
    fn as_ref(&self) -> &[u8] {
        &self.bytes
    }
}

impl Drop for Recycled {
    fn drop(&mut self) {
        let _ = self.back.try_send(std::mem::take(&mut self.bytes));
    }
}

/// Starts the reader thread on `r`: regions of about `region_size` bytes,
/// a few ahead. The thread ends when the receiver is dropped.
pub(crate) fn spawn(r: Box<dyn Read + Send>, region_size: usize) -> Receiver<Region> {
    let (tx, rx) = sync_channel::<Region>(2);
    std::thread::spawn(move || read_regions(r, region_size.max(1), tx));
    rx
}

/// The reader thread: fills regions of about `region_size` bytes, cuts
/// each at its last chunk boundary, and sends them in order.
fn read_regions(mut r: Box<dyn Read + Send>, region_size: usize, tx: SyncSender<Region>) {
    let block = (region_size / 4).clamp(1, 4 << 20);
    // Region buffers come back once audited: fresh ones would cost a page
    // fault per 4 KiB.
    let (back_tx, back_rx) = sync_channel::<Vec<u8>>(4);
    let fresh = |back_rx: &Receiver<Vec<u8>>| -> Vec<u8> {
        match back_rx.try_recv() {
            Ok(mut v) => {
                v.clear();
                v
            }
            // grown as needed beyond 64 MiB: a huge --region-size must not
            // allocate it all up front (found by fuzzing)
            Err(_) => Vec::with_capacity(region_size.saturating_add(block).min(64 << 20)),
        }
    };
    let mut carry: Vec<u8> = fresh(&back_rx);
    let mut base: u64 = 0;
    let mut total: u64 = 0;
    let mut want = region_size;
    let mut first = true;
    let mut error = None;
    loop {
        let mut eof = false;
        while carry.len() < want {
            match read_some(&mut *r, &mut carry, block) {
                Ok(0) => {
                    eof = true;
                    break;
                }
                Ok(n) => {
                    total += n as u64;
                    // A short read: a pipe gave what it had. Hand over the
                    // games read so far rather than wait for a full region
                    // (the writer may be slow, or never close the pipe).
                    if n < block && carry.len() >= block && split::last_boundary(&carry).is_some() {
                        break;
                    }
                }
                Err(e) => {
                    // `carry` keeps what was read before the error
                    total = base + carry.len() as u64;
                    error = Some(e);
                    eof = true;
                    break;
                }
            }
        }
        if first && !carry.is_empty() {
            first = false;
            let bom = bom_len(&carry);
            carry.drain(..bom);
            base = bom as u64;
        }
        let cut = if eof {
            carry.len()
        } else {
            match split::last_boundary(&carry) {
                Some(b) => b,
                None => {
                    // one game longer than a region: read on
                    want = carry.len().saturating_mul(2);
                    continue;
                }
            }
        };
        want = region_size;
        let mut next = fresh(&back_rx);
        next.extend_from_slice(&carry[cut..]);
        carry.truncate(cut);
        let bytes = std::mem::replace(&mut carry, next);
        if !bytes.is_empty() {
            let len = bytes.len() as u64;
            let bytes = Recycled {
                bytes,
                back: back_tx.clone(),
            };
            if tx.send(Region::Bytes { bytes, base }).is_err() {
                return;
            }
            base += len;
        }
        if eof {
            let _ = tx.send(match error {
                Some(error) => Region::Error { total, error },
                None => Region::End { total },
            });
            return;
        }
    }
}
