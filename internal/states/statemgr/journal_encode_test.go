package statemgr

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plankit/plankit/addrs"
	"github.com/plankit/plankit/states"
	"github.com/plankit/plankit/states/statefile"
)

// refEncodeSet is the set record as the journal first made it: a state
// built to hold only addr's objects, written by statefile.Write, in a
// journalRecord whose instance name is marshalled by encoding/json.
func refEncodeSet(s *states.State, addr addrs.AbsResourceInstance) ([]byte, error) {
	mini := states.NewState()
	if r := s.Resource(addr.ContainingResource()); r != nil {
		if ri := r.Instances[addr.Resource.Key]; ri != nil {
			if ri.Current != nil {
				mini.SetResourceInstanceCurrent(addr, ri.Current, r.ProviderConfig)
			}
			for dk, obj := range ri.Deposed {
				mini.SetResourceInstanceDeposed(addr, dk, obj, r.ProviderConfig)
			}
		}
	}
	inst, _ := json.Marshal(addr.String())
	var buf bytes.Buffer
	buf.WriteString(`{"k":"set","i":`)
	buf.Write(inst)
	buf.WriteString(`,"s":`)
	if err := statefile.Write(&statefile.File{State: mini}, &buf); err != nil {
		return nil, err
	}
	buf.WriteString("}")
	return buf.Bytes(), nil
}

// TestJournalRecordsMatchReference: the begin, end and set records are
// byte for byte what the journal wrote before they were built by hand
// (json.Marshal of journalRecord; a one-instance state through
// statefile.Write), for instances with odd names and keys, in modules,
// with deposed objects and with none at all; and the persister's pooled
// path (Record) appends the same set records.
func TestJournalRecordsMatchReference(t *testing.T) {
	odd := []string{"a", `q"uote`, "<b>&amp;</b>", "tab\there", "ünï", "line\u2028sep", "bad\xffutf8", ""}
	s := states.NewState()
	var addrsList []addrs.AbsResourceInstance
	pcs := []addrs.AbsProviderConfig{nullProvider, {Provider: addrs.NewDefaultProvider("null"), Alias: "east"}}
	for i, name := range odd {
		mod := addrs.RootModuleInstance
		if i%2 == 1 {
			mod = mod.Child("m", addrs.StringKey(name))
		}
		var key addrs.InstanceKey = addrs.NoKey
		switch i % 3 {
		case 1:
			key = addrs.IntKey(i)
		case 2:
			key = addrs.StringKey(name)
		}
		addr := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "null_resource", Name: fmt.Sprintf("r%d", i)}.Instance(key).Absolute(mod)
		addrsList = append(addrsList, addr)
		obj := benchObj(i, 0)
		id, _ := json.Marshal(name)
		obj.AttrsJSON = fmt.Appendf(nil, `{"id":%s,"html":"<&>"}`, id)
		s.SetResourceInstanceCurrent(addr, obj, pcs[i%2])
		if i%4 == 3 {
			s.SetResourceInstanceDeposed(addr, addrs.DeposedKey(fmt.Sprintf("%08x", i)), benchObj(i+100, 1), pcs[i%2])
		}
		if i%5 == 4 {
			s.SetResourceInstanceCurrent(addr, nil, pcs[i%2]) // only deposed, or gone
		}
	}
	addrsList = append(addrsList, instAddr(12345)) // never in the state

	mgr := NewFilesystem(t.TempDir() + "/terraform.tfstate")
	j, err := mgr.Journal()
	if err != nil {
		t.Fatal(err)
	}
	p := NewBackgroundPersister(mgr, PersisterOptions{Source: s.SyncWrapper(), Journal: j, CheckpointBytes: 1 << 30})
	var wantRecs []string
	for _, addr := range addrsList {
		want, err := refEncodeSet(s, addr)
		if err != nil {
			t.Fatal(err)
		}
		got, err := EncodeSet(s, addr)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(string(want), string(got)); d != "" {
			t.Errorf("set %s (-reference +EncodeSet):\n%s", addr, d)
		}
		bp := recBufs.Get().(*[]byte)
		pooled, err := instanceObjectsOf(s, addr).appendSet((*bp)[:0], addr)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(string(want), string(pooled)); d != "" {
			t.Errorf("pooled set %s (-reference +appendSet):\n%s", addr, d)
		}
		putRecBuf(bp, pooled)
		if err := p.Record(addr); err != nil {
			t.Fatal(err)
		}
		wantRecs = append(wantRecs, string(want))

		for _, action := range []string{"create", "destroy of deposed object 0000abcd", "<odd>\"", ""} {
			want, _ := json.Marshal(journalRecord{Kind: "begin", Instance: addr.String(), Action: action})
			if got := EncodeBegin(addr, action); !bytes.Equal(got, want) {
				t.Errorf("begin %s %q: got %s, want %s", addr, action, got, want)
			}
		}
		want, _ = json.Marshal(journalRecord{Kind: "end", Instance: addr.String()})
		if got := EncodeEnd(addr); !bytes.Equal(got, want) {
			t.Errorf("end %s: got %s, want %s", addr, got, want)
		}
	}
	recs, damaged, err := j.Records()
	if err != nil || damaged != 0 {
		t.Fatalf("journal: %v, %d damaged", err, damaged)
	}
	var gotRecs []string
	for _, r := range recs {
		gotRecs = append(gotRecs, string(r))
	}
	if d := cmp.Diff(wantRecs, gotRecs); d != "" {
		t.Errorf("records Record appended (-reference +journal):\n%s", d)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
}
