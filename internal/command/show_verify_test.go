package command_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plankit/plankit/internal/command"
	"github.com/plankit/plankit/internal/command/views"
	"github.com/plankit/plankit/internal/operation"
	"github.com/plankit/plankit/internal/providers/builtin"
	"github.com/plankit/plankit/planfile/planfiletest"
)

// TestShowVerifyKey: plan show -verify-key=FILE, with or without -json,
// shows only an archive signed with the matching key, as apply
// -verify-key applies only such archives; so a policy check reading
// show -json can rely on the configuration it shows, which an edited
// archive (manifest rehashed) could otherwise make differ from the
// configuration apply runs.
func TestShowVerifyKey(t *testing.T) {
	dir := t.TempDir()
	src := "resource \"terraform_data\" \"a\" {\n  input = \"x\"\n  provisioner \"local-exec\" {\n    command = \"echo reviewed\"\n  }\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	priv, pub := planfiletest.WriteKeyPair(t, dir, "a")
	_, otherPub := planfiletest.WriteKeyPair(t, dir, "b")
	m := &command.Meta{Streams: views.Streams{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard}, Environment: operation.Environment{Providers: builtin.Factories()}}
	signed, unsigned := filepath.Join(dir, "signed.tfplan"), filepath.Join(dir, "unsigned.tfplan")
	for _, args := range [][]string{{"-out=" + signed, "-sign-key=" + priv}, {"-out=" + unsigned}} {
		if code := command.Plan(m, append([]string{"-chdir=" + dir, "-state=" + filepath.Join(dir, "s.tfstate")}, args...)); code != command.ExitOK {
			t.Fatalf("plan %v: exit %d", args, code)
		}
	}
	// Someone who can edit the archive changes the command apply would
	// run, rehashes the manifest and leaves the stored members alone.
	edited := rewriteArchive(t, signed, "edited.tfplan", func(entries map[string][]byte) {
		entries["tfconfig/main.tf"] = bytes.ReplaceAll(entries["tfconfig/main.tf"], []byte("echo reviewed"), []byte("echo unreviewed"))
	})
	want := showJSON(t, signed)

	for _, tc := range []struct {
		name    string
		args    []string
		code    int
		stdout  string // "" for none, "=" for the signed archive's document
		message string
	}{
		{"signed, json", []string{"show", "-json", "-verify-key=" + pub, signed}, command.ExitOK, "=", ""},
		{"signed, human", []string{"show", "-no-color", "-verify-key=" + pub, signed}, command.ExitOK, "terraform_data.a will be created", ""},
		{"another key", []string{"show", "-json", "-verify-key=" + otherPub, signed}, command.ExitError, "", "Plan signature check failed"},
		{"unsigned", []string{"show", "-verify-key=" + pub, unsigned}, command.ExitError, "", "Plan signature check failed"},
		{"edited", []string{"show", "-json", "-verify-key=" + pub, edited}, command.ExitError, "", "Plan signature check failed"},
		{"no key file", []string{"show", "-json", "-verify-key=" + filepath.Join(dir, "nope.pem"), signed}, command.ExitError, "", "Failed to load the verify key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			m := &command.Meta{Streams: views.Streams{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr}}
			code := command.Plan(m, tc.args)
			ok := code == tc.code && strings.Contains(stderr.String(), tc.message)
			switch tc.stdout {
			case "":
				ok = ok && stdout.Len() == 0
			case "=":
				ok = ok && stdout.String() == want
			default:
				ok = ok && strings.Contains(stdout.String(), tc.stdout)
			}
			if !ok {
				t.Errorf("exit %d (want %d), stdout:\n%.500s\nstderr:\n%s", code, tc.code, stdout.String(), stderr.String())
			}
		})
	}
}
