package statemgr

import "fmt"

// Codec transforms a state file's bytes between their stored form and the
// v4 JSON the manager reads and writes: state encryption. The manager
// calls it only for a non-empty file.
type Codec interface {
	// Decode returns the v4 JSON held in stored. rewrite reports that the
	// stored form is outdated (read with a fallback key, or in clear while
	// encryption is configured), so the next persist writes the state again
	// even if it did not change.
	Decode(stored []byte) (plain []byte, rewrite bool, err error)
	// Encode returns the form to store for the v4 JSON plain.
	Encode(plain []byte) ([]byte, error)
}

// ClearCodec is a Codec that can tell that it stores states in clear:
// Encode returns its input as it is (no encryption configured; Decode
// still refuses an encrypted file). The manager then streams a state into
// its file instead of encoding it whole in memory first, and journal
// records skip Encode.
type ClearCodec interface {
	Codec
	StoresClear() bool
}

// storesClear reports whether c's Encode leaves bytes as they are (nil
// does).
func storesClear(c Codec) bool {
	if c == nil {
		return true
	}
	cc, ok := c.(ClearCodec)
	return ok && cc.StoresClear()
}

// SetCodec makes the manager store states through c (nil: as they are).
// Set it before the first read. The backup is written through c too.
func (s *Filesystem) SetCodec(c Codec) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.codec = c
}

// NeedsRewrite reports whether the state was read in an outdated stored
// form (see Codec), so that persisting it now would rewrite it in the
// current one even with no change.
func (s *Filesystem) NeedsRewrite() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rewrite
}

func (s *Filesystem) decode(src []byte) ([]byte, error) {
	if s.codec == nil || len(src) == 0 {
		return src, nil
	}
	plain, rewrite, err := s.codec.Decode(src)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.path, err)
	}
	s.rewrite = rewrite
	return plain, nil
}

func (s *Filesystem) encode(plain []byte) ([]byte, error) {
	if s.codec == nil {
		return plain, nil
	}
	out, err := s.codec.Encode(plain)
	if err != nil {
		return nil, fmt.Errorf("writing %s: %w", s.path, err)
	}
	return out, nil
}
