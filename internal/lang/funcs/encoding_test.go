package funcs

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"io"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestBase64(t *testing.T) {
	s := cty.StringVal
	runCases(t, Base64EncodeFunc, []callCase{
		{name: "text", args: []cty.Value{s("abc123!?$*&()'-=@~")}, want: s("YWJjMTIzIT8kKiYoKSctPUB+")},
		{name: "empty", args: []cty.Value{s("")}, want: s("")},
		{name: "unknown", args: []cty.Value{cty.UnknownVal(cty.String)}, want: cty.UnknownVal(cty.String)},
		{name: "sensitive", args: []cty.Value{sens(s("a"))}, want: sens(s("YQ=="))},
		{name: "null", args: []cty.Value{cty.NullVal(cty.String)}, err: "must not be null"},
	})
	runCases(t, Base64DecodeFunc, []callCase{
		{name: "text", args: []cty.Value{s("YWJjMTIzIT8kKiYoKSctPUB+")}, want: s("abc123!?$*&()'-=@~")},
		{name: "invalid", args: []cty.Value{s("not base64!")}, err: "failed to decode base64 data"},
		{name: "binary", args: []cty.Value{s("/w==")}, err: "not valid UTF-8"},
		{name: "unknown", args: []cty.Value{cty.UnknownVal(cty.String)}, want: cty.UnknownVal(cty.String)},
		{name: "sensitive", args: []cty.Value{sens(s("YQ=="))}, want: sens(s("a"))},
	})
}

func TestBase64Gzip(t *testing.T) {
	got, err := Base64GzipFunc.Call([]cty.Value{cty.StringVal("test")})
	if err != nil {
		t.Fatal(err)
	}
	raw, err := base64.StdEncoding.DecodeString(got.AsString())
	if err != nil {
		t.Fatalf("result is not base64: %s", err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("result is not gzip: %s", err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil || string(plain) != "test" {
		t.Fatalf("round trip gave %q, %v", plain, err)
	}
	runCases(t, Base64GzipFunc, []callCase{
		{name: "unknown", args: []cty.Value{cty.UnknownVal(cty.String)}, want: cty.UnknownVal(cty.String)},
		{name: "sensitive", args: []cty.Value{sens(cty.StringVal("test"))}, want: sens(got)},
	})
}

func TestURLEncode(t *testing.T) {
	s := cty.StringVal
	runCases(t, URLEncodeFunc, []callCase{
		{name: "query", args: []cty.Value{s("a b&c=d/é")}, want: s("a+b%26c%3Dd%2F%C3%A9")},
		{name: "unknown", args: []cty.Value{cty.UnknownVal(cty.String)}, want: cty.UnknownVal(cty.String)},
		{name: "sensitive", args: []cty.Value{sens(s("a b"))}, want: sens(s("a+b"))},
	})
}

// The UTF-16LE vectors are the ones in Terraform's documentation for
// textencodebase64/textdecodebase64.
func TestTextBase64(t *testing.T) {
	s := cty.StringVal
	runCases(t, TextEncodeBase64Func, []callCase{
		{name: "UTF-16LE", args: []cty.Value{s("Hello World"), s("UTF-16LE")}, want: s("SABlAGwAbABvACAAVwBvAHIAbABkAA==")},
		{name: "alias, any case", args: []cty.Value{s("é"), s("latin1")}, want: s("6Q==")},
		{name: "UTF-8 is base64encode", args: []cty.Value{s("héllo"), s("utf-8")}, want: s(base64.StdEncoding.EncodeToString([]byte("héllo")))},
		{name: "unrepresentable", args: []cty.Value{s("€"), s("ISO-8859-1")}, err: "cannot represent"},
		{name: "unknown name", args: []cty.Value{s("x"), s("klingon")}, err: `"klingon" is not a supported IANA character encoding`},
		{name: "unknown", args: []cty.Value{cty.UnknownVal(cty.String), s("UTF-16LE")}, want: cty.UnknownVal(cty.String)},
		{name: "unknown encoding", args: []cty.Value{s("x"), cty.UnknownVal(cty.String)}, want: cty.UnknownVal(cty.String)},
		{name: "sensitive", args: []cty.Value{sens(s("Hello World")), s("UTF-16LE")}, want: sens(s("SABlAGwAbABvACAAVwBvAHIAbABkAA=="))},
		{name: "null", args: []cty.Value{cty.NullVal(cty.String), s("UTF-16LE")}, err: "must not be null"},
	})
	runCases(t, TextDecodeBase64Func, []callCase{
		{name: "UTF-16LE", args: []cty.Value{s("SABlAGwAbABvACAAVwBvAHIAbABkAA=="), s("UTF-16LE")}, want: s("Hello World")},
		{name: "latin1", args: []cty.Value{s("6Q=="), s("ISO_8859-1")}, want: s("é")},
		{name: "invalid UTF-8", args: []cty.Value{s("/w=="), s("UTF-8")}, err: "not valid UTF-8 text"},
		{name: "odd UTF-16 length", args: []cty.Value{s("SABl"), s("UTF-16LE")}, err: "not valid UTF-16LE text"},
		{name: "bad base64", args: []cty.Value{s("not base64!"), s("UTF-16LE")}, err: "failed to decode base64 data"},
		{name: "unknown name", args: []cty.Value{s("SAA="), s("klingon")}, err: "not a supported IANA"},
		{name: "unknown", args: []cty.Value{cty.UnknownVal(cty.String), s("UTF-16LE")}, want: cty.UnknownVal(cty.String)},
		{name: "sensitive", args: []cty.Value{sens(s("SAA=")), s("UTF-16LE")}, want: sens(s("H"))},
		{name: "null", args: []cty.Value{cty.NullVal(cty.String), s("UTF-16LE")}, err: "must not be null"},
	})
}
