// Package rtc builds Pion peer connections the way the SDK's are (H264 and Opus, NACK, PLI, RTCP reports,
// transport-wide CC feedback, max-bundle), on loopback only, and counts the NACKs subscribers send.
package rtc

import (
	"github.com/conclave/bench/loadgen/stats"
	"github.com/pion/ice/v4"
	"github.com/pion/interceptor"
	"github.com/pion/rtcp"
	"github.com/pion/sdp/v3"
	"github.com/pion/webrtc/v4"
)

// Payload types as Chromium offers them (the server answers with its own when it differs).
const (
	opusPT = 111
	h264PT = 102
	// Baseline (42001f) besides constrained baseline (42e01f): an answer may pick either.
	h264BaselinePT = 127
)

var videoFeedback = []webrtc.RTCPFeedback{{Type: "goog-remb"}, {Type: "transport-cc"}, {Type: "ccm", Parameter: "fir"}, {Type: "nack"}, {Type: "nack", Parameter: "pli"}}

// OpusCodec and H264Codec are the capabilities of the tracks publishers send.
var (
	OpusCodec = webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeOpus, ClockRate: 48000, Channels: 2, SDPFmtpLine: "minptime=10;useinbandfec=1", RTCPFeedback: []webrtc.RTCPFeedback{{Type: "transport-cc"}}}
	H264Codec = webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeH264, ClockRate: 90000, SDPFmtpLine: "level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f", RTCPFeedback: videoFeedback}
)

// nackCounter counts the packets the NACKs written on a connection ask for. It is added before the
// default interceptors, so it wraps the writer the NACK generator writes to.
type nackCounter struct{ interceptor.NoOp }

func (*nackCounter) BindRTCPWriter(writer interceptor.RTCPWriter) interceptor.RTCPWriter {
	return interceptor.RTCPWriterFunc(func(pkts []rtcp.Packet, attrs interceptor.Attributes) (int, error) {
		for _, p := range pkts {
			if nack, ok := p.(*rtcp.TransportLayerNack); ok {
				n := 0
				for _, pair := range nack.Nacks {
					n += len(pair.PacketList())
				}
				stats.ByKind[stats.Video].NacksSent.Add(int64(n))
			}
		}
		return writer.Write(pkts, attrs)
	})
}

type nackCounterFactory struct{}

func (nackCounterFactory) NewInterceptor(string) (interceptor.Interceptor, error) {
	return &nackCounter{}, nil
}

// NewAPI returns a Pion API for connections to a server on this machine.
func NewAPI() (*webrtc.API, error) {
	m := &webrtc.MediaEngine{}
	if err := m.RegisterCodec(webrtc.RTPCodecParameters{RTPCodecCapability: OpusCodec, PayloadType: opusPT}, webrtc.RTPCodecTypeAudio); err != nil {
		return nil, err
	}
	if err := m.RegisterCodec(webrtc.RTPCodecParameters{RTPCodecCapability: H264Codec, PayloadType: h264PT}, webrtc.RTPCodecTypeVideo); err != nil {
		return nil, err
	}
	baseline := H264Codec
	baseline.SDPFmtpLine = "level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42001f"
	if err := m.RegisterCodec(webrtc.RTPCodecParameters{RTPCodecCapability: baseline, PayloadType: h264BaselinePT}, webrtc.RTPCodecTypeVideo); err != nil {
		return nil, err
	}
	for _, kind := range []webrtc.RTPCodecType{webrtc.RTPCodecTypeAudio, webrtc.RTPCodecTypeVideo} {
		if err := m.RegisterHeaderExtension(webrtc.RTPHeaderExtensionCapability{URI: sdp.SDESMidURI}, kind); err != nil {
			return nil, err
		}
	}
	if err := m.RegisterHeaderExtension(webrtc.RTPHeaderExtensionCapability{URI: sdp.ABSSendTimeURI}, webrtc.RTPCodecTypeVideo); err != nil {
		return nil, err
	}
	registry := &interceptor.Registry{}
	registry.Add(nackCounterFactory{})
	// Pion's defaults less its stats interceptor (getStats, which nobody calls here): it parsed every received
	// packet once more and took a lock for it, ~3 % of the generator's CPU in a profile (bench/README.md "Load").
	if err := webrtc.ConfigureNack(m, registry); err != nil {
		return nil, err
	}
	if err := webrtc.ConfigureRTCPReports(registry); err != nil {
		return nil, err
	}
	if err := webrtc.ConfigureSimulcastExtensionHeaders(m); err != nil {
		return nil, err
	}
	if err := webrtc.ConfigureTWCCSender(m, registry); err != nil {
		return nil, err
	}
	se := webrtc.SettingEngine{}
	se.SetNetworkTypes([]webrtc.NetworkType{webrtc.NetworkTypeUDP4})
	se.SetICEMulticastDNSMode(ice.MulticastDNSModeDisabled)
	se.SetIncludeLoopbackCandidate(true)
	// Not loopback alone: Janus never gathers on loopback interfaces, its candidates are this machine's others.
	return webrtc.NewAPI(webrtc.WithMediaEngine(m), webrtc.WithInterceptorRegistry(registry), webrtc.WithSettingEngine(se)), nil
}

// Config of every connection: one transport (max-bundle), RTCP multiplexed, no ICE servers (loopback).
var Config = webrtc.Configuration{BundlePolicy: webrtc.BundlePolicyMaxBundle, RTCPMuxPolicy: webrtc.RTCPMuxPolicyRequire}

// Connected returns a channel closed once pc is connected, and one that receives when it failed or closed.
func Connected(pc *webrtc.PeerConnection) (<-chan struct{}, <-chan struct{}) {
	ok, failed := make(chan struct{}), make(chan struct{}, 1)
	done := false
	pc.OnConnectionStateChange(func(state webrtc.PeerConnectionState) {
		switch state {
		case webrtc.PeerConnectionStateConnected:
			if !done {
				done = true
				close(ok)
			}
		case webrtc.PeerConnectionStateFailed, webrtc.PeerConnectionStateClosed:
			select {
			case failed <- struct{}{}:
			default:
			}
		}
	})
	return ok, failed
}
