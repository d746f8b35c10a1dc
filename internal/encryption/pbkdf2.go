package encryption

import (
	"crypto/pbkdf2"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/json"
	"fmt"
	"hash"
	"io"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// PBKDF2 key provider parameters, as OpenTofu defines them.
const (
	PBKDF2DefaultKeyLength    = 32 // bytes: an AES-256 key
	PBKDF2DefaultIterations   = 600000
	PBKDF2DefaultSaltLength   = 32 // bytes
	PBKDF2DefaultHashFunction = "sha512"
	PBKDF2MinimumIterations   = 200000
	PBKDF2MinimumPassphrase   = 16 // characters (bytes of UTF-8)
)

var pbkdf2Hashes = map[string]func() hash.Hash{"sha256": sha256.New, "sha512": sha512.New}

// pbkdf2Meta is what the pbkdf2 provider stores in the envelope, as JSON:
// {"salt":"<base64>","iterations":N,"hash_function":"sha512","key_length":N}.
type pbkdf2Meta struct {
	Salt         []byte `json:"salt"`
	Iterations   int    `json:"iterations"`
	HashFunction string `json:"hash_function"`
	KeyLength    int    `json:"key_length"`
}

func (m pbkdf2Meta) present() bool {
	return len(m.Salt) != 0 && m.Iterations != 0 && m.HashFunction != "" && m.KeyLength != 0
}

// pbkdf2Provider derives keys from a passphrase (or a chained provider's
// keys) with PBKDF2. Each encryption draws a new salt.
type pbkdf2Provider struct {
	passphrase            string
	chain                 *Keys
	keyLength, iterations int
	saltLength            int
	hashFunction          string
	rand                  io.Reader
}

func (s *session) decodePBKDF2(kp *KeyProviderConfig, attrs hcl.Attributes) (keyProvider, hcl.Diagnostics) {
	what := fmt.Sprintf("key_provider %q %q", kp.Type, kp.Name)
	diags := checkAttrs(attrs, what, "passphrase", "chain", "key_length", "iterations", "salt_length", "hash_function")
	p := &pbkdf2Provider{keyLength: PBKDF2DefaultKeyLength, iterations: PBKDF2DefaultIterations, saltLength: PBKDF2DefaultSaltLength,
		hashFunction: PBKDF2DefaultHashFunction, rand: s.enc.rand()}
	bad := func(a *hcl.Attribute, format string, args ...any) {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid " + what,
			Detail: fmt.Sprintf(format, args...), Subject: a.Expr.Range().Ptr()})
	}
	diags = append(diags, s.decodePBKDF2Secret(kp, attrs, p, what)...)
	for _, f := range []struct {
		name     string
		dst      *int
		min, max int
		msg      string
	}{
		{"key_length", &p.keyLength, 1, 1024, "key_length must be from 1 to 1024 (bytes; AES-GCM takes 16, 24 or 32)."},
		{"iterations", &p.iterations, s.enc.minIterations(), 100_000_000, fmt.Sprintf("iterations must be at least %d (the default is %d; fewer make the passphrase easy to guess) and at most 100000000.", s.enc.minIterations(), PBKDF2DefaultIterations)},
		{"salt_length", &p.saltLength, 1, 1024, "salt_length must be from 1 to 1024 (bytes)."},
	} {
		a, ok := attrs[f.name]
		if !ok {
			continue
		}
		n, isKnown, ds := s.evalInt(a, f.name)
		diags = append(diags, ds...)
		if !isKnown {
			continue
		}
		*f.dst = n
		if n < f.min || n > f.max {
			bad(a, "%s", f.msg)
		}
	}
	if a, ok := attrs["hash_function"]; ok {
		h, ds := s.evalString(a, "hash_function")
		diags = append(diags, ds...)
		if !ds.HasErrors() && a.Expr != nil && h != "" {
			p.hashFunction = h
			if pbkdf2Hashes[h] == nil {
				bad(a, "hash_function must be \"sha256\" or \"sha512\", not %q.", h)
			}
		}
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return p, diags
}

