package encryption

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// Options are what New needs besides the configuration.
type Options struct {
	// Variables are the values of the root module's input variables that
	// the configuration may refer to as var.NAME.
	Variables map[string]cty.Value
	// Rand is the source of salts and nonces; crypto/rand when nil. Tests
	// set it to get known-answer envelopes.
	Rand io.Reader

	// minIterations lowers PBKDF2MinimumIterations, for this package's
	// tests only (a derivation at the real minimum takes a second under
	// the race detector).
	minIterations int
}

// Encryption is a checked configuration, ready to encrypt and decrypt
// states and plans. It is safe for concurrent use.
type Encryption struct {
	cfg   *Config
	opts  Options
	state *Target
	plan  *Target
}

// Status says how a decryption went.
type Status int

const (
	// Satisfied: read with the primary method (or in clear with no
	// encryption configured); writing it again changes nothing.
	Satisfied Status = iota
	// Migration: read with a fallback method (an older key, or in clear
	// while encryption is now configured), so it should be written again
	// with the primary method.
	Migration
)

// New checks cfg (nil means no encryption) and returns an Encryption. It
// refuses unknown or missing methods and key providers, invalid
// arguments, a pbkdf2 passphrase shorter than 16 characters, and an
// unencrypted method for an enforced target. No key provider runs yet:
// keys are derived on the first Encrypt or Decrypt. Warnings (an
// unencrypted method is configured) come back with a usable result.
func New(cfg *Config, opts Options) (*Encryption, hcl.Diagnostics) {
	e := &Encryption{cfg: cfg, opts: opts}
	if cfg == nil {
		e.state, e.plan = &Target{name: "state", enc: e}, &Target{name: "plan", enc: e}
		return e, nil
	}
	var diags hcl.Diagnostics
	for _, m := range cfg.Methods {
		if m.Type == "unencrypted" {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Unencrypted method configured",
				Detail:  "The encryption configuration has an unencrypted method: states or plans may be stored in clear. Use it only while migrating, then remove it.",
				Subject: m.DeclRange.Ptr()})
		}
	}
	var ds hcl.Diagnostics
	e.state, ds = e.newTarget("state", cfg.State)
	diags = append(diags, ds...)
	e.plan, ds = e.newTarget("plan", cfg.Plan)
	diags = append(diags, ds...)
	if diags.HasErrors() {
		return nil, diags
	}
	return e, diags
}

func (e *Encryption) rand() io.Reader {
	if e.opts.Rand != nil {
		return e.opts.Rand
	}
	return rand.Reader
}

func (e *Encryption) minIterations() int {
	if e.opts.minIterations > 0 {
		return e.opts.minIterations
	}
	return PBKDF2MinimumIterations
}

// State is the state target; Plan the plan target.
func (e *Encryption) State() *Target { return e.state }

// Plan is the plan target.
func (e *Encryption) Plan() *Target { return e.plan }

// Target encrypts and decrypts one kind of data (state or plan) with its
// method chain: the primary method writes; every method, primary first,
// then each fallback, may read.
type Target struct {
	name     string
	enc      *Encryption
	methods  []*MethodConfig // nil: not configured, data stays in clear
	enforced bool

	mu      sync.Mutex
	encM    method // primary method with its encryption keys, after first use
	encMeta map[string][]byte
	// decM caches the methods built for decryption, by method and the
	// envelope's metadata: records written with one key (an apply's
	// journal, say) derive it once, not once per record.
	decM map[string]method
}

