package jsonplan

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/configs"
	"github.com/plankit/plankit/plans"
	"github.com/plankit/plankit/providers"
)

// Sections are the members of the document made from the configuration,
// "configuration" and "relevant_attributes", as JSON text. plan -out
// makes them (StartSections, then Finish) while it still has the parsed
// configuration and stores them in the archive, so that show -json
// copies them instead of parsing the configuration snapshot again
// (parsing is most of show -json's work). Both are text Write would
// write for them: compact, keys sorted, HTML-safe.
type Sections struct {
	// Configuration is the "configuration" object.
	Configuration json.RawMessage `json:"configuration"`
	// RelevantAttributes is the "relevant_attributes" array; empty when
	// there are none (Write then leaves the member out).
	RelevantAttributes json.RawMessage `json:"relevant_attributes,omitempty"`

	// parsed is set by ParseSections, which checked both members are
	// valid JSON in UTF-8: Write then copies them as they are. Others go
	// through encoding/json, which checks and compacts them.
	parsed bool
}

// PendingSections makes the text ParseSections reads — the JSON object
// {"configuration":…,"relevant_attributes":…}, relevant_attributes left
// out when empty, each member byte for byte what Write writes for the
// same configuration and plan — in two steps, so that plan -out can
// make the first while the plan is being made and drop the
// configuration as soon as the plan is: StartSections writes the
// configuration member, which needs the configuration and the provider
// schemas; Finish writes relevant_attributes from the plan's changes,
// reading the configuration's references.
type PendingSections struct {
	e *encoder
	// rel is relevant_attributes' traversal, fed changes by Feed.
	rel *relevanceTraversal
}

// StartSections writes the start of the object and the "configuration"
// member of config to w, the expressions written as schemas say and the
// providers named as hosts says (Options.Hosts); Finish
// reads config and schemas again (the plan's changes decide which of its
// references it follows). For the member to be what show -json makes from the stored
// plan, the stored plan must hold, for every provider and resource type
// config names, the schema schemas holds (terraform.Context.Plan keeps
// them). The text is streamed, in
// writes of about flushAt bytes. O(size of the configuration).
func StartSections(w io.Writer, config *configs.Config, schemas map[addrs.Provider]*providers.GetProviderSchemaResponse, hosts map[addrs.Provider]addrs.Provider) (*PendingSections, error) {
	if config == nil {
		return nil, errors.New("jsonplan: there is no configuration")
	}
	s := &PendingSections{e: &encoder{w: w, schemas: schemas, buf: make([]byte, 0, flushAt+flushAt/4)},
		rel: newRelevanceIndex(config, schemas).traversal()}
	s.e.buf = append(s.e.buf, `{"configuration":`...)
	err := s.e.encode(marshalConfig(config, schemas, hosts))
	if err != nil {
		return nil, err
	}
	s.e.schemas = nil // the encoder writes no more values
	return s, s.e.flush(false)
}

// Feed tells s, while the plan is being made, that the plan changes the
// resource instance at addr (an action other than NoOp): Finish then has
// less left to do for relevant_attributes (a sequential plan leaves a
// core idle for it). Finish checks what it was fed against the plan and
// starts again from the plan if the plan did not keep a change fed. Not
// safe for concurrent use, nor after Finish.
func (s *PendingSections) Feed(addr addrs.AbsResourceInstance) {
	s.rel.feed(addr)
}

// Finish writes the "relevant_attributes" member of plan p and the end
// of the object, and flushes. Attributes it finds (p had none recorded)
// are recorded in p, for the rendering's drift. O(references followed +
// changes).
func (s *PendingSections) Finish(p *plans.Plan) error {
	var attrs []resourceAttr
	switch {
	case p != nil && p.RelevantKnown:
		attrs = p.RelevantAttributes
	case p != nil:
		attrs = s.rel.finish(p)
		p.RelevantAttributes, p.RelevantKnown = attrs, true
	}
	s.rel = nil
	if len(attrs) > 0 {
		s.e.buf = append(s.e.buf, `,"relevant_attributes":`...)
		if err := s.e.encode(attrs); err != nil {
			return err
		}
	}
	s.e.buf = append(s.e.buf, '}')
	return s.e.flush(true)
}

// ParseSections reads what PendingSections wrote, refusing any text that
// is not UTF-8 or not a JSON object whose "configuration" is an object
// and whose "relevant_attributes", if present, is an array or null;
// other members are ignored. The members are checked to be valid JSON,
// not to be what Terraform's format puts there. O(len(b)).
func ParseSections(b []byte) (*Sections, error) {
	if !utf8.Valid(b) { // encoding/json lets invalid UTF-8 through raw messages
		return nil, errors.New("it is not UTF-8 text")
	}
	var s Sections
	if err := json.Unmarshal(b, &s); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return nil, errors.New("it is not a JSON object")
		}
		return nil, fmt.Errorf("it is not valid JSON: %w", err)
	}
	if !startsWith(s.Configuration, '{') {
		return nil, errors.New(`its "configuration" member is missing or not an object`)
	}
	switch {
	case len(s.RelevantAttributes) == 0 || bytes.Equal(s.RelevantAttributes, []byte("null")):
		s.RelevantAttributes = nil
	case !startsWith(s.RelevantAttributes, '['):
		return nil, errors.New(`its "relevant_attributes" member is not an array`)
	case isEmptyArray(s.RelevantAttributes):
		s.RelevantAttributes = nil
	}
	s.parsed = true
	return &s, nil
}

// startsWith reports whether JSON value b, a member json.Unmarshal took
// (without white space around it), starts with c.
func startsWith(b []byte, c byte) bool {
	return len(b) > 0 && b[0] == c
}

// isEmptyArray reports whether JSON value b, a valid array as
// json.Unmarshal took it, has no elements.
func isEmptyArray(b []byte) bool {
	return len(bytes.TrimSpace(b[1:len(b)-1])) == 0
}

// write appends the two members as Write writes them, after other
// members (so each is preceded by a comma). Parsed members are copied as
// they are: valid JSON stays valid, and what plan -out stores is already
// compact and escaped as Write escapes (e.raw would send a member with
// any character from U+2000 to U+2FFF, such as a dash in a description,
// through encoding/json whole).
func (s *Sections) write(e *encoder) error {
	member := func(key string, b json.RawMessage) error {
		e.buf = append(e.buf, key...)
		if s.parsed {
			e.buf = append(e.buf, b...)
			return nil
		}
		return e.raw(b)
	}
	if err := member(`,"configuration":`, s.Configuration); err != nil {
		return err
	}
	if len(s.RelevantAttributes) > 0 {
		return member(`,"relevant_attributes":`, s.RelevantAttributes)
	}
	return nil
}
