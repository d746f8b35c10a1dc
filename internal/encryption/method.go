package encryption

import (
	"crypto/aes"
	"crypto/cipher"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/hashicorp/hcl/v2"
)

// method encrypts and decrypts payloads.
type method interface {
	encrypt(plain []byte) ([]byte, error)
	decrypt(data []byte) ([]byte, error)
}

// errAuth is a decryption that failed authentication: another key, or
// altered data. It never says which.
var errAuth = errors.New("message authentication failed")

// errNoDecryptionKey: the key provider could not derive a decryption key
// (no metadata of its own in the envelope).
var errNoDecryptionKey = errors.New("no decryption key")

// buildMethod evaluates a method block. keys are evaluated through the
// session, which runs the key providers they refer to.
func (s *session) buildMethod(mc *MethodConfig) (method, hcl.Diagnostics) {
	what := fmt.Sprintf("method %q %q", mc.Type, mc.Name)
	switch mc.Type {
	case "aes_gcm":
		return s.buildAESGCM(mc, what)
	case "unencrypted":
		return unencrypted{}, checkAttrs(mc.Attrs, what)
	case "external":
		return s.buildExternalMethod(mc, what)
	}
	return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Unsupported encryption method",
		Detail: fmt.Sprintf("plankit supports the aes_gcm, unencrypted and external methods, not %q.", mc.Type), Subject: mc.DeclRange.Ptr()}}
}

// buildAESGCM evaluates an aes_gcm method block: keys (required), aad.
func (s *session) buildAESGCM(mc *MethodConfig, what string) (method, hcl.Diagnostics) {
	diags := checkAttrs(mc.Attrs, what, "keys", "aad")
	a, ok := mc.Attrs["keys"]
	if !ok {
		return nil, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid " + what,
			Detail: "keys = key_provider.TYPE.NAME is required.", Subject: mc.DeclRange.Ptr()})
	}
	keys, ds := s.evalKeys(a, what)
	diags = append(diags, ds...)
	m := &aesGCM{rand: s.enc.rand()}
	if keys != nil {
		m.encKey, m.decKey = keys.Encryption, keys.Decryption
		if !s.decrypt && !validAESKey(len(m.encKey)) {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid " + what,
				Detail:  fmt.Sprintf("AES-GCM needs a key of 16, 24 or 32 bytes; the encryption key is %d bytes (set the key provider's key_length).", len(m.encKey)),
				Subject: a.Expr.Range().Ptr()})
		}
		if len(m.decKey) > 0 && !validAESKey(len(m.decKey)) {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid " + what,
				Detail:  fmt.Sprintf("AES-GCM needs a key of 16, 24 or 32 bytes; the decryption key is %d bytes.", len(m.decKey)),
				Subject: a.Expr.Range().Ptr()})
		}
	}
	if a, ok := mc.Attrs["aad"]; ok {
		v, ds := s.eval(a.Expr)
		diags = append(diags, ds...)
		if !ds.HasErrors() && v.IsWhollyKnown() {
			b, err := ctyToBytes(v)
			if err != nil {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid " + what,
					Detail: "aad " + err.Error() + ".", Subject: a.Expr.Range().Ptr()})
			}
			m.aad = b
		}
	}
	return m, diags
}

// buildExternalMethod evaluates an external method block: keys
// (optional), encrypt_command and decrypt_command.
func (s *session) buildExternalMethod(mc *MethodConfig, what string) (method, hcl.Diagnostics) {
	diags := checkAttrs(mc.Attrs, what, "keys", "encrypt_command", "decrypt_command")
	m := &externalMethod{}
	if a, ok := mc.Attrs["keys"]; ok {
		k, ds := s.evalKeys(a, what)
		diags = append(diags, ds...)
		m.keys = k
	}
	for _, c := range []struct {
		name string
		dst  *[]string
	}{{"encrypt_command", &m.encryptCommand}, {"decrypt_command", &m.decryptCommand}} {
		a, ok := mc.Attrs[c.name]
		if !ok {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid " + what,
				Detail: c.name + " = [\"PROGRAM\", \"ARG\", ...] is required.", Subject: mc.DeclRange.Ptr()})
			continue
		}
		cmd, ds := s.evalStrings(a, c.name)
		diags = append(diags, ds...)
		if !ds.HasErrors() && cmd != nil && (len(cmd) == 0 || cmd[0] == "") {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid " + what,
				Detail: c.name + " must name a program.", Subject: a.Expr.Range().Ptr()})
		}
		*c.dst = cmd
	}
	return m, diags
}

