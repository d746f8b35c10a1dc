// Package store keeps the test providers' objects as one JSON file per
// object: DIR/KIND/ID.json, written atomically.
package store

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Store is a directory of objects. Token is fwtest's provider token,
// recorded in the objects fwtest_thing writes (when not empty).
type Store struct {
	Dir   string
	Token string
}

// Record is one stored object.
type Record map[string]any

func (s Store) path(kind, id string) (string, error) {
	if s.Dir == "" {
		return "", errors.New("no state directory configured")
	}
	if id == "" || filepath.Base(id) != id || id == "." || id == ".." {
		return "", fmt.Errorf("invalid object id %q", id)
	}
	return filepath.Join(s.Dir, kind, id+".json"), nil
}

// Put writes rec as object id of kind.
func (s Store) Put(kind, id string, rec Record) error {
	p, err := s.path(kind, id)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	tmp := p + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, p)
}

// Get reads object id of kind; ok is false when it does not exist.
func (s Store) Get(kind, id string) (rec Record, ok bool, err error) {
	p, err := s.path(kind, id)
	if err != nil {
		return nil, false, err
	}
	b, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	if err := json.Unmarshal(b, &rec); err != nil {
		return nil, false, fmt.Errorf("%s: %w", p, err)
	}
	return rec, true, nil
}

// Delete removes object id of kind; deleting a missing object is no error.
func (s Store) Delete(kind, id string) error {
	p, err := s.path(kind, id)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// NewID returns a random object id.
func NewID() string {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b[:])
}

// String returns rec[key] as a string ("" when absent or not a string).
func (r Record) String(key string) string {
	s, _ := r[key].(string)
	return s
}

// Has reports whether rec has key with a non-null value.
func (r Record) Has(key string) bool {
	v, ok := r[key]
	return ok && v != nil
}
