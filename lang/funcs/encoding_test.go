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
