// Package local is the built-in registry.terraform.io/hashicorp/local
// provider: local_file and local_sensitive_file resources and data
// sources, schema-compatible with the real provider (2.x, schema version
// 0).
//
// Paths are used as given: a relative filename is relative to the
// process's working directory, as with the real provider (configurations
// usually write "${path.module}/..."). The provider reads no environment
// variables and keeps no state, so it is safe for concurrent calls.
//
// Drift is real: ReadResource reports a file that was deleted, or whose
// content no longer has the SHA-1 recorded as id, as gone (null state), so
// the core plans to create it again.
package local

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/plankit/plankit/providers/configschema"
)

// hashAttrs are the computed checksums of the file content.
var hashAttrs = map[string]string{
	"content_md5":          "MD5 checksum of the content, hex.",
	"content_sha1":         "SHA-1 checksum of the content, hex.",
	"content_sha256":       "SHA-256 checksum of the content, hex.",
	"content_base64sha256": "SHA-256 checksum of the content, base64.",
	"content_sha512":       "SHA-512 checksum of the content, hex.",
	"content_base64sha512": "SHA-512 checksum of the content, base64.",
}

// defaultPerm is the file and directory permission local_file (0777) or
// local_sensitive_file (0700) uses when configuration sets none.
func defaultPerm(sensitive bool) string {
	if sensitive {
		return "0700"
	}
	return "0777"
}

// fileSchema is local_file or, with sensitive, local_sensitive_file.
func fileSchema(sensitive bool) *configschema.Block {
	perm := defaultPerm(sensitive)
	b := &configschema.Block{
		Description: "A local file with the given content.",
		Attributes: map[string]*configschema.Attribute{
			"filename":             {Type: cty.String, Required: true, Description: "Path of the file; missing parent directories are created. Relative to the working directory."},
			"content":              {Type: cty.String, Optional: true, Sensitive: sensitive, Description: "UTF-8 content. Exactly one of the content arguments and source must be set."},
			"content_base64":       {Type: cty.String, Optional: true, Sensitive: sensitive, Description: "Binary content, base64-encoded."},
			"source":               {Type: cty.String, Optional: true, Description: "Path of a file whose content to copy."},
			"file_permission":      {Type: cty.String, Optional: true, Computed: true, Description: "Permissions of the file (octal, before umask); default " + perm + "."},
			"directory_permission": {Type: cty.String, Optional: true, Computed: true, Description: "Permissions of created directories (octal, before umask); default " + perm + "."},
			"id":                   {Type: cty.String, Computed: true, Description: "SHA-1 checksum of the content, hex."},
		},
	}
	if !sensitive {
		b.Attributes["sensitive_content"] = &configschema.Attribute{Type: cty.String, Optional: true, Sensitive: true, Deprecated: true,
			Description: "Deprecated: sensitive UTF-8 content; use local_sensitive_file instead."}
	}
	for name, desc := range hashAttrs {
		b.Attributes[name] = &configschema.Attribute{Type: cty.String, Computed: true, Description: desc}
	}
	return b
}

// dataFileSchema is the local_file or local_sensitive_file data source.
func dataFileSchema(sensitive bool) *configschema.Block {
	b := &configschema.Block{
		Description: "Reads a local file.",
		Attributes: map[string]*configschema.Attribute{
			"filename":       {Type: cty.String, Required: true, Description: "Path of the file to read. Relative to the working directory."},
			"content":        {Type: cty.String, Computed: true, Sensitive: sensitive, Description: "The file content as a UTF-8 string."},
			"content_base64": {Type: cty.String, Computed: true, Sensitive: sensitive, Description: "The file content, base64-encoded."},
			"id":             {Type: cty.String, Computed: true, Description: "SHA-1 checksum of the content, hex."},
		},
	}
	for name, desc := range hashAttrs {
		b.Attributes[name] = &configschema.Attribute{Type: cty.String, Computed: true, Description: desc}
	}
	return b
}
