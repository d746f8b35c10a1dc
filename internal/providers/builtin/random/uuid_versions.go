package random

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"time"

	"github.com/hashicorp/go-uuid"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/internal/providers/builtin/internal/framework"
	"github.com/plankit/plankit/providers"
	"github.com/plankit/plankit/providers/configschema"
	"github.com/plankit/plankit/tfdiags"
)

// uuidVersionResource is random_uuid4 or random_uuid7 (random 3.8+): the
// schema of random_uuid (keepers, result, id; version 0) with a version 4
// or version 7 UUID (RFC 9562) as the result.
func uuidVersionResource(version int) *framework.Resource {
	s := &configschema.Block{
		Description: fmt.Sprintf("A random version %d UUID.", version),
		Attributes: map[string]*configschema.Attribute{
			"keepers": keepersAttr(),
			"result":  computedString("The UUID."),
			"id":      computedString("The UUID."),
		},
	}
	gen := newUUIDv4
	if version == 7 {
		gen = func() (string, error) { return newUUIDv7(time.Now()) }
	}
	typ := fmt.Sprintf("random_uuid%d", version)
	return &framework.Resource{
		Schema: providers.Schema{Version: 0, Block: s},
		Plan:   planner(s, nil),
		Apply: func(req providers.ApplyResourceChangeRequest) (cty.Value, hcl.Diagnostics) {
			u, err := gen()
			if err != nil {
				return cty.NilVal, tfdiags.FromError("Generating UUID", err)
			}
			return framework.With(req.PlannedState, map[string]cty.Value{"result": cty.StringVal(u), "id": cty.StringVal(u)}), nil
		},
		Import: func(id string) (cty.Value, hcl.Diagnostics) {
			// Like random_uuid: parsed and stored lower-case; the real
			// provider does not check the version of an imported UUID.
			b, err := uuid.ParseUUID(id)
			if err == nil {
				id, err = uuid.FormatUUID(b)
			}
			if err != nil {
				return cty.NilVal, hcl.Diagnostics{tfdiags.Errorf("Invalid import ID", "%s imports by the UUID itself; %q is not a UUID: %s.", typ, id, err)}
			}
			return cty.ObjectVal(map[string]cty.Value{
				"keepers": cty.NullVal(cty.Map(cty.String)), "result": cty.StringVal(id), "id": cty.StringVal(id),
			}), nil
		},
	}
}

// newUUIDv4 returns a random version 4 UUID: 122 random bits, the
// version and the RFC 9562 variant. (go-uuid's GenerateUUID, which
// random_uuid uses as the real provider does, sets neither.)
func newUUIDv4() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	b[6] = 0x40 | b[6]&0x0f
	b[8] = 0x80 | b[8]&0x3f
	return uuid.FormatUUID(b[:])
}

// newUUIDv7 returns a version 7 UUID for time now: the Unix time in
// milliseconds in the first 48 bits, then the version, 12 random bits,
// the RFC 9562 variant and 62 random bits, so UUIDs sort by creation time.
func newUUIDv7(now time.Time) (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[6:]); err != nil {
		return "", err
	}
	var ms [8]byte
	binary.BigEndian.PutUint64(ms[:], uint64(now.UnixMilli()))
	copy(b[:6], ms[2:])
	b[6] = 0x70 | b[6]&0x0f
	b[8] = 0x80 | b[8]&0x3f
	return uuid.FormatUUID(b[:])
}
