package operation

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/internal/encryption"
	"github.com/plankit/plankit/internal/states/statemgr"
	"github.com/plankit/plankit/internal/terraform"
	"github.com/plankit/plankit/tfdiags"
)

// EncryptionEnv holds an encryption configuration (HCL or JSON) merged
// over the working directory's, as in OpenTofu.
const EncryptionEnv = "TF_ENCRYPTION"

func EnvLookup(env []string, name string) string {
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == name {
			return v
		}
	}
	return ""
}

// LoadEncryption returns the encryption in effect: the root module's
// encryption block (config may be nil), its override files' blocks, then
// TF_ENCRYPTION merged over it. var.NAME takes the value vals give, else
// the variable's default. Nothing is derived yet; keys come on first use.
func LoadEncryption(env []string, config *configs.Config, vals terraform.InputValues) (*encryption.Encryption, hcl.Diagnostics) {
	var cfg *encryption.Config
	var diags hcl.Diagnostics
	vars := map[string]cty.Value{}
	if config != nil {
		for name, v := range config.Module.Variables {
			if in := vals[name]; in != nil {
				val := in.Value
				if c, err := convert.Convert(val, v.Type); err == nil {
					val = c
				}
				vars[name] = val
			} else if v.Default != cty.NilVal {
				vars[name] = v.Default
			}
		}
		if blk := config.Module.Encryption; blk != nil {
			c, ds := encryption.DecodeConfig(blk.Body, blk.DeclRange)
			diags = append(diags, ds...)
			cfg = c
			for _, o := range blk.Overrides {
				oc, ds := encryption.DecodeConfig(o, blk.DeclRange)
				diags = append(diags, ds...)
				cfg = encryption.Merge(cfg, oc)
			}
		}
	}
	if config == nil {
		// No configuration declares the variables TF_ENCRYPTION may use:
		// each TF_VAR_NAME is the string it holds.
		for _, kv := range env {
			if k, v, ok := strings.Cut(kv, "="); ok && strings.HasPrefix(k, "TF_VAR_") {
				vars[strings.TrimPrefix(k, "TF_VAR_")] = cty.StringVal(v)
			}
		}
	}
	if src := strings.TrimSpace(EnvLookup(env, EncryptionEnv)); src != "" {
		c, ds := encryption.ParseConfig(EncryptionEnv, src)
		diags = append(diags, ds...)
		cfg = encryption.Merge(cfg, c)
	}
	if diags.HasErrors() {
		return nil, diags
	}
	enc, ds := encryption.New(cfg, encryption.Options{Variables: vars})
	return enc, append(diags, ds...)
}

// LoadEncryptionIn is LoadEncryption for commands that read a plan
// archive: the configuration is the working directory's, if it has one,
// with variables from TF_VAR_ and the .tfvars files there.
func LoadEncryptionIn(env []string, wd string) (*encryption.Encryption, hcl.Diagnostics) {
	var config *configs.Config
	var vals terraform.InputValues
	var diags hcl.Diagnostics
	if HasConfigFiles(wd) && (strings.TrimSpace(EnvLookup(env, EncryptionEnv)) != "" || mentionsEncryption(wd)) {
		config, diags = configs.LoadConfigDir(wd)
		if diags.HasErrors() {
			return nil, diags
		}
		var ds hcl.Diagnostics
		vals, ds = CollectVariables(config, wd, nil, env)
		diags = append(diags, ds...)
		if ds.HasErrors() {
			return nil, diags
		}
	}
	enc, ds := LoadEncryption(env, config, vals)
	return enc, append(diags, ds...)
}

// mentionsEncryption reports whether a configuration file in wd could
// hold an encryption block: its text names "encryption" (or, in a JSON
// file, might spell it with escapes). Without one, and without
// TF_ENCRYPTION, the directory's configuration configures no encryption
// and its variables feed nothing, so LoadEncryptionIn need not load it:
// plan show and apply FILE, run in the directory the plan came from, do
// not parse the whole configuration (slow for a large one) only to
// find no encryption block. O(size of the files).
func mentionsEncryption(wd string) bool {
	for _, pat := range ConfigFilePatterns {
		names, _ := filepath.Glob(filepath.Join(wd, pat))
		for _, name := range names {
			b, err := os.ReadFile(name)
			if err != nil {
				return true // the loader reports it
			}
			if bytes.Contains(b, []byte("encryption")) || strings.HasSuffix(name, ".json") && bytes.Contains(b, []byte(`\u`)) {
				return true
			}
		}
	}
	return false
}

