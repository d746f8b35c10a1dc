package fastmsgpack

import (
	"encoding/binary"
	"fmt"
)

// CheckBounds walks msgpack bytes and checks that every length they
// declare (strings, binaries, extensions, array and map element counts)
// fits in the bytes that remain. go-cty's decoder preallocates from those
// counts, so a five-byte hostile value could otherwise ask for gigabytes
// before failing. Every element takes at least one byte, so after this
// check allocation is bounded by the input size. O(len(b)), no recursion.
func CheckBounds(b []byte) error {
	pending := 1 // items still to read
	for pending > 0 {
		if len(b) == 0 {
			return fmt.Errorf("msgpack value ends early")
		}
		c := b[0]
		b = b[1:]
		pending--
		var skip, items uint64 // bytes to skip; elements that follow
		switch {
		case c <= 0x7f || c >= 0xe0 || c == 0xc0 || c == 0xc2 || c == 0xc3:
			// fixints, nil, booleans
		case c >= 0x80 && c <= 0x8f:
			items = 2 * uint64(c&0x0f)
		case c >= 0x90 && c <= 0x9f:
			items = uint64(c & 0x0f)
		case c >= 0xa0 && c <= 0xbf:
			skip = uint64(c & 0x1f)
		default:
			var err error
			if b, skip, items, err = msgpackHeader(c, b); err != nil {
				return err
			}
		}
		if skip > uint64(len(b)) {
			return fmt.Errorf("msgpack value declares %d bytes but only %d remain", skip, len(b))
		}
		b = b[skip:]
		if items > uint64(len(b)) {
			return fmt.Errorf("msgpack value declares %d elements but only %d bytes remain", items, len(b))
		}
		pending += int(items)
	}
	return nil
}

// msgpackHeader decodes the multi-byte headers: it returns the rest of b
// after the header, the payload bytes to skip, and the element count.
func msgpackHeader(c byte, b []byte) (rest []byte, skip, items uint64, err error) {
	// n reads a big-endian length of size bytes.
	n := func(size int) (uint64, bool) {
		if len(b) < size {
			return 0, false
		}
		v := bigEndian(b[:size])
		b = b[size:]
		return v, true
	}
	ok := true
	switch c {
	case 0xc4, 0xd9: // bin8, str8
		skip, ok = n(1)
	case 0xc5, 0xda: // bin16, str16
		skip, ok = n(2)
	case 0xc6, 0xdb: // bin32, str32
		skip, ok = n(4)
	case 0xc7: // ext8/16/32: a length, then a type byte and the payload
		skip, ok = n(1)
		skip++
	case 0xc8:
		skip, ok = n(2)
		skip++
	case 0xc9:
		skip, ok = n(4)
		skip++
	case 0xca:
		skip = 4
	case 0xcb:
		skip = 8
	case 0xcc, 0xd0:
		skip = 1
	case 0xcd, 0xd1:
		skip = 2
	case 0xce, 0xd2:
		skip = 4
	case 0xcf, 0xd3:
		skip = 8
	case 0xd4, 0xd5, 0xd6, 0xd7, 0xd8: // fixext 1, 2, 4, 8, 16 plus a type byte
		skip = 1 + 1<<(c-0xd4)
	case 0xdc:
		items, ok = n(2)
	case 0xdd:
		items, ok = n(4)
	case 0xde:
		items, ok = n(2)
		items *= 2
	case 0xdf:
		items, ok = n(4)
		items *= 2
	default:
		return nil, 0, 0, fmt.Errorf("msgpack byte 0x%02x is not a valid type", c)
	}
	if !ok {
		return nil, 0, 0, fmt.Errorf("msgpack header ends early")
	}
	return b, skip, items, nil
}

// bigEndian reads p, of 1, 2, 4 or 8 bytes, as a big-endian unsigned
// integer: the lengths and integers of msgpack headers.
func bigEndian(p []byte) uint64 {
	switch len(p) {
	case 1:
		return uint64(p[0])
	case 2:
		return uint64(binary.BigEndian.Uint16(p))
	case 4:
		return uint64(binary.BigEndian.Uint32(p))
	}
	return binary.BigEndian.Uint64(p)
}