func (e *Encryption) newTarget(name string, tc *TargetConfig) (*Target, hcl.Diagnostics) {
	t := &Target{name: name, enc: e}
	if tc == nil {
		return t, nil
	}
	t.enforced = tc.Enforced
	var diags hcl.Diagnostics
	for c := tc; c != nil; c = c.Fallback {
		if c.Method == nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Missing encryption method",
				Detail: fmt.Sprintf("The %s block (or one of its fallback blocks) sets no method; set method = method.TYPE.NAME.", name), Subject: c.DeclRange.Ptr()})
			continue
		}
		tr, ds := hcl.AbsTraversalForExpr(c.Method)
		typ, ok1 := attrName(tr, 1)
		mname, ok2 := attrName(tr, 2)
		if ds.HasErrors() || tr.RootName() != "method" || len(tr) != 3 || !ok1 || !ok2 {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid encryption method reference",
				Detail: "Refer to a method as method.TYPE.NAME.", Subject: c.Method.Range().Ptr()})
			continue
		}
		i := indexOf(e.cfg.Methods, func(m *MethodConfig) bool { return m.Type == typ && m.Name == mname })
		if i < 0 {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Reference to undeclared encryption method",
				Detail: fmt.Sprintf("There is no method %q %q block in the encryption configuration.", typ, mname), Subject: c.Method.Range().Ptr()})
			continue
		}
		m := e.cfg.Methods[i]
		if slices.Contains(t.methods, m) {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Method used twice",
				Detail: fmt.Sprintf("%s appears twice in the %s block's method and fallbacks.", m.Addr(), name), Subject: c.Method.Range().Ptr()})
			continue
		}
		t.methods = append(t.methods, m)
	}
	if diags.HasErrors() {
		return nil, diags
	}
	if t.enforced {
		for _, m := range t.methods {
			if m.Type == "unencrypted" {
				return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Unencrypted method is forbidden",
					Detail:  fmt.Sprintf("The %s block sets enforced = true, so %s cannot be used as its method or fallback. Remove the unencrypted method, or enforced while migrating.", name, m.Addr()),
					Subject: tc.DeclRange.Ptr()}}
			}
		}
	}
	// Check every method and the key providers it refers to, without
	// running any of them.
	s := newSession(e, true, false, nil)
	for _, m := range t.methods {
		_, ds := s.buildMethod(m)
		diags = append(diags, ds...)
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return t, diags
}

// Enabled reports whether the target has a method configured.
func (t *Target) Enabled() bool { return t != nil && len(t.methods) > 0 }

// Encrypted reports whether the primary method really encrypts (it is not
// the unencrypted method).
func (t *Target) Encrypted() bool { return t.Enabled() && t.methods[0].Type != "unencrypted" }

// Methods lists the addresses of the method chain, primary first.
func (t *Target) Methods() []string {
	var out []string
	for _, m := range t.methods {
		out = append(out, m.Addr())
	}
	return out
}

// EncryptPlan returns the plan archive's bytes in an envelope, or as they
// are when the plan is not encrypted.
func (t *Target) EncryptPlan(plain []byte) ([]byte, error) {
	env, err := t.seal(plain)
	if env == nil || err != nil {
		return plain, err
	}
	return env.MarshalPlan()
}

// EncryptState returns a v4 state file's bytes in an envelope that keeps
// its serial and lineage in clear, or as they are when the state is not
// encrypted.
func (t *Target) EncryptState(plain []byte) ([]byte, error) {
	var clear stateHeader
	if t.Encrypted() {
		var err error
		if clear, err = readStateHeader(plain); err != nil {
			return nil, &Error{Kind: KindEnvelope, Op: "encrypt", Target: t.name, Detail: fmt.Sprintf("the state to encrypt is not a JSON state file (%v)", err)}
		}
	}
	env, err := t.seal(plain)
	if env == nil || err != nil {
		return plain, err
	}
	env.Serial, env.Lineage = clear.Serial, clear.Lineage
	return env.MarshalState()
}