// stateCodec stores states through the state target: encrypted when it
// is configured, and refusing an encrypted file when it is not.
type stateCodec struct{ t *encryption.Target }

func (c stateCodec) Decode(b []byte) ([]byte, bool, error) {
	p, st, err := c.t.DecryptState(b)
	return p, st == encryption.Migration, err
}

func (c stateCodec) Encode(p []byte) ([]byte, error) { return c.t.EncryptState(p) }

// StoresClear: without encryption, Encode returns the state as it is, so
// the manager can stream it to its file (statemgr.ClearCodec).
func (c stateCodec) StoresClear() bool { return !c.t.Encrypted() }

var _ statemgr.ClearCodec = stateCodec{}

// CodecFor is the state codec of enc. With enc nil (no encryption
// configured) states are stored in clear and an encrypted one is refused
// with an error that says so.
func CodecFor(enc *encryption.Encryption) statemgr.Codec {
	if enc == nil {
		enc, _ = encryption.New(nil, encryption.Options{})
	}
	return stateCodec{enc.State()}
}

// EncryptionDiags explains an encryption failure; the error never holds
// key material.
func EncryptionDiags(err error, what string) hcl.Diagnostics {
	var ee *encryption.Error
	if !errors.As(err, &ee) {
		return nil
	}
	advice := "Set the key that encrypted it in TF_ENCRYPTION or in the working directory's terraform { encryption { ... } } block (a passphrase usually comes from a variable: TF_VAR_name)."
	switch ee.Kind {
	case encryption.KindUnencrypted:
		advice = "This is how OpenTofu migrates to encryption too."
	case encryption.KindKeyMismatch:
		advice = "If the key was changed, keep the old key provider and method as a fallback until everything is written with the new key."
	}
	return hcl.Diagnostics{tfdiags.Errorf("Failed to decrypt the "+what, "%s\n\n%s Nothing was changed.", err, advice)}
}

// ClearPlanOfEncryptedState warns when a plan archive is about to be
// written in clear while the state is encrypted: the archive holds the
// state (and every secret in it) as it was read.
func ClearPlanOfEncryptedState(enc *encryption.Encryption, out string) hcl.Diagnostics {
	if enc == nil || out == "" || !enc.State().Encrypted() || enc.Plan().Encrypted() {
		return nil
	}
	return hcl.Diagnostics{tfdiags.Warning("Plan file not encrypted",
		"The state is encrypted but plans are not, so the archive written by -out holds the state and its secrets in clear. Add a plan block to the encryption configuration to encrypt it too.")}
}

// SetCodec gives a state manager or backend the codec if it takes one
// (the local file manager, the pg backend and its managers).
func SetCodec(v any, c statemgr.Codec) {
	if cs, ok := v.(interface{ SetCodec(statemgr.Codec) }); ok {
		cs.SetCodec(c)
	}
}

// NeedsRewrite reports whether mgr read its state through a fallback
// method (see statemgr.Codec).
func NeedsRewrite(mgr any) bool {
	cs, ok := mgr.(interface{ NeedsRewrite() bool })
	return ok && cs.NeedsRewrite()
}

// StateCodecIn is the state codec of the encryption in effect in wd, for
// the commands that read or change the state outside plan and apply.
func StateCodecIn(env []string, wd string) (statemgr.Codec, hcl.Diagnostics) {
	enc, diags := LoadEncryptionIn(env, wd)
	if diags.HasErrors() {
		return nil, diags
	}
	return CodecFor(enc), nil
}

// DecryptPulled returns the v4 JSON of a stored state (state pull shows
// it decrypted; state push takes an encrypted file too). Empty stays
// empty.
func DecryptPulled(codec statemgr.Codec, data []byte, where string) ([]byte, hcl.Diagnostics) {
	if len(data) == 0 || codec == nil {
		return data, nil
	}
	plain, _, err := codec.Decode(data)
	if err != nil {
		if ds := EncryptionDiags(fmt.Errorf("%s: %w", where, err), "state"); ds != nil {
			return nil, ds
		}
		return nil, hcl.Diagnostics{tfdiags.Errorf("Failed to read state", "%s: %s", where, err)}
	}
	return plain, nil
}
