//! The load lab's floor forwarder (bench/README.md "Load: cost per forwarded packet", issue 42): what forwarding
//! costs when nothing but forwarding is done. One UDP socket, one thread: `recvmmsg`, per packet one SRTP
//! unprotect, then per subscriber a copy with its SSRC rewritten, one SRTP protect, queued for `sendmmsg`. No
//! ICE, DTLS or RTCP: the generator gives the keys (routes.rs). Usage: `floor [--bind 127.0.0.1] [--port 0]`;
//! prints `listening <ip>:<port>` once bound, runs until killed.
mod batch;
mod routes;
mod srtp;

use batch::Batch;
use routes::Table;
use srtp::TAG_LEN;
use std::io::{self, Write};
use std::net::Ipv4Addr;
use std::os::fd::RawFd;

const RX_BATCH: usize = 32;
const TX_BATCH: usize = 512;
/// Socket buffers (SO_RCVBUFFORCE as root, else capped by net.core.*mem_max): a fan-out burst is 1,000s of packets.
const SOCKET_BUFFER: libc::c_int = 16 << 20;

fn setsockopt(fd: RawFd, name: libc::c_int, value: libc::c_int) -> bool {
    // SAFETY: a plain int option on our own socket.
    unsafe { libc::setsockopt(fd, libc::SOL_SOCKET, name, (&value as *const libc::c_int).cast(), 4) == 0 }
}

fn bind(ip: Ipv4Addr, port: u16) -> io::Result<(RawFd, u16)> {
    // SAFETY: plain socket calls; every result is checked.
    unsafe {
        let fd = libc::socket(libc::AF_INET, libc::SOCK_DGRAM | libc::SOCK_CLOEXEC, 0);
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        if !setsockopt(fd, libc::SO_RCVBUFFORCE, SOCKET_BUFFER) {
            setsockopt(fd, libc::SO_RCVBUF, SOCKET_BUFFER);
        }
        if !setsockopt(fd, libc::SO_SNDBUFFORCE, SOCKET_BUFFER) {
            setsockopt(fd, libc::SO_SNDBUF, SOCKET_BUFFER);
        }
        let mut sa: libc::sockaddr_in = std::mem::zeroed();
        sa.sin_family = libc::AF_INET as libc::sa_family_t;
        sa.sin_port = port.to_be();
        sa.sin_addr.s_addr = u32::from(ip).to_be();
        let size = std::mem::size_of::<libc::sockaddr_in>() as u32;
        if libc::bind(fd, (&sa as *const libc::sockaddr_in).cast(), size) != 0 {
            return Err(io::Error::last_os_error());
        }
        let mut len = size;
        libc::getsockname(fd, (&mut sa as *mut libc::sockaddr_in).cast(), &mut len);
        Ok((fd, u16::from_be(sa.sin_port)))
    }
}

fn reply(fd: RawFd, to: &libc::sockaddr_in, text: &str) {
    // SAFETY: sends our own bytes to an address the kernel filled in.
    let n = unsafe { libc::sendto(fd, text.as_ptr().cast(), text.len(), 0, (to as *const libc::sockaddr_in).cast(), std::mem::size_of::<libc::sockaddr_in>() as u32) };
    if n < 0 {
        eprintln!("floor: control reply: {}", io::Error::last_os_error());
    }
}

/// The RTP header's length (fixed part, CSRCs, extension), if the packet is RTP and long enough to be SRTP.
fn header_len(p: &[u8]) -> Option<usize> {
    if p.len() < 12 + TAG_LEN || p[0] >> 6 != 2 || (64..96).contains(&(p[1] & 0x7f)) {
        return None; // not RTP, or RTCP (payload types 192–223 with the marker bit)
    }
    let mut len = 12 + 4 * (p[0] & 0x0f) as usize;
    if p[0] & 0x10 != 0 {
        if p.len() < len + 4 {
            return None;
        }
        len += 4 + 4 * u16::from_be_bytes([p[len + 2], p[len + 3]]) as usize;
    }
    (len + TAG_LEN <= p.len()).then_some(len)
}

/// Forwards one received packet (rx buffer `i`) to every output of its route.
fn forward(table: &mut Table, rx: &mut Batch, i: usize, len: usize, tx: &mut Batch, fd: RawFd) {
    let Table { routes, sessions, counters, .. } = table;
    let packet = &mut rx.buf(i)[..len];
    let Some(hlen) = header_len(packet) else {
        counters.malformed += 1;
        return;
    };
    let seq = u16::from_be_bytes([packet[2], packet[3]]);
    let ssrc = u32::from_be_bytes([packet[8], packet[9], packet[10], packet[11]]);
    let Some(route) = routes.get_mut(&ssrc) else {
        counters.unknown_ssrc += 1;
        return;
    };
    let roc = route.index.guess_roc(seq);
    let index = (roc as u64) << 16 | seq as u64;
    if !route.index.fresh(index) {
        counters.replayed += 1;
        return;
    }
    let Some(plain) = route.session.unprotect(packet, hlen, len, ssrc, roc, seq) else {
        counters.auth_failed += 1;
        return;
    };
    route.index.accept(index);
    counters.received += 1;
    for out in &route.outputs {
        if tx.full() {
            counters.send_failed += tx.flush(fd).1;
        }
        let slot = tx.slot();
        slot[..plain].copy_from_slice(&packet[..plain]);
        slot[8..12].copy_from_slice(&out.ssrc.to_be_bytes());
        // Each subscriber's copy keeps the sequence number, so its packet index is the source's.
        let protected = sessions[out.session].protect(slot, hlen, plain, out.ssrc, roc, seq);
        tx.queue(protected, &out.addr);
        counters.forwarded += 1;
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut ip, mut port) = (Ipv4Addr::LOCALHOST, 0u16);
    while let Some(arg) = args.next() {
        let value = args.next().unwrap_or_default();
        match arg.as_str() {
            "--bind" => ip = value.parse().expect("--bind <ipv4>"),
            "--port" => port = value.parse().expect("--port <n>"),
            _ => {
                eprintln!("usage: floor [--bind 127.0.0.1] [--port 0]");
                std::process::exit(2);
            }
        }
    }
    let (fd, port) = bind(ip, port).unwrap_or_else(|e| {
        eprintln!("floor: bind {ip}:{port}: {e}");
        std::process::exit(1);
    });
    println!("listening {ip}:{port}");
    io::stdout().flush().ok();
    let mut table = Table::default();
    let mut rx = Batch::new(RX_BATCH);
    let mut tx = Batch::new(TX_BATCH);
    assert!(tx.capacity() > 0 && rx.capacity() > 0);
    loop {
        let n = match rx.recv(fd) {
            Ok(n) => n,
            Err(e) => {
                eprintln!("floor: recvmmsg: {e}");
                std::process::exit(1);
            }
        };
        for i in 0..n {
            let (len, from) = rx.received(i);
            if len > 0 && rx.buf(i)[0] == b'C' {
                let text = table.control(&rx.buf(i)[..len]);
                reply(fd, &from, &text);
                continue;
            }
            forward(&mut table, &mut rx, i, len, &mut tx, fd);
        }
        if tx.len > 0 {
            table.counters.send_failed += tx.flush(fd).1;
        }
    }
}
