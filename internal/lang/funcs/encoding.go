package funcs

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"fmt"
	"net/url"
	"unicode/utf8"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/ianaindex"
)

// Base64EncodeFunc encodes a string's UTF-8 bytes as standard base64.
var Base64EncodeFunc = function.New(&function.Spec{
	Description:  "Applies Base64 encoding to a string.",
	Params:       []function.Parameter{{Name: "str", Type: cty.String}},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		return cty.StringVal(base64.StdEncoding.EncodeToString([]byte(args[0].AsString()))), nil
	},
})

// Base64DecodeFunc decodes standard base64 into a string. The decoded bytes
// must be UTF-8, since cty strings are Unicode; binary content belongs in
// base64 form. Errors never quote the input, which may be secret.
var Base64DecodeFunc = function.New(&function.Spec{
	Description:  "Decodes a string containing a base64 sequence.",
	Params:       []function.Parameter{{Name: "str", Type: cty.String}},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		b, err := base64.StdEncoding.DecodeString(args[0].AsString())
		if err != nil {
			return cty.NilVal, function.NewArgErrorf(0, "failed to decode base64 data: %s", err)
		}
		if !utf8.Valid(b) {
			return cty.NilVal, function.NewArgErrorf(0, "the result of decoding the provided string is not valid UTF-8; keep binary data base64-encoded")
		}
		return cty.StringVal(string(b)), nil
	},
})

// Base64GzipFunc gzips a string and base64-encodes the result, for APIs
// that take compressed payloads (user data, for example).
var Base64GzipFunc = function.New(&function.Spec{
	Description:  "Compresses a string with gzip and then encodes the result in Base64 encoding.",
	Params:       []function.Parameter{{Name: "str", Type: cty.String}},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		var buf bytes.Buffer
		w := gzip.NewWriter(&buf)
		if _, err := w.Write([]byte(args[0].AsString())); err != nil {
			return cty.NilVal, err
		}
		if err := w.Close(); err != nil {
			return cty.NilVal, err
		}
		return cty.StringVal(base64.StdEncoding.EncodeToString(buf.Bytes())), nil
	},
})

// URLEncodeFunc escapes a string for use in a URL query.
var URLEncodeFunc = function.New(&function.Spec{
	Description:  "Applies URL encoding to a given string.",
	Params:       []function.Parameter{{Name: "str", Type: cty.String}},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		return cty.StringVal(url.QueryEscape(args[0].AsString())), nil
	},
})

// TextEncodeBase64Func encodes a string's characters in the named character
// encoding and base64-encodes the bytes: textencodebase64("Hi", "UTF-16LE").
// Names are IANA character-set names or aliases, matched case-insensitively
// (golang.org/x/text's IANA index); a name IANA lists but the index cannot
// encode is an error, as is a character the encoding cannot represent.
var TextEncodeBase64Func = function.New(&function.Spec{
	Description: "Encodes a string in the given character encoding and returns the bytes in base64.",
	Params: []function.Parameter{
		{Name: "string", Type: cty.String},
		{Name: "encoding_name", Type: cty.String},
	},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		enc, name, err := ianaEncoding(args[1].AsString())
		if err != nil {
			return cty.NilVal, function.NewArgError(1, err)
		}
		b, err := enc.NewEncoder().Bytes([]byte(args[0].AsString()))
		if err != nil {
			return cty.NilVal, function.NewArgErrorf(0, "the string contains characters that %s cannot represent", name)
		}
		return cty.StringVal(base64.StdEncoding.EncodeToString(b)), nil
	},
})

// TextDecodeBase64Func decodes base64 and reads the bytes as text in the
// named character encoding: the inverse of textencodebase64. Bytes that are
// invalid in the encoding are an error. Messages never quote the input.
var TextDecodeBase64Func = function.New(&function.Spec{
	Description: "Decodes base64 data and interprets the bytes as text in the given character encoding.",
	Params: []function.Parameter{
		{Name: "source", Type: cty.String},
		{Name: "encoding_name", Type: cty.String},
	},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		enc, name, err := ianaEncoding(args[1].AsString())
		if err != nil {
			return cty.NilVal, function.NewArgError(1, err)
		}
		raw, err := base64.StdEncoding.DecodeString(args[0].AsString())
		if err != nil {
			return cty.NilVal, function.NewArgErrorf(0, "failed to decode base64 data: %s", err)
		}
		// Decoders replace invalid input with U+FFFD rather than failing;
		// the strict check is that the text encodes back to the same bytes.
		text, err := enc.NewDecoder().Bytes(raw)
		if err != nil || !utf8.Valid(text) {
			return cty.NilVal, function.NewArgErrorf(0, "the decoded bytes are not valid %s text", name)
		}
		if back, err := enc.NewEncoder().Bytes(text); err != nil || !bytes.Equal(back, raw) {
			return cty.NilVal, function.NewArgErrorf(0, "the decoded bytes are not valid %s text", name)
		}
		return cty.StringVal(string(text)), nil
	},
})

// ianaEncoding looks up an IANA character-set name or alias and returns the
// encoding with its canonical name, for messages.
func ianaEncoding(name string) (encoding.Encoding, string, error) {
	enc, err := ianaindex.IANA.Encoding(name)
	if err != nil || enc == nil {
		return nil, "", fmt.Errorf("%q is not a supported IANA character encoding name or alias; try \"UTF-8\", \"UTF-16LE\" or \"ISO-8859-1\"", name)
	}
	canonical, err := ianaindex.IANA.Name(enc)
	if err != nil {
		canonical = name
	}
	return enc, canonical, nil
}
