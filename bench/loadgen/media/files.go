// Package media reads the pre-encoded files the build script makes with ffmpeg (H264 Annex-B, Opus in Ogg
// with one packet per page) into memory, and plays them out as RTP in real time, looped, without encoding.
package media

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/pion/webrtc/v4/pkg/media/h264reader"
	"github.com/pion/webrtc/v4/pkg/media/oggreader"
)

// Frame is one access unit of H264 in Annex-B form (start codes included), or one Opus packet.
type Frame struct {
	Data []byte
	// Key is true for an H264 IDR frame (with its SPS and PPS in front).
	Key bool
}

// Clip is a looped source: its frames and how far apart they are in RTP clock ticks.
type Clip struct {
	Frames []Frame
	// Ticks between frames at the codec's RTP clock (3000 at 90 kHz for 30 fps; 960 at 48 kHz for 20 ms).
	Ticks uint32
	// Interval between frames in nanoseconds.
	IntervalNs int64
}

// Files are the clips of one run.
type Files struct {
	Audio *Clip
	Video *Clip
	Small *Clip
}

var startCode = []byte{0, 0, 0, 1}

// ReadH264 groups an Annex-B file's NAL units into access units: parameter sets go in front of the next
// slice; SEI and access-unit delimiters are dropped (nobody decodes). x264 writes one slice per frame.
func ReadH264(path string, fps int) (*Clip, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	reader, err := h264reader.NewReader(f)
	if err != nil {
		return nil, err
	}
	clip := &Clip{Ticks: uint32(90000 / fps), IntervalNs: int64(1e9 / fps)}
	var pending bytes.Buffer
	key := false
	for {
		nal, err := reader.NextNAL()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		switch nal.UnitType {
		case h264reader.NalUnitTypeSEI, h264reader.NalUnitTypeAUD:
			continue
		case h264reader.NalUnitTypeSPS, h264reader.NalUnitTypePPS:
			pending.Write(startCode)
			pending.Write(nal.Data)
		case h264reader.NalUnitTypeCodedSliceIdr, h264reader.NalUnitTypeCodedSliceNonIdr:
			pending.Write(startCode)
			pending.Write(nal.Data)
			if nal.UnitType == h264reader.NalUnitTypeCodedSliceIdr {
				key = true
			}
			clip.Frames = append(clip.Frames, Frame{Data: append([]byte(nil), pending.Bytes()...), Key: key})
			pending.Reset()
			key = false
		}
	}
	if len(clip.Frames) == 0 || !clip.Frames[0].Key {
		return nil, fmt.Errorf("%s: no frames, or the first is not a key frame", path)
	}
	return clip, nil
}

// ReadOpus reads an Ogg Opus file written with one packet per page (ffmpeg -page_duration 20000).
func ReadOpus(path string) (*Clip, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	reader, _, err := oggreader.NewWith(f)
	if err != nil {
		return nil, err
	}
	clip := &Clip{Ticks: 960, IntervalNs: 20e6}
	for {
		payload, _, err := reader.ParseNextPage()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if bytes.HasPrefix(payload, []byte("OpusTags")) || bytes.HasPrefix(payload, []byte("OpusHead")) || len(payload) == 0 {
			continue
		}
		clip.Frames = append(clip.Frames, Frame{Data: payload})
	}
	if len(clip.Frames) == 0 {
		return nil, fmt.Errorf("%s: no opus packets", path)
	}
	return clip, nil
}

// Load reads the three clips of dir (names as bench/loadgen/build.sh writes them).
func Load(dir string) (*Files, error) {
	audio, err := ReadOpus(dir + "/audio.opus.ogg")
	if err != nil {
		return nil, err
	}
	video, err := ReadH264(dir+"/video-360p30.h264", 30)
	if err != nil {
		return nil, err
	}
	small, err := ReadH264(dir+"/video-180p15.h264", 15)
	if err != nil {
		return nil, err
	}
	return &Files{Audio: audio, Video: video, Small: small}, nil
}
