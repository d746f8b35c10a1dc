package configs

import "strings"

// configExts are the configuration file extensions, longest first so that
// "x.tf.json" is not read as a ".tf" file named "x.tf".
var configExts = []string{".tofu.json", ".tf.json", ".tofu", ".tf"}

// splitConfigExt splits a configuration file name into its stem and
// extension; the stem is "" when name has none of configExts.
func splitConfigExt(name string) (stem, ext string) {
	for _, ext := range configExts {
		if s, ok := strings.CutSuffix(name, ext); ok && s != "" {
			return s, ext
		}
	}
	return "", ""
}

// shadowedByTofu reports whether name is a .tf or .tf.json file that
// OpenTofu ignores because the same directory has the .tofu or .tofu.json
// file of the same stem (main.tf beside main.tofu, x.tf.json beside
// x.tofu.json): OpenTofu-specific configuration can sit next to the
// Terraform one, and plankit reads it as OpenTofu does. has reports
// whether a base name is present in the directory.
func shadowedByTofu(name string, has func(string) bool) bool {
	stem, ext := splitConfigExt(name)
	switch ext {
	case ".tf":
		return has(stem + ".tofu")
	case ".tf.json":
		return has(stem + ".tofu.json")
	}
	return false
}
