package planfile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
)

// EntryBackend records which state backend and workspace the plan was made
// for: {"type": "pg", "workspace": "staging", "config": {"schema_name":
// ..., "conn_str": ...}}. It holds no secret: the writer's caller removes
// passwords before recording (see backend/pg.RedactConnStr), and apply
// takes credentials from its environment. Archives without it were made
// for the local backend's default workspace.
const EntryBackend = "tfbackend.json"

// Backend is the plan's state backend: its type, the workspace, and the
// non-secret settings apply needs to reach the same state.
type Backend struct {
	Type      string            `json:"type"`
	Workspace string            `json:"workspace"`
	Config    map[string]string `json:"config,omitempty"`
}

// encodeBackend is the entry's bytes: keys sorted, as encoding/json does for
// maps, so the archive stays byte-reproducible.
func encodeBackend(b *Backend) ([]byte, error) {
	if b.Type == "" || b.Workspace == "" {
		return nil, fmt.Errorf("planfile: the backend record needs a type and a workspace")
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(b); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// ReadBackend returns the backend the plan was made for, or nil when the
// archive records none (the local backend's default workspace).
func (r *Reader) ReadBackend() (*Backend, error) {
	data, ok := r.entries[EntryBackend]
	if !ok {
		return nil, nil
	}
	var b Backend
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		return nil, r.withPath(wrapErr(KindCorrupt, EntryBackend, err))
	}
	if b.Type == "" || b.Workspace == "" {
		return nil, r.withPath(wrapErr(KindCorrupt, EntryBackend, fmt.Errorf("the backend record has no type or workspace")))
	}
	return &b, nil
}

// ConfigKeys returns the recorded setting names, sorted.
func (b *Backend) ConfigKeys() []string { return slices.Sorted(maps.Keys(b.Config)) }
