//! conclave-media-worker: Conclave's native media engine on str0m, driven over stdin/stdout (README.md).

mod control;
mod ops;
mod peers;
mod worker;

use serde_json::json;
use std::io::ErrorKind;
use std::net::UdpSocket;
use std::sync::mpsc::{self, TryRecvError};
use std::time::{Duration, Instant};

/// CONCLAVE_WORKER_TRACE set: every frame, offer and answer is told on stderr (debugging only: slow).
pub fn tracing_on() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("CONCLAVE_WORKER_TRACE").is_some())
}

/// `--ip <address>` (default 127.0.0.1) and `--port <n>` (default 0: any).
fn bind_address() -> String {
    let args: Vec<String> = std::env::args().collect();
    let value = |name: &str, default: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned().unwrap_or_else(|| default.to_string());
    format!("{}:{}", value("--ip", "127.0.0.1"), value("--port", "0"))
}

/// The socket's receive and send buffers: 4 MiB each (the kernel caps them at net.core.rmem_max / wmem_max; the default
/// 208 KiB holds a 360p key frame for about three subscribers).
fn enlarge_buffers(socket: &UdpSocket) {
    use std::os::fd::AsRawFd;
    let size: libc::c_int = 4 << 20;
    for option in [libc::SO_RCVBUF, libc::SO_SNDBUF] {
        // SAFETY: a valid socket descriptor and a c_int option value of the size given.
        let rc = unsafe {
            libc::setsockopt(socket.as_raw_fd(), libc::SOL_SOCKET, option, (&size as *const libc::c_int).cast(), std::mem::size_of::<libc::c_int>() as libc::socklen_t)
        };
        if rc != 0 {
            eprintln!("setsockopt {option}: {}", std::io::Error::last_os_error()); // the default buffers still work
        }
    }
}

fn main() {
    str0m::crypto::from_feature_flags().install_process_default();
    let socket = match UdpSocket::bind(bind_address()) {
        Ok(socket) => socket,
        Err(error) => {
            eprintln!("binding the media socket: {error}");
            std::process::exit(2);
        }
    };
    enlarge_buffers(&socket);
    let mut worker = match worker::Worker::new(socket) {
        Ok(worker) => worker,
        Err(error) => {
            eprintln!("the media socket's address: {error}");
            std::process::exit(2);
        }
    };
    let (tx, rx) = mpsc::channel();
    control::spawn_reader(tx);
    control::event("ready", json!({ "address": worker.local.ip().to_string(), "port": worker.local.port(), "version": env!("CARGO_PKG_VERSION") }));
    let mut buf = vec![0u8; 2000];
    let mut last_report = Instant::now();
    loop {
        loop {
            match rx.try_recv() {
                Ok(Some(request)) => {
                    if request.op == "close" {
                        control::reply(request.id, Ok(json!({})));
                        return;
                    }
                    let result = worker.handle(&request);
                    control::reply(request.id, result);
                }
                Ok(None) | Err(TryRecvError::Disconnected) => return, // stdin closed: the server went
                Err(TryRecvError::Empty) => break,
            }
        }
        if Instant::now() >= worker.wake {
            worker.tick();
        }
        if last_report.elapsed() >= Duration::from_millis(250) {
            last_report = Instant::now();
            worker.report();
        }
        // Capped so that control requests wait at most a few ms.
        let wait = worker.wake.saturating_duration_since(Instant::now()).clamp(Duration::from_millis(1), Duration::from_millis(5));
        if let Err(error) = worker.socket.set_read_timeout(Some(wait)) {
            eprintln!("set_read_timeout: {error}");
        }
        match worker.socket.recv_from(&mut buf) {
            Ok((n, source)) => {
                let datagram = buf[..n].to_vec();
                worker.receive(source, &datagram);
            }
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(e) => eprintln!("recv_from: {e}"), // e.g. ICMP port unreachable surfaced on Linux: go on
        }
    }
}
