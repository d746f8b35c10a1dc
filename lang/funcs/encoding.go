package funcs

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"net/url"
	"unicode/utf8"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
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