// decodePBKDF2Secret reads passphrase or chain (exactly one is required)
// into p. The passphrase never appears in a diagnostic.
func (s *session) decodePBKDF2Secret(kp *KeyProviderConfig, attrs hcl.Attributes, p *pbkdf2Provider, what string) hcl.Diagnostics {
	var diags hcl.Diagnostics
	known := true
	bad := func(a *hcl.Attribute, format string, args ...any) {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid " + what,
			Detail: fmt.Sprintf(format, args...), Subject: a.Expr.Range().Ptr()})
	}
	passAttr, hasPass := attrs["passphrase"]
	chainAttr, hasChain := attrs["chain"]
	if hasPass {
		v, ds := s.evalTo(passAttr, cty.String, "passphrase must be a string.")
		diags = append(diags, ds...)
		if !ds.HasErrors() {
			if v.IsKnown() {
				p.passphrase = v.AsString()
				if p.passphrase != "" && len(p.passphrase) < PBKDF2MinimumPassphrase {
					bad(passAttr, "The passphrase is too short: it must have at least %d characters.", PBKDF2MinimumPassphrase)
				}
			} else {
				known = false
			}
		}
	}
	if hasChain {
		v, ds := s.eval(chainAttr.Expr)
		diags = append(diags, ds...)
		if !ds.HasErrors() {
			if v.IsWhollyKnown() {
				k, err := keysFromCty(v)
				if err != nil {
					bad(chainAttr, "chain: %s.", err)
				} else {
					p.chain = &k
					if len(k.Encryption) > 0 && len(k.Encryption) < PBKDF2MinimumPassphrase || len(k.Decryption) > 0 && len(k.Decryption) < PBKDF2MinimumPassphrase {
						bad(chainAttr, "The chained key provider gives a key shorter than %d bytes.", PBKDF2MinimumPassphrase)
					}
				}
			} else {
				known = false
			}
		}
	}
	switch {
	case hasPass && hasChain:
		bad(passAttr, "Set either passphrase or chain, not both.")
	case !hasPass && !hasChain || known && hasPass && p.passphrase == "":
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid " + what,
			Detail: "A passphrase (at least 16 characters) or a chain = key_provider.TYPE.NAME is required.", Subject: kp.DeclRange.Ptr()})
	}
	return diags
}

func (p *pbkdf2Provider) provide(rawMeta []byte, encrypt bool) (Keys, []byte, error) {
	var keys Keys
	if len(rawMeta) > 0 {
		var in pbkdf2Meta
		if err := json.Unmarshal(rawMeta, &in); err != nil {
			return keys, nil, fmt.Errorf("the metadata stored with the encrypted data is not readable (%v)", err)
		}
		if in.present() {
			h := pbkdf2Hashes[in.HashFunction]
			switch {
			case h == nil:
				return keys, nil, fmt.Errorf("the stored metadata names an unknown hash function %q", in.HashFunction)
			case in.Iterations < 0 || in.KeyLength < 0 || in.KeyLength > 1024 || in.Iterations > 100_000_000:
				return keys, nil, fmt.Errorf("the stored metadata has invalid parameters (iterations %d, key_length %d)", in.Iterations, in.KeyLength)
			}
			pass := p.passphrase
			if p.chain != nil {
				pass = string(p.chain.Decryption)
			}
			k, err := pbkdf2.Key(h, pass, in.Salt, in.Iterations, in.KeyLength)
			if err != nil {
				return keys, nil, fmt.Errorf("deriving the decryption key: %v", err)
			}
			keys.Decryption = k
		}
	}
	if !encrypt {
		return keys, nil, nil
	}
	out := pbkdf2Meta{Salt: make([]byte, p.saltLength), Iterations: p.iterations, HashFunction: p.hashFunction, KeyLength: p.keyLength}
	if _, err := io.ReadFull(p.rand, out.Salt); err != nil {
		return keys, nil, fmt.Errorf("drawing %d random bytes of salt: %v", p.saltLength, err)
	}
	pass := p.passphrase
	if p.chain != nil {
		pass = string(p.chain.Encryption)
	}
	k, err := pbkdf2.Key(pbkdf2Hashes[p.hashFunction], pass, out.Salt, p.iterations, p.keyLength)
	if err != nil {
		return keys, nil, fmt.Errorf("deriving the encryption key: %v", err)
	}
	keys.Encryption = k
	meta, err := json.Marshal(out)
	return keys, meta, err
}