// evalKeys evaluates a keys argument; nil when unknown (validate mode).
func (s *session) evalKeys(a *hcl.Attribute, what string) (*Keys, hcl.Diagnostics) {
	v, diags := s.eval(a.Expr)
	if diags.HasErrors() || !v.IsWhollyKnown() {
		return nil, diags
	}
	k, err := keysFromCty(v)
	if err != nil {
		return nil, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid " + what,
			Detail: "keys: " + err.Error() + ".", Subject: a.Expr.Range().Ptr()})
	}
	return &k, diags
}

func validAESKey(n int) bool { return n == 16 || n == 24 || n == 32 }

// aesGCM is OpenTofu's aes_gcm method: the output is the 12-byte random
// nonce followed by the GCM ciphertext and its 16-byte tag; aad, when set,
// is authenticated but not stored.
type aesGCM struct {
	encKey, decKey, aad []byte
	rand                io.Reader
}

func (a *aesGCM) encrypt(plain []byte) ([]byte, error) {
	gcm, err := newGCM(a.encKey)
	if err != nil {
		return nil, err
	}
	nonce := make([]byte, gcm.NonceSize(), gcm.NonceSize()+len(plain)+gcm.Overhead())
	if _, err := io.ReadFull(a.rand, nonce); err != nil {
		return nil, fmt.Errorf("drawing a random nonce: %v", err)
	}
	return gcm.Seal(nonce, nonce, plain, a.aad), nil
}

func (a *aesGCM) decrypt(data []byte) ([]byte, error) {
	if len(a.decKey) == 0 {
		return nil, errNoDecryptionKey
	}
	gcm, err := newGCM(a.decKey)
	if err != nil {
		return nil, err
	}
	if len(data) < gcm.NonceSize()+gcm.Overhead() {
		return nil, fmt.Errorf("the encrypted data is too short (%d bytes) to be AES-GCM output", len(data))
	}
	out, err := gcm.Open(nil, data[:gcm.NonceSize()], data[gcm.NonceSize():], a.aad)
	if err != nil {
		return nil, errAuth
	}
	return out, nil
}

func newGCM(key []byte) (cipher.AEAD, error) {
	if !validAESKey(len(key)) {
		return nil, fmt.Errorf("AES-GCM needs a key of 16, 24 or 32 bytes, not %d", len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

// unencrypted is the migration method: data stays in clear.
type unencrypted struct{}

func (unencrypted) encrypt(p []byte) ([]byte, error) { return p, nil }
func (unencrypted) decrypt(p []byte) ([]byte, error) { return p, nil }

// externalMethod is OpenTofu's external method: a program receives
// {"key": base64, "payload": base64} and prints {"payload": base64}.
type externalMethod struct {
	keys                           *Keys
	encryptCommand, decryptCommand []string
}

func (m *externalMethod) encrypt(plain []byte) ([]byte, error) {
	var key []byte
	if m.keys != nil {
		key = m.keys.Encryption
	}
	return m.run(m.encryptCommand, key, plain)
}

func (m *externalMethod) decrypt(data []byte) ([]byte, error) {
	var key []byte
	if m.keys != nil {
		key = m.keys.Decryption
		if len(m.keys.Encryption) > 0 && len(key) == 0 {
			return nil, errNoDecryptionKey
		}
	}
	return m.run(m.decryptCommand, key, data)
}

func (m *externalMethod) run(argv []string, key, payload []byte) ([]byte, error) {
	in, err := json.Marshal(struct {
		Key     []byte `json:"key,omitempty"`
		Payload []byte `json:"payload"`
	}{key, payload})
	if err != nil {
		return nil, err
	}
	out, err := runExternal(argv, ExternalMethodMagic, in)
	if err != nil {
		return nil, err
	}
	var res struct {
		Payload []byte `json:"payload"`
	}
	if err := decodeStrict(out, &res); err != nil {
		return nil, fmt.Errorf("the command %q printed an invalid response (%v)", argv[0], err)
	}
	return res.Payload, nil
}
