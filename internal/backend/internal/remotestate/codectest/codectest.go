// Package codectest has a statemgr.Codec for the remote backends' tests of
// state encryption: one whose stored form is easy to recognise in the
// store.
package codectest

import (
	"bytes"
	"encoding/base64"
	"errors"
)

// Prefix is what every stored form Prefix.Encode writes begins with.
const Prefix = "ENC:"

// PrefixCodec stores "ENC:" + base64(state); data without the prefix is
// read in clear and marked for rewrite, as a migration to encryption does.
type PrefixCodec struct{}

func (PrefixCodec) Encode(p []byte) ([]byte, error) {
	return []byte(Prefix + base64.StdEncoding.EncodeToString(p)), nil
}

func (PrefixCodec) Decode(s []byte) ([]byte, bool, error) {
	rest, ok := bytes.CutPrefix(s, []byte(Prefix))
	if !ok {
		return s, true, nil
	}
	p, err := base64.StdEncoding.DecodeString(string(rest))
	if err != nil {
		return nil, false, errors.New("cannot decode the stored state")
	}
	return p, false, nil
}
