package funcs

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"golang.org/x/crypto/bcrypt"

	"github.com/plankit/plankit/internal/lang/marks"
)

// Digests of "test", computed independently (Python hashlib).
var testDigests = []struct {
	name string
	str  function.Function
	file func(Files) function.Function
	want string
}{
	{"md5", MD5Func, MakeFileMD5Func, "098f6bcd4621d373cade4e832627b4f6"},
	{"sha1", SHA1Func, MakeFileSHA1Func, "a94a8fe5ccb19ba61c4c0873d391e987982fbbd3"},
	{"sha256", SHA256Func, MakeFileSHA256Func, "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"},
	{"sha512", SHA512Func, MakeFileSHA512Func, "ee26b0dd4af7e749aa1a8ee3c10ae9923f618980772e473f8819a5d4940e0db27ac185f8a0e1d5f84f88bc887fd67b143732c304cc5fa9ad8e6f57f50028a8ff"},
	{"base64sha256", Base64SHA256Func, MakeFileBase64SHA256Func, "n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg="},
	{"base64sha512", Base64SHA512Func, MakeFileBase64SHA512Func, "7iaw3Ur350mqGo7jwQrpkj9hiYB3Lkc/iBml1JQODbJ6wYX4oOHV+E+IvIh/1nsUNzLDBMxfqa2Ob1f1ACio/w=="},
}

func TestHashes(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte("test"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, d := range testDigests {
		t.Run(d.name, func(t *testing.T) {
			want := cty.StringVal(d.want)
			runCases(t, d.str, []callCase{
				{name: "known", args: []cty.Value{cty.StringVal("test")}, want: want},
				{name: "unknown", args: []cty.Value{cty.UnknownVal(cty.String)}, want: cty.UnknownVal(cty.String)},
				{name: "sensitive", args: []cty.Value{sens(cty.StringVal("test"))}, want: sens(want)},
				{name: "null", args: []cty.Value{cty.NullVal(cty.String)}, err: "must not be null"},
			})
			runCases(t, d.file(Files{Dir: dir}), []callCase{
				{name: "file", args: []cty.Value{cty.StringVal("f.txt")}, want: want},
				{name: "missing", args: []cty.Value{cty.StringVal("nope.txt")}, err: `no file exists at "nope.txt"`},
				{name: "unknown", args: []cty.Value{cty.UnknownVal(cty.String)}, want: cty.UnknownVal(cty.String)},
				{name: "sensitive path", args: []cty.Value{sens(cty.StringVal("f.txt"))}, want: sens(want)},
			})
		})
	}
}

func TestUUID(t *testing.T) {
	re := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
	a, err := UUIDFunc.Call(nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := UUIDFunc.Call(nil)
	if err != nil {
		t.Fatal(err)
	}
	if !re.MatchString(a.AsString()) {
		t.Errorf("not a UUID: %q", a.AsString())
	}
	if a.RawEquals(b) {
		t.Errorf("two calls gave the same UUID %q", a.AsString())
	}
}

func TestUUIDV5(t *testing.T) {
	s := cty.StringVal
	// Expected values from Python's uuid.uuid5.
	runCases(t, UUIDV5Func, []callCase{
		{name: "dns", args: []cty.Value{s("dns"), s("www.example.com")}, want: s("2ed6657d-e927-568b-95e1-2665a8aea6a2")},
		{name: "url", args: []cty.Value{s("url"), s("https://x")}, want: s("48d34be5-10a3-5c30-96ef-9cf9a60110f2")},
		{name: "explicit namespace", args: []cty.Value{s("6ba7b812-9dad-11d1-80b4-00c04fd430c8"), s("1.2")}, want: s("b4fe3335-a2ae-5c75-889c-b1247a0f6f02")},
		{name: "bad namespace", args: []cty.Value{s("nope"), s("x")}, err: `must be one of "dns", "url", "oid", "x500", or a UUID string`},
		{name: "unknown", args: []cty.Value{s("dns"), cty.UnknownVal(cty.String)}, want: cty.UnknownVal(cty.String)},
		{name: "sensitive", args: []cty.Value{s("dns"), sens(s("www.example.com"))}, want: sens(s("2ed6657d-e927-568b-95e1-2665a8aea6a2"))},
	})
}

func TestBcrypt(t *testing.T) {
	s, n := cty.StringVal, cty.NumberIntVal
	runCases(t, BcryptFunc, []callCase{
		{name: "unknown", args: []cty.Value{cty.UnknownVal(cty.String)}, want: cty.UnknownVal(cty.String)},
		{name: "unknown cost", args: []cty.Value{s("x"), cty.UnknownVal(cty.Number)}, want: cty.UnknownVal(cty.String)},
		{name: "null", args: []cty.Value{cty.NullVal(cty.String)}, err: "must not be null"},
		{name: "cost too high", args: []cty.Value{s("x"), n(32)}, err: "cost must be at most 31"},
		{name: "fractional cost", args: []cty.Value{s("x"), cty.NumberFloatVal(4.5)}, err: "whole number"},
		{name: "three arguments", args: []cty.Value{s("x"), n(4), n(4)}, err: "at most two arguments"},
		{name: "too long", args: []cty.Value{s(strings.Repeat("a", 73)), n(4)}, err: "cannot hash"},
	})
	check := func(t *testing.T, got cty.Value, password, prefix string) {
		t.Helper()
		hash := got.AsString()
		if !strings.HasPrefix(hash, prefix) {
			t.Errorf("hash %q does not start with %q", hash, prefix)
		}
		if err := bcrypt.CompareHashAndPassword([]byte(hash), []byte(password)); err != nil {
			t.Errorf("hash %q does not verify: %s", hash, err)
		}
	}
	t.Run("known", func(t *testing.T) {
		a, err := BcryptFunc.Call([]cty.Value{s("hello world"), n(4)})
		if err != nil {
			t.Fatal(err)
		}
		check(t, a, "hello world", "$2a$04$")
		b, err := BcryptFunc.Call([]cty.Value{s("hello world"), n(4)})
		if err != nil {
			t.Fatal(err)
		}
		if a.RawEquals(b) {
			t.Errorf("two calls gave the same hash %q; the salt must be random", a.AsString())
		}
	})
	t.Run("default cost", func(t *testing.T) {
		got, err := BcryptFunc.Call([]cty.Value{s("pw")})
		if err != nil {
			t.Fatal(err)
		}
		check(t, got, "pw", "$2a$10$")
	})
	t.Run("cost below minimum means default", func(t *testing.T) {
		got, err := BcryptFunc.Call([]cty.Value{s("pw"), n(2)})
		if err != nil {
			t.Fatal(err)
		}
		check(t, got, "pw", "$2a$10$")
	})
	t.Run("sensitive", func(t *testing.T) {
		got, err := BcryptFunc.Call([]cty.Value{sens(s("pw")), n(4)})
		if err != nil {
			t.Fatal(err)
		}
		if !got.HasMark(marks.Sensitive) {
			t.Fatalf("result of a sensitive input is not sensitive: %#v", got)
		}
		plain, _ := got.Unmark()
		check(t, plain, "pw", "$2a$04$")
	})
}
