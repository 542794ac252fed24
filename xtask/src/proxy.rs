//! A TCP proxy on loopback that delays every byte by a fixed time in each
//! direction, as a link to another machine or zone would: what a replica's
//! link to its primary costs, without a second machine. Throughput is
//! kept (bytes are read as they come and written once their time is up),
//! only latency is added. Each direction's queue is bounded; the proxy
//! stops with the value that started it.

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

/// Chunks in flight per direction before the reader waits.
const QUEUE: usize = 4096;

/// A delaying proxy from 127.0.0.1:`port` to an upstream port.
pub struct DelayProxy {
    pub port: u16,
    stop: Arc<AtomicBool>,
}

impl DelayProxy {
    /// Listens on a free loopback port and forwards each connection to
    /// 127.0.0.1:`upstream`, every byte `delay` late each way.
    pub fn start(upstream: u16, delay: Duration) -> Result<Self> {
        let listener = TcpListener::bind("127.0.0.1:0").context("the delay proxy cannot listen")?;
        let port = listener.local_addr()?.port();
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = stop.clone();
        thread::spawn(move || {
            for client in listener.incoming() {
                if stopped.load(Ordering::Relaxed) {
                    break;
                }
                let Ok(client) = client else { continue };
                let Ok(server) = TcpStream::connect(("127.0.0.1", upstream)) else {
                    continue;
                };
                let _ = client.set_nodelay(true);
                let _ = server.set_nodelay(true);
                for (from, to) in [(&client, &server), (&server, &client)] {
                    if let (Ok(from), Ok(to)) = (from.try_clone(), to.try_clone()) {
                        pipe(from, to, delay, stopped.clone());
                    }
                }
            }
        });
        Ok(DelayProxy { port, stop })
    }
}

impl Drop for DelayProxy {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        // Wakes the accept loop so that it sees the stop.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
    }
}

/// Copies `from` to `to`, each chunk written `delay` after it was read.
fn pipe(mut from: TcpStream, mut to: TcpStream, delay: Duration, stop: Arc<AtomicBool>) {
    let (send, receive): (SyncSender<(Instant, Vec<u8>)>, Receiver<_>) = sync_channel(QUEUE);
    thread::spawn(move || {
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            match from.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    if send.send((Instant::now(), buf[..n].to_vec())).is_err() {
                        break;
                    }
                }
            }
            if stop.load(Ordering::Relaxed) {
                break;
            }
        }
    });
    thread::spawn(move || {
        for (read_at, chunk) in receive {
            let due = read_at + delay;
            let now = Instant::now();
            if due > now {
                thread::sleep(due - now);
            }
            if to.write_all(&chunk).is_err() {
                break;
            }
        }
        let _ = to.shutdown(Shutdown::Write);
    });
}
