package encryption

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
)

// OpenTofu's external program protocols (version 1): the program prints a
// one-line JSON header {"magic": MAGIC, "version": 1}, reads one JSON
// document from stdin and prints one JSON document to stdout.
const (
	ExternalKeyProviderMagic = "OpenTofu-External-Key-Provider"
	ExternalMethodMagic      = "OpenTofu-External-Encryption-Method"
	externalTimeout          = time.Minute
)

// runExternal runs argv with input on stdin and returns what follows the
// header line on stdout. Errors quote the program's stderr (never its
// input or output, which hold keys).
func runExternal(argv []string, magic string, input []byte) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), externalTimeout)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdin = bytes.NewReader(input)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	errText := strings.TrimSpace(stderr.String())
	if errText != "" {
		errText = "; its stderr says: " + errText
	}
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return nil, fmt.Errorf("the command %q exited with code %d%s", argv[0], exit.ExitCode(), errText)
		}
		return nil, fmt.Errorf("running the command %q failed: %v%s", argv[0], err, errText)
	}
	header, rest, ok := bytes.Cut(stdout.Bytes(), []byte("\n"))
	if !ok {
		return nil, fmt.Errorf("the command %q did not print the protocol header line", argv[0])
	}
	var h struct {
		Magic   string `json:"magic"`
		Version int    `json:"version"`
	}
	if err := json.Unmarshal(header, &h); err != nil {
		return nil, fmt.Errorf("the command %q printed an invalid header line (%v)", argv[0], err)
	}
	if h.Magic != magic {
		return nil, fmt.Errorf("the command %q is not an %s program (header magic %q)", argv[0], magic, h.Magic)
	}
	if h.Version != 1 {
		return nil, fmt.Errorf("the command %q speaks protocol version %d; plankit speaks version 1", argv[0], h.Version)
	}
	return rest, nil
}

func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// externalKeyProvider runs a program that gives keys (OpenTofu's external
// key provider): it receives null (nothing to decrypt) or the stored
// {"external_data": {...}} and prints {"keys": {"encryption_key",
// "decryption_key"}, "meta": {"external_data": {...}}}, keys in base64.
type externalKeyProvider struct {
	command []string
}

type externalMeta struct {
	ExternalData map[string]any `json:"external_data"`
}

func (s *session) decodeExternalKeyProvider(kp *KeyProviderConfig, attrs hcl.Attributes) (keyProvider, hcl.Diagnostics) {
	what := fmt.Sprintf("key_provider %q %q", kp.Type, kp.Name)
	diags := checkAttrs(attrs, what, "command")
	a, ok := attrs["command"]
	if !ok {
		return nil, append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid " + what,
			Detail: "command = [\"PROGRAM\", \"ARG\", ...] is required.", Subject: kp.DeclRange.Ptr()})
	}
	cmd, ds := s.evalStrings(a, "command")
	diags = append(diags, ds...)
	if !ds.HasErrors() && cmd != nil && (len(cmd) == 0 || cmd[0] == "") {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid " + what,
			Detail: "command must name a program: [\"PROGRAM\", \"ARG\", ...].", Subject: a.Expr.Range().Ptr()})
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return &externalKeyProvider{command: cmd}, diags
}

func (p *externalKeyProvider) provide(rawMeta []byte, _ bool) (Keys, []byte, error) {
	input := []byte("null")
	if len(rawMeta) > 0 {
		var m externalMeta
		if err := json.Unmarshal(rawMeta, &m); err != nil {
			return Keys{}, nil, fmt.Errorf("the metadata stored with the encrypted data is not readable (%v)", err)
		}
		if m.ExternalData != nil {
			var err error
			if input, err = json.Marshal(m); err != nil {
				return Keys{}, nil, err
			}
		}
	}
	out, err := runExternal(p.command, ExternalKeyProviderMagic, input)
	if err != nil {
		return Keys{}, nil, err
	}
	var res struct {
		Keys struct {
			EncryptionKey []byte `json:"encryption_key"`
			DecryptionKey []byte `json:"decryption_key,omitempty"`
		} `json:"keys"`
		Meta externalMeta `json:"meta"`
	}
	if err := decodeStrict(out, &res); err != nil {
		return Keys{}, nil, fmt.Errorf("the command %q printed an invalid response (%v)", p.command[0], err)
	}
	meta, err := json.Marshal(res.Meta)
	if err != nil {
		return Keys{}, nil, err
	}
	return Keys{Encryption: res.Keys.EncryptionKey, Decryption: res.Keys.DecryptionKey}, meta, nil
}
