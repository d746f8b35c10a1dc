package local

import (
	"crypto/md5"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/internal/providers/builtin/internal/lifecycle"
	"github.com/plankit/plankit/providers"
)

func TestLocalFileLifecycle(t *testing.T) {
	h := lifecycle.New(t, New(), "local_file")
	dir := t.TempDir()
	name := filepath.Join(dir, "sub", "dir", "a.txt")
	cfg := func(content string) cty.Value {
		return h.Config(fmt.Sprintf("filename = %q\ncontent = %q\nfile_permission = \"0600\"", name, content))
	}

	c1 := cfg("hello\n")
	pl := h.Plan(h.Null(), c1)
	if pl.PlannedState.GetAttr("id").IsKnown() || pl.PlannedState.GetAttr("directory_permission") != cty.StringVal("0777") {
		t.Fatalf("create plan %#v", pl.PlannedState)
	}
	s1 := h.Apply(h.Null(), pl.PlannedState, c1)
	got, err := os.ReadFile(name)
	if err != nil || string(got) != "hello\n" {
		t.Fatalf("file: %q %v", got, err)
	}
	if fi, _ := os.Stat(name); fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", fi.Mode().Perm())
	}
	sha256sum := sha256.Sum256([]byte("hello\n"))
	sha512sum := sha512.Sum512([]byte("hello\n"))
	md5sum := md5.Sum([]byte("hello\n"))
	want := map[string]string{
		"id":                   "f572d396fae9206628714fb2ce00f72e94f2258f", // sha1 of "hello\n"
		"content_sha1":         "f572d396fae9206628714fb2ce00f72e94f2258f",
		"content_md5":          hex.EncodeToString(md5sum[:]),
		"content_sha256":       "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03",
		"content_base64sha256": base64.StdEncoding.EncodeToString(sha256sum[:]),
		"content_sha512":       hex.EncodeToString(sha512sum[:]),
		"content_base64sha512": base64.StdEncoding.EncodeToString(sha512sum[:]),
	}
	for k, w := range want {
		if g := s1.GetAttr(k).AsString(); g != w {
			t.Errorf("%s = %s, want %s", k, g, w)
		}
	}

	if r := h.Read(s1); !r.RawEquals(s1) {
		t.Fatal("read of untouched file changed state")
	}
	if p := h.Plan(s1, c1); len(p.RequiresReplace) != 0 || !p.PlannedState.RawEquals(s1) {
		t.Fatal("unchanged config did not plan a no-op")
	}

	// A content change replaces the file.
	c2 := cfg("bye\n")
	p2 := h.Plan(s1, c2)
	if diff := cmp.Diff([]string{"content"}, lifecycle.ReplacePaths(p2.RequiresReplace)); diff != "" {
		t.Fatal(diff)
	}
	h.Apply(s1, h.Null(), h.Null()) // destroy half of the replacement
	if _, err := os.Stat(name); !os.IsNotExist(err) {
		t.Fatalf("file survived delete: %v", err)
	}
	s2 := h.Create(c2)
	if got, _ := os.ReadFile(name); string(got) != "bye\n" {
		t.Fatalf("replaced content %q", got)
	}
	h.Destroy(s2)
	h.Destroy(s2) // deleting a missing file is fine
}

