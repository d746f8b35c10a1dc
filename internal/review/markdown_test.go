package review

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/planfile"
	"github.com/plankit/plankit/planfile/planfiletest"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to make it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s differs (-want +got; go test -update rewrites it):\n%s", path, diff)
	}
}

// TestMarkdownGolden: the summary of a real plan (every kind of change,
// drift, a changed output, an unknown check), of a larger one cut to a
// small limit, and of two archives together.
func TestMarkdownGolden(t *testing.T) {
	small := loadArchive(t, basicFixture(2).build(t, "stack.tfplan"), nil)
	large := loadArchive(t, basicFixture(30).build(t, "large.tfplan"), nil)
	other := loadArchive(t, createFixture().build(t, "other|`stack`.tfplan"), nil)
	for _, tc := range []struct {
		golden   string
		archives []*Archive
		limit    int
	}{
		{"small.md", []*Archive{small}, 0},
		{"large.md", []*Archive{large}, 9000},
		{"multi.md", []*Archive{small, other}, 0},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			md, err := Markdown(tc.archives, Options{MaxBytes: tc.limit})
			if err != nil {
				t.Fatal(err)
			}
			limit := tc.limit
			if limit == 0 {
				limit = DefaultMaxBytes
			}
			if len(md) > limit {
				t.Errorf("the summary is %d bytes, over the limit of %d", len(md), limit)
			}
			golden(t, tc.golden, normalize(string(md)))
		})
	}
}

// TestMarkdownSizeRule: as the limit shrinks, diffs go smallest change
// first and those of destroys and replacements last; the text always
// fits and says what it left out; below what the lines alone need, lines
// go too, destroys and replacements last; below that, an error.
func TestMarkdownSizeRule(t *testing.T) {
	a := loadArchive(t, basicFixture(5).build(t, "stack.tfplan"), nil)
	full, err := Markdown([]*Archive{a}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(full), "to fit in") {
		t.Fatalf("a summary under the limit says something was left out:\n%s", full)
	}
	destroyDiff := "<details><summary>⚠️ <b>destroy</b> <code>terraform_data.gone</code></summary>"
	smallDiff := "<code>terraform_data.base</code></summary>"                     // an update of two attributes
	bigDiff := "<b>create</b> <code>local_sensitive_file.secret</code></summary>" // twelve attributes
	if !strings.Contains(string(full), destroyDiff) || !strings.Contains(string(full), smallDiff) {
		t.Fatalf("the full summary lacks the diffs the test looks for:\n%s", full)
	}
	prevDropped := -1
	sawOrder := false
	for limit := len(full) - 1; limit > 500; limit -= 97 {
		md, err := Markdown([]*Archive{a}, Options{MaxBytes: limit})
		var tooSmall *TooSmallError
		if errors.As(err, &tooSmall) {
			if tooSmall.Need <= limit {
				t.Fatalf("limit %d: refused though it needs %d", limit, tooSmall.Need)
			}
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		s := string(md)
		if len(md) > limit {
			t.Fatalf("limit %d: %d bytes", limit, len(md))
		}
		if !strings.Contains(s, "To fit in") && !strings.Contains(s, "to fit in") {
			t.Fatalf("limit %d: nothing says what was left out:\n%s", limit, s)
		}
		dropped := strings.Count(string(full), "<details>") - strings.Count(s, "<details>")
		if dropped < prevDropped {
			t.Fatalf("limit %d: fewer diffs left out (%d) than at a larger limit (%d)", limit, dropped, prevDropped)
		}
		prevDropped = dropped
		if strings.Contains(s, destroyDiff) && strings.Contains(s, "terraform_data.gone") {
			// The destroy's diff is kept while any other change's is.
		} else if strings.Count(s, "<details>") > 0 {
			for _, d := range []string{"<b>create</b>", "<b>update in-place</b>", "<b>changed outside</b>"} {
				if strings.Contains(s, "<details><summary>"+d) {
					t.Fatalf("limit %d: the destroy's diff went before a %s diff:\n%s", limit, d, s)
				}
			}
		}
		if !strings.Contains(s, smallDiff) && strings.Contains(s, bigDiff) {
			sawOrder = true // the one-attribute update went before the bigger create
		}
		if strings.Contains(s, smallDiff) && !strings.Contains(s, bigDiff) && strings.Contains(s, "<b>create</b>") {
			t.Fatalf("limit %d: a bigger diff went before the smallest:\n%s", limit, s)
		}
		if !strings.Contains(s, "terraform_data.gone") && strings.Contains(s, "terraform_data.base") {
			t.Fatalf("limit %d: the destroy's line went before an update's:\n%s", limit, s)
		}
	}
	if !sawOrder {
		t.Errorf("no limit showed the smallest diff left out before a bigger one")
	}
	if _, err := Markdown([]*Archive{a}, Options{MaxBytes: 100}); err == nil {
		t.Errorf("a 100-byte limit was accepted")
	}
}

// TestMarkdownSignature: a signed archive is "signed, not verified"
// without a key and "verified" with its key; with another key it is
// refused.
func TestMarkdownSignature(t *testing.T) {
	dir := t.TempDir()
	privPath, pubPath := planfiletest.WriteKeyPair(t, dir, "a")
	_, otherPub := planfiletest.WriteKeyPair(t, dir, "b")
	priv, err := planfile.LoadSigningKey(privPath)
	if err != nil {
		t.Fatal(err)
	}
	f := createFixture()
	f.signKey = priv
	path := f.build(t, "signed.tfplan")
	for _, tc := range []struct {
		key  string
		want string
	}{{"", "- Signature: signed, not verified"}, {pubPath, "- Signature: verified"}} {
		var key ed25519.PublicKey
		if tc.key != "" {
			if key, err = planfile.LoadVerifyKey(tc.key); err != nil {
				t.Fatal(err)
			}
		}
		md, err := Markdown([]*Archive{loadArchive(t, path, key)}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(md), tc.want+"\n") {
			t.Errorf("key %q: the summary lacks %q:\n%s", tc.key, tc.want, md)
		}
	}
	other, err := planfile.LoadVerifyKey(otherPub)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Load(path, other); err == nil {
		t.Errorf("an archive signed by another key was loaded")
	}
}

// TestMarkdownArchiveFacts: the SHA-256 is the file's, the signature
// status, workspace and backend are the archive's.
func TestMarkdownArchiveFacts(t *testing.T) {
	f := basicFixture(1)
	path := f.build(t, "stack.tfplan")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	md, err := Markdown([]*Archive{loadArchive(t, path, nil)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"- SHA-256: `" + hex.EncodeToString(sum[:]) + "`", "- Signature: unsigned", "- Workspace: `staging`", "- Backend: `pg`"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("the summary lacks %q:\n%s", want, md)
		}
	}
}