// seal encrypts with the primary method; nil when it is stored in clear.
// The primary method's keys are derived once and reused, as OpenTofu
// does: a state written many times during an apply costs one derivation.
func (t *Target) seal(plain []byte) (*Envelope, error) {
	if !t.Encrypted() {
		return nil, nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.encM == nil {
		s := newSession(t.enc, false, false, nil)
		m, diags := s.buildMethod(t.methods[0])
		if diags.HasErrors() {
			return nil, &Error{Kind: KindKeyProvider, Op: "encrypt", Target: t.name, Detail: diagText(diags)}
		}
		t.encM, t.encMeta = m, s.metaOut
	}
	ct, err := t.encM.encrypt(plain)
	if err != nil {
		return nil, &Error{Kind: KindMethod, Op: "encrypt", Target: t.name, Detail: fmt.Sprintf("%s: %v", t.methods[0].Addr(), err)}
	}
	return &Envelope{Meta: t.encMeta, Data: ct, Version: EnvelopeVersion}, nil
}

// DecryptPlan returns the plan archive inside data; data that is not an
// envelope is returned as it is if the configuration allows clear plans.
func (t *Target) DecryptPlan(data []byte) ([]byte, Status, error) {
	plain, _, st, err := t.open(data)
	return plain, st, err
}

// DecryptState returns the state file inside data, checking that the
// serial and lineage the envelope shows in clear are the state's own.
func (t *Target) DecryptState(data []byte) ([]byte, Status, error) {
	plain, env, st, err := t.open(data)
	if err != nil || env == nil {
		return plain, st, err
	}
	inner, err := readStateHeader(plain)
	if err != nil {
		return nil, st, &Error{Kind: KindEnvelope, Op: "decrypt", Target: t.name, Detail: "the decrypted data is not a JSON state file"}
	}
	if env.Serial != nil && inner.Serial != nil && *env.Serial != *inner.Serial {
		return nil, st, &Error{Kind: KindEnvelope, Op: "decrypt", Target: t.name,
			Detail: fmt.Sprintf("the envelope says serial %d but the encrypted state has serial %d; the file was altered", *env.Serial, *inner.Serial)}
	}
	if env.Lineage != "" && env.Lineage != inner.Lineage {
		return nil, st, &Error{Kind: KindEnvelope, Op: "decrypt", Target: t.name,
			Detail: fmt.Sprintf("the envelope says lineage %q but the encrypted state has lineage %q; the file was altered", env.Lineage, inner.Lineage)}
	}
	return plain, st, nil
}

func (t *Target) open(data []byte) ([]byte, *Envelope, Status, error) {
	env, isEnv, envErr := parseEnvelope(data)
	if !isEnv {
		if !t.Enabled() {
			return data, nil, Satisfied, nil
		}
		for i, m := range t.methods {
			if m.Type == "unencrypted" {
				if i == 0 {
					return data, nil, Satisfied, nil
				}
				return data, nil, Migration, nil
			}
		}
		return nil, nil, Satisfied, &Error{Kind: KindUnencrypted, Op: "decrypt", Target: t.name,
			Detail: fmt.Sprintf("the %s is stored in clear, but the encryption configuration gives it only encrypted methods (%s). To encrypt an existing %s, add fallback { method = method.unencrypted.NAME } with a method \"unencrypted\" \"NAME\" {} block for one run", t.name, strings.Join(t.Methods(), ", "), t.name)}
	}
	if !t.Enabled() {
		return nil, nil, Satisfied, &Error{Kind: KindNotConfigured, Op: "decrypt", Target: t.name,
			Detail: fmt.Sprintf("it is in OpenTofu's encrypted format; configure the key that encrypted it, in TF_ENCRYPTION or in the working directory's terraform { encryption { %s { method = ... } } } block", t.name)}
	}
	if envErr != nil {
		return nil, nil, Satisfied, &Error{Kind: KindEnvelope, Op: "decrypt", Target: t.name, Detail: envErr.Error()}
	}
	var mismatched, problems []string
	for i, m := range t.methods {
		if m.Type == "unencrypted" {
			continue
		}
		meth, diags := t.decryptMethod(i, m, env.Meta)
		if diags.HasErrors() {
			problems = append(problems, fmt.Sprintf("%s: %s", m.Addr(), diagText(diags)))
			continue
		}
		plain, err := meth.decrypt(env.Data)
		switch {
		case err == nil:
			st := Satisfied
			if i > 0 {
				st = Migration
			}
			return plain, env, st, nil
		case errors.Is(err, errAuth):
			mismatched = append(mismatched, m.Addr())
		case errors.Is(err, errNoDecryptionKey):
			problems = append(problems, fmt.Sprintf("%s: its key provider has no metadata in the file (the file's metadata is for %s), so it cannot derive the key; configure the key provider that encrypted it, as a fallback when rotating keys", m.Addr(), metaKeys(env.Meta)))
		default:
			problems = append(problems, fmt.Sprintf("%s: %v", m.Addr(), err))
		}
	}
	if len(mismatched) > 0 {
		detail := fmt.Sprintf("tried %s; check the passphrase or key (a file altered after it was written is refused the same way)", strings.Join(mismatched, ", "))
		if len(problems) > 0 {
			detail += "; also: " + strings.Join(problems, "; ")
		}
		return nil, env, Satisfied, &Error{Kind: KindKeyMismatch, Op: "decrypt", Target: t.name, Detail: detail}
	}
	return nil, env, Satisfied, &Error{Kind: KindKeyProvider, Op: "decrypt", Target: t.name, Detail: strings.Join(problems, "; ")}
}

// decryptMethod builds method i for decrypting data stored with meta, or
// returns the one built before for the same method and metadata. Only
// successful builds are kept; the cache holds keys derived from metadata
// this process read, no more than the Target itself would.
func (t *Target) decryptMethod(i int, m *MethodConfig, meta map[string][]byte) (method, hcl.Diagnostics) {
	var key strings.Builder
	fmt.Fprintf(&key, "%d", i)
	for _, k := range slices.Sorted(maps.Keys(meta)) {
		fmt.Fprintf(&key, "\x00%s\x00%x", k, meta[k])
	}
	t.mu.Lock()
	meth, ok := t.decM[key.String()]
	t.mu.Unlock()
	if ok {
		return meth, nil
	}
	meth, diags := newSession(t.enc, false, true, meta).buildMethod(m)
	if diags.HasErrors() {
		return nil, diags
	}
	t.mu.Lock()
	if t.decM == nil {
		t.decM = map[string]method{}
	}
	t.decM[key.String()] = meth
	t.mu.Unlock()
	return meth, nil
}

func metaKeys(m map[string][]byte) string {
	if len(m) == 0 {
		return "no key provider"
	}
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return strings.Join(ks, ", ")
}

// diagText flattens diagnostics into one line for an error (they never
// hold key material: only addresses, names and what to fix).
func diagText(diags hcl.Diagnostics) string {
	var b bytes.Buffer
	for _, d := range diags {
		if d.Severity != hcl.DiagError {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("; ")
		}
		b.WriteString(d.Summary)
		if d.Detail != "" {
			b.WriteString(": " + d.Detail)
		}
		if d.Subject != nil {
			fmt.Fprintf(&b, " (%s)", d.Subject)
		}
	}
	return b.String()
}

// stateHeader is what an encrypted state shows in clear.
type stateHeader struct {
	Serial  *uint64
	Lineage string
}

// readStateHeader reads the top-level serial and lineage of a JSON state,
// stopping once it has both: a v4 state writes them first, so this costs
// O(1) for a state of any size where json.Unmarshal would scan it all.
func readStateHeader(data []byte) (stateHeader, error) {
	var h stateHeader
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return h, fmt.Errorf("not a JSON object")
	}
	var haveSerial, haveLineage bool
	for dec.More() && !(haveSerial && haveLineage) {
		tok, err := dec.Token()
		if err != nil {
			return h, err
		}
		switch tok {
		case "serial":
			haveSerial = true
			if err := dec.Decode(&h.Serial); err != nil {
				return h, fmt.Errorf("serial: %w", err)
			}
		case "lineage":
			haveLineage = true
			if err := dec.Decode(&h.Lineage); err != nil {
				return h, fmt.Errorf("lineage: %w", err)
			}
		default:
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return h, err
			}
		}
	}
	return h, nil
}
