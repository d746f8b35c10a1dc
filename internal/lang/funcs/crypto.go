package funcs

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"hash"

	uuid "github.com/hashicorp/go-uuid"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/gocty"
	"golang.org/x/crypto/bcrypt"
)

// Hash functions over a string's UTF-8 bytes: hex digests and base64 ones.
var (
	MD5Func          = makeStringHashFunc(md5.New, hex.EncodeToString)
	SHA1Func         = makeStringHashFunc(sha1.New, hex.EncodeToString)
	SHA256Func       = makeStringHashFunc(sha256.New, hex.EncodeToString)
	SHA512Func       = makeStringHashFunc(sha512.New, hex.EncodeToString)
	Base64SHA256Func = makeStringHashFunc(sha256.New, base64.StdEncoding.EncodeToString)
	Base64SHA512Func = makeStringHashFunc(sha512.New, base64.StdEncoding.EncodeToString)
)

// MakeFileMD5Func and its siblings hash the raw bytes of a file read
// through files, so binary files can be hashed.
func MakeFileMD5Func(files Files) function.Function {
	return makeFileHashFunc(files, md5.New, hex.EncodeToString)
}

// MakeFileSHA1Func hashes a file with SHA-1, hex-encoded.
func MakeFileSHA1Func(files Files) function.Function {
	return makeFileHashFunc(files, sha1.New, hex.EncodeToString)
}

// MakeFileSHA256Func hashes a file with SHA-256, hex-encoded.
func MakeFileSHA256Func(files Files) function.Function {
	return makeFileHashFunc(files, sha256.New, hex.EncodeToString)
}

// MakeFileSHA512Func hashes a file with SHA-512, hex-encoded.
func MakeFileSHA512Func(files Files) function.Function {
	return makeFileHashFunc(files, sha512.New, hex.EncodeToString)
}

// MakeFileBase64SHA256Func hashes a file with SHA-256, base64-encoded.
func MakeFileBase64SHA256Func(files Files) function.Function {
	return makeFileHashFunc(files, sha256.New, base64.StdEncoding.EncodeToString)
}

// MakeFileBase64SHA512Func hashes a file with SHA-512, base64-encoded.
func MakeFileBase64SHA512Func(files Files) function.Function {
	return makeFileHashFunc(files, sha512.New, base64.StdEncoding.EncodeToString)
}

func makeStringHashFunc(newHash func() hash.Hash, enc func([]byte) string) function.Function {
	return function.New(&function.Spec{
		Description:  "Computes a hash of the given string.",
		Params:       []function.Parameter{{Name: "str", Type: cty.String}},
		Type:         function.StaticReturnType(cty.String),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			h := newHash()
			h.Write([]byte(args[0].AsString()))
			return cty.StringVal(enc(h.Sum(nil))), nil
		},
	})
}

func makeFileHashFunc(files Files, newHash func() hash.Hash, enc func([]byte) string) function.Function {
	return function.New(&function.Spec{
		Description:  "Computes a hash of the contents of the given file.",
		Params:       []function.Parameter{{Name: "path", Type: cty.String}},
		Type:         function.StaticReturnType(cty.String),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			b, err := readFile(files, args[0].AsString())
			if err != nil {
				return cty.NilVal, function.NewArgError(0, err)
			}
			h := newHash()
			h.Write(b)
			return cty.StringVal(enc(h.Sum(nil))), nil
		},
	})
}

// UUIDFunc returns a fresh random (version 4) UUID on every call. It is
// impure: lang.Scope makes it return unknown during plan.
var UUIDFunc = function.New(&function.Spec{
	Description:  "Generates a random UUID (version 4) string.",
	Params:       []function.Parameter{},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		s, err := uuid.GenerateUUID()
		if err != nil {
			return cty.NilVal, err
		}
		return cty.StringVal(s), nil
	},
})

// uuidNamespaces are RFC 4122's predefined namespaces, by the short names
// uuidv5 accepts.
var uuidNamespaces = map[string]string{
	"dns":  "6ba7b810-9dad-11d1-80b4-00c04fd430c8",
	"url":  "6ba7b811-9dad-11d1-80b4-00c04fd430c8",
	"oid":  "6ba7b812-9dad-11d1-80b4-00c04fd430c8",
	"x500": "6ba7b814-9dad-11d1-80b4-00c04fd430c8",
}

// UUIDV5Func returns the name-based (SHA-1, version 5) UUID of name within
// a namespace: "dns", "url", "oid", "x500" or any UUID string. Pure: the
// same inputs always give the same UUID.
var UUIDV5Func = function.New(&function.Spec{
	Description: "Generates a name-based UUID (version 5).",
	Params: []function.Parameter{
		{Name: "namespace", Type: cty.String},
		{Name: "name", Type: cty.String},
	},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		ns := args[0].AsString()
		if known, ok := uuidNamespaces[ns]; ok {
			ns = known
		}
		nsBytes, err := uuid.ParseUUID(ns)
		if err != nil {
			return cty.NilVal, function.NewArgErrorf(0, "must be one of \"dns\", \"url\", \"oid\", \"x500\", or a UUID string: %s", err)
		}
		h := sha1.New()
		h.Write(nsBytes)
		h.Write([]byte(args[1].AsString()))
		sum := h.Sum(nil)[:16]
		sum[6] = sum[6]&0x0f | 0x50 // version 5
		sum[8] = sum[8]&0x3f | 0x80 // RFC 4122 variant
		s, err := uuid.FormatUUID(sum)
		if err != nil {
			return cty.NilVal, err
		}
		return cty.StringVal(s), nil
	},
})

// BcryptFunc hashes a string with bcrypt at the given cost (default 10),
// in Modular Crypt Format ("$2a$10$..."). The salt is random, so every call
// gives a different hash: it is impure, and lang.Scope makes it return
// unknown during plan. A cost below 4 means the default, as in the bcrypt
// library Terraform uses (so such configurations keep working); a cost
// above 31 and strings over 72 bytes are errors. Cost: 2^cost Blowfish key
// setups.
var BcryptFunc = function.New(&function.Spec{
	Description:  "Computes a hash of the given string using the Blowfish cipher, in Modular Crypt Format.",
	Params:       []function.Parameter{{Name: "str", Type: cty.String}},
	VarParam:     &function.Parameter{Name: "cost", Type: cty.Number},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		cost := bcrypt.DefaultCost
		switch len(args) {
		case 1:
		case 2:
			if err := gocty.FromCtyValue(args[1], &cost); err != nil {
				return cty.NilVal, function.NewArgErrorf(1, "cost must be a whole number: %s", err)
			}
			if cost > bcrypt.MaxCost {
				return cty.NilVal, function.NewArgErrorf(1, "cost must be at most %d; each step doubles the work, and 10 to 12 is usual", bcrypt.MaxCost)
			}
		default:
			return cty.NilVal, function.NewArgErrorf(2, "bcrypt takes at most two arguments: the string and the cost")
		}
		hash, err := bcrypt.GenerateFromPassword([]byte(args[0].AsString()), cost)
		if err != nil {
			// The message names the limit, never the input.
			return cty.NilVal, function.NewArgErrorf(0, "cannot hash this string with bcrypt: %s", err)
		}
		return cty.StringVal(string(hash)), nil
	},
})
