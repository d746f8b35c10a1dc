package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-sdk/v2/diag"
	"github.com/hashicorp/terraform-plugin-sdk/v2/helper/schema"

	"github.com/plankit/plankit/testdata/providers/internal/store"
)

// objectResource is sdktest_object: a named object of an API that
// enforces references the way a database enforces roles and grants. An
// object names others in refs, resolved to the objects themselves when
// it is created or updated (a rename keeps them, as a role's grants
// follow the role). Creating or updating one whose refs name a missing
// object is refused; deleting an object another still refers to is
// refused; deleting an object whose refs, as it was last given them, no
// longer name an object fails too (a grant cannot be revoked from a role
// no longer called so). Updates and deletes wait delay_ms first (default
// 0), so a test can make a wrong order show. Every call is logged to
// STATE_DIR/api/calls.log with its start and end times.
func objectResource() *schema.Resource {
	return &schema.Resource{
		Schema: map[string]*schema.Schema{
			"name":     {Type: schema.TypeString, Required: true},
			"refs":     {Type: schema.TypeList, Optional: true, Elem: &schema.Schema{Type: schema.TypeString}},
			"kind":     {Type: schema.TypeString, Optional: true, ForceNew: true},
			"delay_ms": {Type: schema.TypeInt, Optional: true, Default: 0},
		},
		CreateContext: func(_ context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
			return apiCall(meta, "create", d, func(db apiDB) error {
				name, refs := d.Get("name").(string), stringList(d.Get("refs"))
				if db.byName(name) != "" {
					return fmt.Errorf("object %q already exists", name)
				}
				ids, err := db.resolve(refs)
				if err != nil {
					return err
				}
				id := store.NewID()
				db[id] = apiObject{Name: name, Refs: refs, RefIDs: ids}
				d.SetId(id)
				return nil
			})
		},
		ReadContext: func(_ context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
			return apiCall(meta, "read", d, func(db apiDB) error {
				o, ok := db[d.Id()]
				if !ok {
					d.SetId("")
					return nil
				}
				if err := d.Set("name", o.Name); err != nil {
					return err
				}
				return d.Set("refs", o.Refs)
			})
		},
		UpdateContext: func(_ context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
			sleep(d)
			return apiCall(meta, "update", d, func(db apiDB) error {
				if _, ok := db[d.Id()]; !ok {
					return fmt.Errorf("object %q does not exist", d.Get("name"))
				}
				name, refs := d.Get("name").(string), stringList(d.Get("refs"))
				if other := db.byName(name); other != "" && other != d.Id() {
					return fmt.Errorf("object %q already exists", name)
				}
				ids, err := db.resolve(refs)
				if err != nil {
					return err
				}
				db[d.Id()] = apiObject{Name: name, Refs: refs, RefIDs: ids}
				return nil
			})
		},
		DeleteContext: func(_ context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
			sleep(d)
			return apiCall(meta, "delete", d, func(db apiDB) error {
				o, ok := db[d.Id()]
				if !ok {
					return nil
				}
				if by := db.referrer(d.Id()); by != "" {
					return fmt.Errorf("cannot delete %q: it is still referenced by %q", o.Name, by)
				}
				if _, err := db.resolve(o.Refs); err != nil {
					return fmt.Errorf("releasing %q: %w", o.Name, err)
				}
				delete(db, d.Id())
				return nil
			})
		},
	}
}

type apiObject struct {
	Name   string   `json:"name"`
	Refs   []string `json:"refs,omitempty"`
	RefIDs []string `json:"ref_ids,omitempty"`
}

// apiDB is every object by id.
type apiDB map[string]apiObject

func (db apiDB) byName(name string) string {
	for id, o := range db {
		if o.Name == name {
			return id
		}
	}
	return ""
}

// referrer returns the name of an object that refers to object id, ""
// when none does.
func (db apiDB) referrer(id string) string {
	ids := make([]string, 0, len(db))
	for k := range db {
		ids = append(ids, k)
	}
	slices.Sort(ids)
	for _, k := range ids {
		if slices.Contains(db[k].RefIDs, id) {
			return db[k].Name
		}
	}
	return ""
}

// resolve returns the ids of the objects refs name.
func (db apiDB) resolve(refs []string) ([]string, error) {
	var ids []string
	for _, r := range refs {
		id := db.byName(r)
		if id == "" {
			return nil, fmt.Errorf("object %q does not exist", r)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// apiMu serialises the provider process's calls on the database file.
var apiMu sync.Mutex

// apiCall runs f on the database under the lock, saves it when f
// succeeds and logs the call: "START END OP NAME ok|error: MESSAGE", times
// in Unix nanoseconds.
func apiCall(meta any, op string, d *schema.ResourceData, f func(apiDB) error) diag.Diagnostics {
	dir := filepath.Join(meta.(store.Store).Dir, "api")
	start := time.Now()
	name := d.Get("name").(string)
	apiMu.Lock()
	err := func() error {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		db := apiDB{}
		b, err := os.ReadFile(filepath.Join(dir, "objects.json"))
		switch {
		case errors.Is(err, os.ErrNotExist):
		case err != nil:
			return err
		default:
			if err := json.Unmarshal(b, &db); err != nil {
				return err
			}
		}
		if err := f(db); err != nil {
			return err
		}
		b, err = json.MarshalIndent(db, "", "  ")
		if err != nil {
			return err
		}
		tmp := filepath.Join(dir, "objects.json.tmp")
		if err := os.WriteFile(tmp, b, 0o644); err != nil {
			return err
		}
		return os.Rename(tmp, filepath.Join(dir, "objects.json"))
	}()
	apiMu.Unlock()
	result := "ok"
	if err != nil {
		result = "error: " + err.Error()
	}
	if lf, lerr := os.OpenFile(filepath.Join(dir, "calls.log"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); lerr == nil {
		fmt.Fprintf(lf, "%d %d %s %s %s\n", start.UnixNano(), time.Now().UnixNano(), op, name, result)
		lf.Close()
	}
	if err != nil {
		return diag.FromErr(err)
	}
	return nil
}

func sleep(d *schema.ResourceData) {
	time.Sleep(time.Duration(d.Get("delay_ms").(int)) * time.Millisecond)
}

func stringList(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		s, _ := x.(string)
		out = append(out, s)
	}
	return out
}
