package encryption

import "fmt"

// Kind classifies why a state or plan could not be encrypted or
// decrypted. A Kind is itself an error: errors.Is(err,
// encryption.KindKeyMismatch). No error of this package ever holds key
// material (passphrases, derived keys, key provider output).
type Kind int

const (
	// KindKeyMismatch: every configured method failed to authenticate the
	// ciphertext: another key (wrong passphrase), or an altered file.
	KindKeyMismatch Kind = iota + 1
	// KindNotConfigured: the data is encrypted but no encryption is
	// configured for its target.
	KindNotConfigured
	// KindUnencrypted: the data is not encrypted but the configuration
	// requires encryption (no unencrypted method among the fallbacks).
	KindUnencrypted
	// KindEnvelope: the encrypted envelope is malformed, of an unknown
	// version, or its clear fields do not match the decrypted content.
	KindEnvelope
	// KindKeyProvider: a key provider failed (external command error,
	// unreadable metadata, missing decryption key).
	KindKeyProvider
	// KindMethod: an encryption method failed for another reason than a
	// key mismatch (external method error, bad key length).
	KindMethod
)

var kindNames = [...]string{
	KindKeyMismatch: "the key does not match", KindNotConfigured: "encrypted, but no encryption is configured",
	KindUnencrypted: "not encrypted, but encryption is required", KindEnvelope: "invalid encrypted envelope",
	KindKeyProvider: "key provider failed", KindMethod: "encryption method failed",
}

// Error returns the kind's short description.
func (k Kind) Error() string {
	if k > 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("encryption.Kind(%d)", int(k))
}

// Error is why a state or plan could not be encrypted or decrypted.
type Error struct {
	Kind Kind
	// Op is "encrypt" or "decrypt"; Target is "state" or "plan".
	Op, Target string
	// Detail says what was tried and what to do; never key material.
	Detail string
}

// Error reads like "cannot decrypt the state: the key does not match; ...".
func (e *Error) Error() string {
	s := fmt.Sprintf("cannot %s the %s: %s", e.Op, e.Target, e.Kind.Error())
	if e.Detail != "" {
		s += "; " + e.Detail
	}
	return s
}

// Is makes errors.Is(err, kind) work.
func (e *Error) Is(target error) bool {
	k, ok := target.(Kind)
	return ok && k == e.Kind
}
