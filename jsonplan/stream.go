package jsonplan

import (
	"io"
	"reflect"
	"slices"

	"github.com/plankit/plankit/plans"
)

// Write writes the JSON plan representation of p to w, followed by a
// newline: the bytes of Marshal, made and written as they go. Resource
// entries (planned_values, resource_changes, resource_drift, prior_state)
// are made one at a time while the document is written, so memory holds
// the plan and one resource's JSON, never a second copy of every value;
// w gets writes of about flushAt bytes. After an error w may hold part of
// a document. O(size of the plan and its states).
func Write(w io.Writer, p *plans.Plan, opts Options) error {
	e := &encoder{w: w, schemas: p.ProviderSchemas, buf: make([]byte, 0, flushAt+flushAt/4)}
	if err := e.document(p, opts); err != nil {
		return err
	}
	e.buf = append(e.buf, '\n')
	return e.flush(true)
}

// document appends the whole document: the members before
// "configuration" first, then the members made from the configuration
// (opts.Config's, else opts.Sections copied, else LoadConfig's if it
// still has to load), then the rest.
func (e *encoder) document(p *plans.Plan, opts Options) error {
	out, err := newPlanJSON(p, opts)
	if err != nil {
		return err
	}
	v := reflect.ValueOf(out).Elem()
	fields := fieldsOf(v.Type())
	split := slices.IndexFunc(fields, func(f field) bool { return f.key == `"configuration":` })
	if split < 0 || split+1 >= len(fields) || fields[split+1].key != `"relevant_attributes":` {
		panic("jsonplan: planJSON has no configuration and relevant_attributes members in a row")
	}
	e.buf = append(e.buf, '{')
	first, err := e.fields(v, fields[:split], true)
	if err != nil {
		return err
	}
	rest := fields[split:]
	switch {
	case opts.Config != nil:
	case opts.Sections != nil && !first: // format_version always comes first
		if err := opts.Sections.write(e); err != nil {
			return err
		}
		rest = fields[split+2:]
	case opts.LoadConfig != nil:
		if config := opts.LoadConfig(); config != nil {
			out.addConfig(config, p, opts.Hosts)
		}
	}
	if _, err := e.fields(v, rest, first); err != nil {
		return err
	}
	e.buf = append(e.buf, '}')
	return nil
}

// resourceChangeList is resource_changes or resource_drift: the changes,
// each made into its resourceChange entry only when it is written.
type resourceChangeList []*plans.ResourceInstanceChange

func (l resourceChangeList) streamJSON(e *encoder) error {
	sorted := plans.SortedResourceChanges(l)
	return e.entries(len(sorted), func(e *encoder, i int) error {
		// One change at a time through the list function, so the entry
		// is the one Marshal has always made.
		one, err := marshalResourceChanges(sorted[i:i+1], e.schemas)
		if err != nil {
			return err
		}
		return e.value(reflect.ValueOf(&one[0]).Elem())
	})
}

// resourceList is the resources of one module of planned_values or
// prior_state, each made into its resource entry only when it is written.
type resourceList []lazyResource

// lazyResource is a resource entry to make: its address (the sort key)
// and the function that makes it.
type lazyResource struct {
	address string
	make    func() (resource, error)
}

func (l resourceList) streamJSON(e *encoder) error {
	return e.entries(len(l), func(e *encoder, i int) error {
		r, err := l[i].make()
		if err != nil {
			return err
		}
		return e.value(reflect.ValueOf(&r).Elem())
	})
}
