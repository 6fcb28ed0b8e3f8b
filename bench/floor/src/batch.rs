//! Batched UDP I/O: `recvmmsg` into a fixed set of buffers, `sendmmsg` from another; everything allocated
//! once, so the forwarding loop allocates nothing per packet.
use std::io;
use std::os::fd::RawFd;

pub const BUF_LEN: usize = 2048;

/// `count` buffers of BUF_LEN bytes with their iovecs, message headers and addresses.
pub struct Batch {
    bufs: Vec<u8>,
    iovs: Vec<libc::iovec>,
    addrs: Vec<libc::sockaddr_in>,
    hdrs: Vec<libc::mmsghdr>,
    /// Messages queued (sending) or received.
    pub len: usize,
}

impl Batch {
    pub fn new(count: usize) -> Batch {
        let mut b = Batch {
            bufs: vec![0u8; count * BUF_LEN],
            // SAFETY: iovec, sockaddr_in and mmsghdr are plain C data; all-zero is valid, the pointers are set below.
            iovs: vec![unsafe { std::mem::zeroed() }; count],
            addrs: vec![unsafe { std::mem::zeroed() }; count],
            hdrs: vec![unsafe { std::mem::zeroed() }; count],
            len: 0,
        };
        // The vectors never grow, so these pointers stay valid for the batch's life.
        for i in 0..count {
            b.iovs[i].iov_base = b.bufs[i * BUF_LEN..].as_mut_ptr().cast();
            b.iovs[i].iov_len = BUF_LEN;
            let h = &mut b.hdrs[i].msg_hdr;
            h.msg_iov = &mut b.iovs[i];
            h.msg_iovlen = 1;
            h.msg_name = (&mut b.addrs[i] as *mut libc::sockaddr_in).cast();
            h.msg_namelen = std::mem::size_of::<libc::sockaddr_in>() as u32;
        }
        b
    }

    pub fn capacity(&self) -> usize {
        self.hdrs.len()
    }

    pub fn full(&self) -> bool {
        self.len == self.hdrs.len()
    }

    /// Buffer `i`.
    pub fn buf(&mut self, i: usize) -> &mut [u8] {
        &mut self.bufs[i * BUF_LEN..(i + 1) * BUF_LEN]
    }

    /// Length of received message `i`, and where it came from.
    pub fn received(&self, i: usize) -> (usize, libc::sockaddr_in) {
        (self.hdrs[i].msg_len as usize, self.addrs[i])
    }

    /// Blocks for at least one datagram, then takes what is queued, up to the capacity.
    pub fn recv(&mut self, fd: RawFd) -> io::Result<usize> {
        for h in &mut self.hdrs {
            h.msg_hdr.msg_namelen = std::mem::size_of::<libc::sockaddr_in>() as u32;
        }
        loop {
            // SAFETY: the headers point into this batch's own buffers, sized as they say.
            let n = unsafe { libc::recvmmsg(fd, self.hdrs.as_mut_ptr(), self.hdrs.len() as u32, libc::MSG_WAITFORONE, std::ptr::null_mut()) };
            if n >= 0 {
                self.len = n as usize;
                return Ok(self.len);
            }
            let err = io::Error::last_os_error();
            if err.kind() != io::ErrorKind::Interrupted {
                return Err(err);
            }
        }
    }

    /// The next send slot: its buffer, to fill; `queue` then commits it.
    pub fn slot(&mut self) -> &mut [u8] {
        let i = self.len;
        self.buf(i)
    }

    /// Queues the filled slot: `len` bytes to `addr`.
    pub fn queue(&mut self, len: usize, addr: &libc::sockaddr_in) {
        let i = self.len;
        self.iovs[i].iov_len = len;
        self.addrs[i] = *addr;
        self.len += 1;
    }

    /// Sends every queued message with as few `sendmmsg` calls as the kernel allows; returns (sent, failed).
    /// A message the kernel refuses is counted and skipped, the rest still go.
    pub fn flush(&mut self, fd: RawFd) -> (u64, u64) {
        let (mut done, mut failed) = (0usize, 0u64);
        while done < self.len {
            // SAFETY: as in recv; only the queued headers are passed.
            let n = unsafe { libc::sendmmsg(fd, self.hdrs[done..].as_mut_ptr(), (self.len - done) as u32, 0) };
            if n > 0 {
                done += n as usize;
            } else if io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
                done += 1;
                failed += 1;
            }
        }
        let sent = (self.len as u64) - failed;
        self.len = 0;
        (sent, failed)
    }
}
