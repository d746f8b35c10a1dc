package encryption

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// EnvelopeVersion is the only encryption_version OpenTofu (1.7 and later)
// writes and reads.
const EnvelopeVersion = "v0"

// Envelope is OpenTofu's JSON wrapper around encrypted data. A plan is
// stored as {"meta","encrypted_data","encryption_version"}; a state also
// carries its "serial" and "lineage" in clear, first, so that tools that
// only compare serials keep working:
//
//	{"serial":3,"lineage":"…","meta":{"key_provider.pbkdf2.k":"<base64 JSON>"},"encrypted_data":"<base64>","encryption_version":"v0"}
//
// Meta maps each key provider's metadata key ("key_provider.TYPE.NAME", or
// its encrypted_metadata_alias) to the JSON metadata the provider needs to
// derive the key again (for pbkdf2: salt, iterations, hash_function,
// key_length); like encrypted_data it is base64 on the wire because
// OpenTofu stores it as bytes.
type Envelope struct {
	// Serial and Lineage are the state's, in clear (states only).
	Serial  *uint64
	Lineage string
	Meta    map[string][]byte
	Data    []byte
	Version string
}

type stateEnvelopeJSON struct {
	Serial  *uint64 `json:"serial"`
	Lineage string  `json:"lineage"`
	planEnvelopeJSON
}

type planEnvelopeJSON struct {
	Meta    map[string][]byte `json:"meta"`
	Data    []byte            `json:"encrypted_data"`
	Version string            `json:"encryption_version"`
}

// MarshalState encodes e as OpenTofu writes an encrypted state (compact
// JSON, serial and lineage first, meta keys sorted).
func (e *Envelope) MarshalState() ([]byte, error) {
	return json.Marshal(stateEnvelopeJSON{Serial: e.Serial, Lineage: e.Lineage, planEnvelopeJSON: e.plan()})
}

// MarshalPlan encodes e as OpenTofu writes an encrypted plan.
func (e *Envelope) MarshalPlan() ([]byte, error) {
	return json.Marshal(e.plan())
}

func (e *Envelope) plan() planEnvelopeJSON {
	meta := e.Meta
	if meta == nil {
		meta = map[string][]byte{}
	}
	return planEnvelopeJSON{Meta: meta, Data: e.Data, Version: e.Version}
}

// IsEnvelope reports whether data is an encryption envelope: a JSON object
// with a non-empty encryption_version, which is how OpenTofu tells an
// encrypted payload from a clear one. A state file or a ZIP archive is not.
func IsEnvelope(data []byte) bool {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '{' {
		return false
	}
	var probe struct {
		Version json.RawMessage `json:"encryption_version"`
	}
	if json.Unmarshal(data, &probe) != nil {
		return false
	}
	var v string
	return json.Unmarshal(probe.Version, &v) == nil && v != ""
}

// DecodeEnvelope reads an envelope, of either form. It refuses malformed
// JSON, a missing or unknown encryption_version, missing encrypted_data and
// metadata values that are not base64. O(len(data)).
func DecodeEnvelope(data []byte) (*Envelope, error) {
	var raw stateEnvelopeJSON
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("the encrypted envelope is not valid JSON: %w", err)
	}
	return checkEnvelope(&raw)
}

// parseEnvelope is DecodeEnvelope for data that may be in clear: ok is
// false when data is not an envelope (not a JSON object, or no
// encryption_version), in one pass over data.
func parseEnvelope(data []byte) (env *Envelope, ok bool, err error) {
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	if len(trimmed) == 0 || trimmed[0] != '{' || !bytes.Contains(data, []byte(`"encryption_version"`)) {
		return nil, false, nil
	}
	var raw stateEnvelopeJSON
	if json.Unmarshal(data, &raw) != nil {
		// Not a well-formed envelope: IsEnvelope says whether it was meant
		// to be one (its encryption_version alone decodes).
		if !IsEnvelope(data) {
			return nil, false, nil
		}
		_, err := DecodeEnvelope(data)
		return nil, true, err
	}
	if raw.Version == "" {
		return nil, false, nil
	}
	env, err = checkEnvelope(&raw)
	return env, true, err
}

func checkEnvelope(raw *stateEnvelopeJSON) (*Envelope, error) {
	switch {
	case raw.Version == "":
		return nil, fmt.Errorf("the envelope has no encryption_version")
	case raw.Version != EnvelopeVersion:
		return nil, fmt.Errorf("encryption_version %q is not supported (only %q is); it was written by a newer OpenTofu", raw.Version, EnvelopeVersion)
	case len(raw.Data) == 0:
		return nil, fmt.Errorf("the envelope has no encrypted_data")
	}
	return &Envelope{Serial: raw.Serial, Lineage: raw.Lineage, Meta: raw.Meta, Data: raw.Data, Version: raw.Version}, nil
}
