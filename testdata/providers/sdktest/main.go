// Command terraform-provider-sdktest is a small provider built on
// terraform-plugin-sdk/v2, served over plugin protocol 5 only with the
// legacy type system. It exists to test plankit's plugin client; see the
// package doc of the parent module.
package main

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/go-cty/cty"
	"github.com/hashicorp/terraform-plugin-go/tfprotov5"
	"github.com/hashicorp/terraform-plugin-sdk/v2/diag"
	"github.com/hashicorp/terraform-plugin-sdk/v2/helper/schema"
	"github.com/hashicorp/terraform-plugin-sdk/v2/plugin"

	"github.com/plankit/plankit/testdata/providers/internal/store"
)

const thingKind = "sdkthing"

func main() {
	plugin.Serve(&plugin.ServeOpts{GRPCProviderFunc: func() tfprotov5.ProviderServer {
		return withSecret{schema.NewGRPCProviderServer(provider())}
	}})
}

func provider() *schema.Provider {
	return &schema.Provider{
		Schema: map[string]*schema.Schema{
			"state_dir": {
				Type:        schema.TypeString,
				Optional:    true,
				DefaultFunc: schema.EnvDefaultFunc("SDKTEST_STATE_DIR", nil),
				Description: "Directory holding the objects.",
			},
		},
		ResourcesMap: map[string]*schema.Resource{
			"sdktest_thing":  thingResource(),
			"sdktest_object": objectResource(),
		},
		DataSourcesMap: map[string]*schema.Resource{
			"sdktest_thing": thingDataSource(),
		},
		ConfigureContextFunc: func(_ context.Context, d *schema.ResourceData) (any, diag.Diagnostics) {
			dir, _ := d.Get("state_dir").(string)
			if dir == "" {
				return nil, diag.Diagnostics{{
					Severity:      diag.Error,
					Summary:       "Missing state directory",
					Detail:        "Set state_dir or SDKTEST_STATE_DIR.",
					AttributePath: cty.GetAttrPath("state_dir"),
				}}
			}
			return store.Store{Dir: dir}, nil
		},
	}
}

// thingResource is sdktest_thing: name forces a new object, created_at is
// computed, tags and a one-element nested block update in place; schema
// version 1 renamed version 0's "val" to "value". crash = true panics in
// create and update.
func thingResource() *schema.Resource {
	return &schema.Resource{
		SchemaVersion: 1,
		Schema:        thingSchemaV1(),
		StateUpgraders: []schema.StateUpgrader{{
			Version: 0,
			Type:    thingSchemaV0().CoreConfigSchema().ImpliedType(),
			Upgrade: func(_ context.Context, raw map[string]any, _ any) (map[string]any, error) {
				if v, ok := raw["val"]; ok {
					raw["value"] = v
					delete(raw, "val")
				}
				return raw, nil
			},
		}},
		Timeouts: &schema.ResourceTimeout{
			Create: schema.DefaultTimeout(2 * time.Minute),
			Delete: schema.DefaultTimeout(time.Minute),
		},
		Importer:             &schema.ResourceImporter{StateContext: schema.ImportStatePassthroughContext},
		CreateContext:        createThing,
		ReadContext:          readThing,
		UpdateContext:        updateThing,
		DeleteWithoutTimeout: deleteThing,
	}
}

func thingSchemaV0() *schema.Resource {
	return &schema.Resource{Schema: map[string]*schema.Schema{
		"name": {Type: schema.TypeString, Required: true, ForceNew: true},
		"val":  {Type: schema.TypeString, Optional: true},
	}}
}

func thingSchemaV1() map[string]*schema.Schema {
	return map[string]*schema.Schema{
		"name":       {Type: schema.TypeString, Required: true, ForceNew: true},
		"value":      {Type: schema.TypeString, Optional: true},
		"secret":     {Type: schema.TypeString, Optional: true, Sensitive: true},
		"crash":      {Type: schema.TypeBool, Optional: true},
		"created_at": {Type: schema.TypeString, Computed: true},
		"tags":       {Type: schema.TypeMap, Optional: true, Elem: &schema.Schema{Type: schema.TypeString}},
		"nested": {
			Type:     schema.TypeList,
			Optional: true,
			MaxItems: 1,
			Elem: &schema.Resource{Schema: map[string]*schema.Schema{
				"a": {Type: schema.TypeString, Optional: true},
			}},
		},
	}
}

func put(st store.Store, d *schema.ResourceData) error {
	rec := store.Record{
		"id":         d.Id(),
		"name":       d.Get("name"),
		"value":      d.Get("value"),
		"secret":     d.Get("secret"),
		"created_at": d.Get("created_at"),
		"tags":       d.Get("tags"),
	}
	return st.Put(thingKind, d.Id(), rec)
}

func createThing(_ context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
	if d.Get("crash").(bool) {
		panic(fmt.Sprintf("sdktest: crash requested while creating %q", d.Get("name")))
	}
	d.SetId(store.NewID())
	if err := d.Set("created_at", time.Now().UTC().Format(time.RFC3339)); err != nil {
		return diag.FromErr(err)
	}
	if err := put(meta.(store.Store), d); err != nil {
		return diag.FromErr(err)
	}
	return nil
}

func readThing(_ context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
	rec, ok, err := meta.(store.Store).Get(thingKind, d.Id())
	if err != nil {
		return diag.FromErr(err)
	}
	if !ok {
		d.SetId("")
		return nil
	}
	for _, k := range []string{"name", "value", "secret", "created_at", "tags"} {
		if err := d.Set(k, rec[k]); err != nil {
			return diag.FromErr(err)
		}
	}
	return nil
}

func updateThing(_ context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
	if d.Get("crash").(bool) {
		panic(fmt.Sprintf("sdktest: crash requested while updating %q", d.Get("name")))
	}
	if err := put(meta.(store.Store), d); err != nil {
		return diag.FromErr(err)
	}
	return nil
}

func deleteThing(_ context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
	if err := meta.(store.Store).Delete(thingKind, d.Id()); err != nil {
		return diag.FromErr(err)
	}
	return nil
}

// thingDataSource is data "sdktest_thing": reads an object by id.
func thingDataSource() *schema.Resource {
	return &schema.Resource{
		Schema: map[string]*schema.Schema{
			"id":    {Type: schema.TypeString, Required: true},
			"name":  {Type: schema.TypeString, Computed: true},
			"value": {Type: schema.TypeString, Computed: true},
			"tags":  {Type: schema.TypeMap, Computed: true, Elem: &schema.Schema{Type: schema.TypeString}},
		},
		ReadContext: func(_ context.Context, d *schema.ResourceData, meta any) diag.Diagnostics {
			id := d.Get("id").(string)
			rec, ok, err := meta.(store.Store).Get(thingKind, id)
			if err != nil {
				return diag.FromErr(err)
			}
			if !ok {
				return diag.Diagnostics{{
					Severity:      diag.Error,
					Summary:       "No such thing",
					Detail:        "There is no thing with id " + id + ".",
					AttributePath: cty.GetAttrPath("id"),
				}}
			}
			d.SetId(id)
			for _, k := range []string{"name", "value", "tags"} {
				if err := d.Set(k, rec[k]); err != nil {
					return diag.FromErr(err)
				}
			}
			return nil
		},
	}
}
