import type { RTCPeerConnection } from 'werift';
import { closePeer } from './peer-factory.js';

/** DTLS record content type of an alert (RFC 6347 / 5246), and close_notify's level and description. */
const ALERT = 21;
const CLOSE_NOTIFY = Buffer.from([1, 0]);

/** The record fields werift's cipher context encrypts (its DtlsPlaintext; the class is not exported). */
interface RecordFields {
  recordLayerHeader: { contentType: number; protocolVersion: { major: number; minor: number }; epoch: number; sequenceNumber: number; contentLen: number };
  fragment: Buffer;
}

/** The parts of werift's DtlsSocket (not in its typings' public surface) the close uses. */
interface DtlsSocketFields {
  connected?: boolean;
  dtls: { version: { major: number; minor: number }; epoch: number; recordSequenceNumber: number };
  cipher: { encryptPacket(record: RecordFields): RecordFields };
}

/** The synchronous send the toolkit gives werift's ICE connections (rtp-send.ts). */
interface IceSendFields {
  conclaveSendNow(data: Buffer): void;
}

/**
 * Sends an encrypted DTLS close_notify on each of the peer connection's transports that completed its handshake.
 * werift's own close sends none, so a werift peer on the other side (the node-to-node relay's other end) would see
 * the link go only when ICE consent expires (some 30 s); with it, its DTLS transport turns 'closed' at once, as
 * when a browser closes. A transport not connected is skipped; true when one was sent. closePeerNotifying uses it.
 */
export function sendDtlsCloseNotify(pc: RTCPeerConnection): boolean {
  let sent = false;
  for (const transport of pc.dtlsTransports) {
    const socket = transport.dtls as unknown as DtlsSocketFields | undefined;
    if (!socket || transport.state !== 'connected') continue;
    const { version, epoch } = socket.dtls;
    const record: RecordFields = {
      recordLayerHeader: { contentType: ALERT, protocolVersion: version, epoch, sequenceNumber: ++socket.dtls.recordSequenceNumber, contentLen: CLOSE_NOTIFY.length },
      fragment: Buffer.from(CLOSE_NOTIFY),
    };
    const encrypted = socket.cipher.encryptPacket(record);
    const header = encrypted.recordLayerHeader;
    const out = Buffer.alloc(13 + encrypted.fragment.length);
    out.writeUInt8(header.contentType, 0);
    out.writeUInt8(header.protocolVersion.major, 1);
    out.writeUInt8(header.protocolVersion.minor, 2);
    out.writeUInt16BE(header.epoch, 3);
    out.writeUIntBE(header.sequenceNumber, 5, 6);
    out.writeUInt16BE(encrypted.fragment.length, 11);
    encrypted.fragment.copy(out, 13);
    try {
      // Synchronous, so it leaves before closePeer closes the socket.
      (transport.iceTransport.connection as unknown as IceSendFields).conclaveSendNow(out);
      sent = true;
    } catch {
      // The socket is closed already: the far side learns it from ICE consent, as without the alert.
    }
  }
  return sent;
}

/**
 * Closes a peer connection whose far side is a werift peer of another node: a DTLS close_notify first, then
 * closePeer a turn later (node's UDP send of it completes on a later tick: a socket closed in the same one drops it).
 */
export function closePeerNotifying(pc: RTCPeerConnection): void {
  if (sendDtlsCloseNotify(pc)) setImmediate(() => closePeer(pc));
  else closePeer(pc);
}
