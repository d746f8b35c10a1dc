package jsonplan

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/plans"
)

// TestSectionsAreWhatWriteWrites: the members StartSections
// and Finish make, read back by ParseSections and given to Write instead of the
// configuration, give the very document Write makes from the
// configuration, with relevant_attributes present and absent.
func TestSectionsAreWhatWriteWrites(t *testing.T) {
	compat, compatConfig := compatPlan(t)
	conds, condsConfig := manyPlan(2), conditionsConfig(t)
	for _, tc := range []struct {
		name     string
		p        *plans.Plan
		config   *configs.Config
		relevant bool
	}{
		{"modules, variables, outputs, provisioners", compat, compatConfig, true},
		{"conditions and checks, which make nothing relevant", conds, condsConfig, false},
		{"nothing relevant", manyPlan(3), compatConfig, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want, err := Marshal(tc.p, Options{Version: "1.0", Config: tc.config})
			if err != nil {
				t.Fatal(err)
			}
			var raw chunkWriter
			if err := writeSections(&raw, tc.config, tc.p); err != nil {
				t.Fatal(err)
			}
			if !json.Valid(raw.Bytes()) {
				t.Fatalf("the sections are invalid JSON: %.300s", raw.Bytes())
			}
			s, err := ParseSections(raw.Bytes())
			if err != nil {
				t.Fatalf("ParseSections refused the sections: %v", err)
			}
			if got := len(s.RelevantAttributes) > 0; got != tc.relevant {
				t.Fatalf("relevant_attributes present = %v, want %v (the case must cover it)", got, tc.relevant)
			}
			got, err := Marshal(tc.p, Options{Version: "1.0", Sections: s})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("the document from the sections differs from the one from the configuration (-want +got):\n%s", diff)
			}
			var streamed chunkWriter
			if err := Write(&streamed, tc.p, Options{Version: "1.0", Sections: s}); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want)+"\n", streamed.String()); diff != "" {
				t.Errorf("Write with the sections differs from Marshal (-want +got):\n%s", diff)
			}
		})
	}
}

// writeSections writes the sections of config and p in one go, as plan
// -out does in two.
func writeSections(w io.Writer, config *configs.Config, p *plans.Plan) error {
	s, err := StartSections(w, config, p.ProviderSchemas, nil)
	if err != nil {
		return err
	}
	return s.Finish(p)
}

// TestParseSections: what ParseSections accepts, normalises and refuses,
// each refusal saying what is wrong.
func TestParseSections(t *testing.T) {
	for _, tc := range []struct {
		name, in      string
		config, attrs string // what it reads, when accepted
		err           string
	}{
		{name: "both", in: `{"configuration":{"root_module":{}},"relevant_attributes":[{"resource":"a.b","attribute":["x"]}]}`,
			config: `{"root_module":{}}`, attrs: `[{"resource":"a.b","attribute":["x"]}]`},
		{name: "configuration only", in: `{"configuration":{}}`, config: `{}`},
		{name: "empty relevant_attributes", in: `{"configuration":{}, "relevant_attributes": [ ]}`, config: `{}`},
		{name: "null relevant_attributes", in: `{"configuration":{},"relevant_attributes":null}`, config: `{}`},
		{name: "other members ignored", in: `{"x":1,"configuration":{"a":1}}`, config: `{"a":1}`},
		{name: "not JSON", in: `configuration`, err: "not valid JSON"},
		{name: "not UTF-8", in: "{\"configuration\":{\"a\":\"\xff\xfe\"}}", err: "not UTF-8"},
		{name: "empty", in: ``, err: "not valid JSON"},
		{name: "cut short", in: `{"configuration":{"root_module":`, err: "not valid JSON"},
		{name: "trailing text", in: `{"configuration":{}} {}`, err: "not valid JSON"},
		{name: "an array", in: `[]`, err: "not a JSON object"},
		{name: "a string", in: `"configuration"`, err: "not a JSON object"},
		{name: "no configuration", in: `{}`, err: `"configuration" member is missing`},
		{name: "null configuration", in: `{"configuration":null}`, err: `"configuration" member is missing or not an object`},
		{name: "configuration not an object", in: `{"configuration":[]}`, err: `"configuration" member is missing or not an object`},
		{name: "relevant_attributes not an array", in: `{"configuration":{},"relevant_attributes":{}}`, err: `"relevant_attributes" member is not an array`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := ParseSections([]byte(tc.in))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one saying %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]string{tc.config, tc.attrs}, []string{string(s.Configuration), string(s.RelevantAttributes)}); diff != "" {
				t.Errorf("sections (-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzParseSections: ParseSections never panics, and whatever it
// accepts, Write turns into a valid JSON document in UTF-8 holding the
// configuration it read.
func FuzzParseSections(f *testing.F) {
	for _, seed := range []string{
		`{"configuration":{"root_module":{"resources":[{"address":"a.b"}]}},"relevant_attributes":[{"resource":"a.b","attribute":["x",0]}]}`,
		`{"configuration":{}}`, `{"configuration":{ "a" : "<&>" }}`, `{"configuration":{},"relevant_attributes":[]}`,
		`[]`, `{`, `{"configuration":1}`, "{\"configuration\":{\"a\":\"\u2028\"}}",
	} {
		f.Add([]byte(seed))
	}
	p := manyPlan(1)
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := ParseSections(b)
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := Write(&out, p, Options{Sections: s}); err != nil {
			t.Fatalf("Write with accepted sections: %v", err)
		}
		var doc struct {
			Configuration json.RawMessage `json:"configuration"`
		}
		if !utf8.Valid(out.Bytes()) {
			t.Fatalf("Write with sections %q made text that is not UTF-8", b)
		}
		if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
			t.Fatalf("Write with sections %q made invalid JSON: %v", b, err)
		}
		var want, got bytes.Buffer
		if json.Compact(&want, s.Configuration) != nil || json.Compact(&got, doc.Configuration) != nil || !jsonEqual(want.Bytes(), got.Bytes()) {
			t.Fatalf("configuration written %s, read %s", doc.Configuration, s.Configuration)
		}
	})
}

// jsonEqual reports whether two JSON texts are the same value.
func jsonEqual(a, b []byte) bool {
	var va, vb any
	if json.Unmarshal(a, &va) != nil || json.Unmarshal(b, &vb) != nil {
		return false
	}
	return cmp.Equal(va, vb)
}