func TestLocalFileDrift(t *testing.T) {
	h := lifecycle.New(t, New(), "local_file")
	name := filepath.Join(t.TempDir(), "d.txt")
	c := h.Config(fmt.Sprintf("filename = %q\ncontent = \"v1\"", name))
	s := h.Create(c)

	// Edited out of band: gone from state, and the plan recreates it.
	if err := os.WriteFile(name, []byte("tampered"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := h.Read(s)
	if !r.IsNull() {
		t.Fatalf("edited file not seen as drift: %#v", r)
	}
	pl := h.Plan(r, c)
	if pl.PlannedState.GetAttr("id").IsKnown() {
		t.Fatal("recreate plan should have unknown id")
	}
	s = h.Apply(r, pl.PlannedState, c)
	if got, _ := os.ReadFile(name); string(got) != "v1" {
		t.Fatalf("recreated content %q", got)
	}

	// Deleted out of band: null state.
	if err := os.Remove(name); err != nil {
		t.Fatal(err)
	}
	if r := h.Read(s); !r.IsNull() {
		t.Fatal("deleted file not seen as drift")
	}
}

func TestLocalFileContentSources(t *testing.T) {
	h := lifecycle.New(t, New(), "local_file")
	dir := t.TempDir()
	src := filepath.Join(dir, "src.bin")
	if err := os.WriteFile(src, []byte{0, 1, 2, 255}, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		arg, value string
		want       []byte
	}{
		{"content_base64", base64.StdEncoding.EncodeToString([]byte{9, 8, 7}), []byte{9, 8, 7}},
		{"source", src, []byte{0, 1, 2, 255}},
		{"sensitive_content", "secret", []byte("secret")},
	}
	for i, tt := range tests {
		name := filepath.Join(dir, "out"+strconv.Itoa(i))
		s := h.Create(h.Config(fmt.Sprintf("filename = %q\n%s = %q", name, tt.arg, tt.value)))
		if got, _ := os.ReadFile(name); !cmp.Equal(got, tt.want) {
			t.Errorf("%s: wrote %v", tt.arg, got)
		}
		if r := h.Read(s); !r.RawEquals(s) {
			t.Errorf("%s: read reports drift", tt.arg)
		}
	}
	for _, bad := range []string{
		`filename = "x"`,
		"filename = \"x\"\ncontent = \"a\"\nsource = \"b\"",
		"filename = \"x\"\ncontent = \"a\"\nfile_permission = \"rw\"",
		"filename = \"x\"\ncontent = \"a\"\ndirectory_permission = \"0988\"",
		"content = \"a\"",
		"filename = \"x\"\ncontent = \"a\"\ncontent_md5 = \"x\"",
	} {
		if d := h.Invalid(bad); !d.HasErrors() {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestLocalSensitiveFile(t *testing.T) {
	p := New()
	sch := p.GetProviderSchema()
	rs := sch.ResourceTypes["local_sensitive_file"].Block
	if !rs.Attributes["content"].Sensitive || !rs.Attributes["content_base64"].Sensitive || rs.Attributes["sensitive_content"] != nil {
		t.Fatal("local_sensitive_file content must be sensitive")
	}
	if sch.ResourceTypes["local_file"].Block.Attributes["content"].Sensitive || !sch.ResourceTypes["local_file"].Block.Attributes["sensitive_content"].Sensitive {
		t.Fatal("local_file: content plain, sensitive_content sensitive")
	}
	if !sch.DataSources["local_sensitive_file"].Block.Attributes["content"].Sensitive || sch.DataSources["local_file"].Block.Attributes["content"].Sensitive {
		t.Fatal("data source sensitivity")
	}
	h := lifecycle.New(t, p, "local_sensitive_file")
	name := filepath.Join(t.TempDir(), "s")
	s := h.Create(h.Config(fmt.Sprintf("filename = %q\ncontent = \"pw\"", name)))
	if fi, err := os.Stat(name); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("default mode: %v %v", fi, err)
	}
	if s.GetAttr("file_permission") != cty.StringVal("0700") {
		t.Fatalf("file_permission %#v", s.GetAttr("file_permission"))
	}
}

func TestLocalFileDataSource(t *testing.T) {
	p := New()
	name := filepath.Join(t.TempDir(), "in.txt")
	if err := os.WriteFile(name, []byte("data"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, typ := range []string{"local_file", "local_sensitive_file"} {
		cfg := cty.ObjectVal(map[string]cty.Value{"filename": cty.StringVal(name)})
		full := p.GetProviderSchema().DataSources[typ].Block.EmptyValue().AsValueMap()
		full["filename"] = cfg.GetAttr("filename")
		resp := p.ReadDataSource(providers.ReadDataSourceRequest{TypeName: typ, Config: cty.ObjectVal(full)})
		if resp.Diagnostics.HasErrors() {
			t.Fatal(resp.Diagnostics.Error())
		}
		if resp.State.GetAttr("content") != cty.StringVal("data") || resp.State.GetAttr("content_base64") != cty.StringVal("ZGF0YQ==") {
			t.Fatalf("%s: %#v", typ, resp.State)
		}
		if d := p.GetProviderSchema().DataSources[typ].Block.ValidateValue(resp.State); d.HasErrors() {
			t.Fatal(d.Error())
		}
		full["filename"] = cty.StringVal(name + ".missing")
		if resp := p.ReadDataSource(providers.ReadDataSourceRequest{TypeName: typ, Config: cty.ObjectVal(full)}); !resp.Diagnostics.HasErrors() {
			t.Fatal("missing file read without error")
		}
	}
}

// TestLocalFileConcurrent drives many files at once through one provider
// instance, as the core's parallel walk does; run with -race.
func TestLocalFileConcurrent(t *testing.T) {
	p := New()
	h := lifecycle.New(t, p, "local_file")
	dir := t.TempDir()
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := filepath.Join(dir, "f", strconv.Itoa(i))
			cfg, diags := lifecycle.DecodeHCL(h.Schema, fmt.Sprintf("filename = %q\ncontent = \"%d\"", name, i))
			if diags.HasErrors() {
				t.Error(diags.Error())
				return
			}
			resp := p.ApplyResourceChange(providers.ApplyResourceChangeRequest{
				TypeName: "local_file", PriorState: h.Null(), Config: cfg,
				PlannedState: h.Plan(h.Null(), cfg).PlannedState,
			})
			if resp.Diagnostics.HasErrors() {
				t.Error(resp.Diagnostics.Error())
			}
		}()
	}
	wg.Wait()
	entries, _ := os.ReadDir(filepath.Join(dir, "f"))
	if len(entries) != 16 {
		t.Fatalf("%d files", len(entries))
	}
}

// TestLocalFilePermissionValidation: the real provider accepts 3 or 4
// octal digits with a value of at most 0777.
func TestLocalFilePermissionValidation(t *testing.T) {
	h := lifecycle.New(t, New(), "local_file")
	tests := []struct {
		perm string
		ok   bool
	}{
		{"644", true}, {"0644", true}, {"0777", true}, {"0000", true},
		{"1777", false}, {"4755", false}, {"64", false}, {"00644", false}, {"0988", false}, {"rw", false},
	}
	for _, tt := range tests {
		d := h.Invalid(fmt.Sprintf("filename = \"x\"\ncontent = \"a\"\nfile_permission = %q\ndirectory_permission = %q", tt.perm, tt.perm))
		if d.HasErrors() == tt.ok {
			t.Errorf("permission %q: accepted %v, want %v (%v)", tt.perm, !d.HasErrors(), tt.ok, d)
		}
	}
}

// TestLocalFileReadFillsChecksums: state written by local provider 2.1 or
// older lacks the content_* checksums; a refresh fills them in, as the
// real provider's Read does, so the next plan is a no-op.
func TestLocalFileReadFillsChecksums(t *testing.T) {
	h := lifecycle.New(t, New(), "local_file")
	name := filepath.Join(t.TempDir(), "old.txt")
	if err := os.WriteFile(name, []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	old, diags := h.Upgrade(0, fmt.Sprintf(`{"content":"hello\n","content_base64":null,"directory_permission":"0777","file_permission":"0777","filename":%q,"id":"f572d396fae9206628714fb2ce00f72e94f2258f","sensitive_content":null,"source":null}`, name))
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	got := h.Read(old)
	sum := sha256.Sum256([]byte("hello\n"))
	if got.GetAttr("content_sha256").AsString() != hex.EncodeToString(sum[:]) || got.GetAttr("content_md5").IsNull() || got.GetAttr("content_base64sha512").IsNull() {
		t.Fatalf("refresh did not fill checksums: %#v", got)
	}
	if pl := h.Plan(got, h.Config(fmt.Sprintf("filename = %q\ncontent = \"hello\\n\"", name))); len(pl.RequiresReplace) != 0 || !pl.PlannedState.RawEquals(got) {
		t.Fatalf("plan after refresh is not a no-op: %v", pl.RequiresReplace)
	}
}

// TestLocalFileRelativeToBaseDir: NewIn(dir) resolves relative filename
// and source paths against dir (the -chdir directory), as the real
// provider does running in the directory Terraform changed into, and
// keeps them as written in the state. New() before read and wrote them
// relative to the process's directory instead.
func TestLocalFileRelativeToBaseDir(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "config"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config", "in.txt"), []byte("from source"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := NewIn(dir)
	h := lifecycle.New(t, p, "local_file")
	st := h.Create(h.Config("filename = \"out/a.txt\"\nsource = \"config/in.txt\""))
	if got, err := os.ReadFile(filepath.Join(dir, "out", "a.txt")); err != nil || string(got) != "from source" {
		t.Fatalf("out/a.txt under the base directory: %q %v", got, err)
	}
	if st.GetAttr("filename") != cty.StringVal("out/a.txt") {
		t.Errorf("filename recorded as %#v, want it as written", st.GetAttr("filename"))
	}
	if r := h.Read(st); !r.RawEquals(st) {
		t.Errorf("read through the base directory lost the file: %#v", r)
	}

	full := p.GetProviderSchema().DataSources["local_file"].Block.EmptyValue().AsValueMap()
	full["filename"] = cty.StringVal("./config/in.txt")
	resp := p.ReadDataSource(providers.ReadDataSourceRequest{TypeName: "local_file", Config: cty.ObjectVal(full)})
	if resp.Diagnostics.HasErrors() || resp.State.GetAttr("content") != cty.StringVal("from source") {
		t.Fatalf("data source through the base directory: %v %#v", resp.Diagnostics, resp.State)
	}

	h.Destroy(st)
	if _, err := os.Stat(filepath.Join(dir, "out", "a.txt")); !os.IsNotExist(err) {
		t.Errorf("delete through the base directory: %v", err)
	}
}

// TestLocalFileApplyErrors: content that cannot be resolved at apply (a
// missing source file, content_base64 that is not base64) fails with a
// diagnostic naming the file, writes nothing and keeps the prior state.
func TestLocalFileApplyErrors(t *testing.T) {
	p := New()
	h := lifecycle.New(t, p, "local_file")
	dir := t.TempDir()
	name := filepath.Join(dir, "out.txt")
	tests := []struct{ name, arg string }{
		{"missing source", fmt.Sprintf("source = %q", filepath.Join(dir, "no-such-file"))},
		{"bad base64", `content_base64 = "not base64!"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := h.Config(fmt.Sprintf("filename = %q\n%s", name, tt.arg))
			resp := p.ApplyResourceChange(providers.ApplyResourceChangeRequest{
				TypeName: "local_file", PriorState: h.Null(), Config: cfg,
				PlannedState: h.Plan(h.Null(), cfg).PlannedState,
			})
			if !resp.Diagnostics.HasErrors() || !strings.Contains(resp.Diagnostics[0].Detail, name) {
				t.Fatalf("want an error naming %s, got %v", name, resp.Diagnostics)
			}
			if !resp.NewState.IsNull() {
				t.Errorf("new state %#v, want the null prior state", resp.NewState)
			}
			if _, err := os.Stat(name); !os.IsNotExist(err) {
				t.Errorf("file written despite the error (stat: %v)", err)
			}
		})
	}
}
